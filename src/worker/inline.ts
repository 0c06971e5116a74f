import { CtxgateError } from '../errors.ts';
import { createCoreApi } from './api.ts';
import { coreMethods } from './protocol.ts';
import { asyncDispose, type Engine } from './engine.ts';
import { PendingCalls } from './pending.ts';

/**
 * Runs the core in the caller's thread with the same async API as the worker. Used on workerd,
 * which has no Web Workers, and by default in Node.
 */
export function createInlineEngine(): Engine {
  const api = createCoreApi('inline');
  let closed = false;
  // Calls still running: close() rejects them with WORKER_CLOSED, as the worker engine does (their
  // work finishes in this thread, and its result is dropped).
  const pending = new PendingCalls();
  const engine = { mode: 'inline' } as Engine & Record<string, unknown>;
  for (const name of coreMethods) {
    const method = api[name] as (...args: unknown[]) => Promise<unknown>;
    (engine as Record<string, unknown>)[name] = (...args: unknown[]) => (closed ? Promise.reject(closedError()) : pending.track(() => method(...args)));
  }
  engine.close = async () => {
    closed = true;
    pending.rejectAll(closedError());
  };
  engine[asyncDispose] = () => engine.close();
  return engine;
}

export function closedError(): CtxgateError {
  return new CtxgateError('WORKER_CLOSED', 'This ctxgate instance was closed; create a new one with createCtxgate().');
}
