import type { CoreApi } from './protocol.ts';

/**
 * A running ctxgate core: the async {@link CoreApi} plus lifecycle. Either a Web Worker driven
 * through Comlink or the same API in the caller's thread; callers cannot tell them apart except by
 * `mode`.
 */
export interface Engine extends CoreApi, AsyncDisposable {
  /** `worker` when the core runs in a Web Worker, `inline` when in the caller's thread. */
  readonly mode: 'worker' | 'inline';
  /** Terminates the worker (if any) and rejects later calls with WORKER_CLOSED. Idempotent. */
  close(): Promise<void>;
}

/**
 * `Symbol.asyncDispose`, or the well-known fallback that TypeScript's and Babel's `await using`
 * lowering also use, for engines that predate explicit resource management.
 */
export const asyncDispose: typeof Symbol.asyncDispose =
  (Symbol as { asyncDispose?: typeof Symbol.asyncDispose }).asyncDispose ?? (Symbol.for('Symbol.asyncDispose') as typeof Symbol.asyncDispose);
