import { expectMethods, expectOptions, wrongKind } from './args.ts';
import { CtxgateError, invalidParams } from './errors.ts';
import { createDefaultEngine, SHARED_ENGINE_IN_THREAD } from '#engine';
import { createWorkerEngine } from './worker/client.ts';
import type { Engine } from './worker/engine.ts';
import { createInlineEngine } from './worker/inline.ts';
import type { TransferableWasmSource } from './worker/protocol.ts';

/** Options of {@link createCtxgate}. */
export interface CtxgateOptions {
  /** Where to load the core from; defaults to the .wasm shipped for this runtime. */
  wasm?: TransferableWasmSource;
  /**
   * Where the core runs. Default: a module Web Worker in browsers and Deno, in-thread on workerd
   * and Node. `false` forces in-thread; a `Worker` you created (from ctxgate's `worker` entry) is
   * used as is.
   */
  worker?: Worker | false;
  /** Transfer byte inputs to the worker instead of copying them (detaches your buffers). */
  transferInputs?: boolean;
}

/**
 * Starts a ctxgate engine and loads its core. The returned engine has the async API of the core,
 * `close()`, and `Symbol.asyncDispose` for `await using`.
 *
 * @example
 * await using cg = await createCtxgate();
 * const crc = await cg.crc32('hello');
 */
export async function createCtxgate(options: CtxgateOptions = {}): Promise<Engine> {
  checkOptions(options);
  const engine =
    options.worker === false
      ? createInlineEngine()
      : options.worker !== undefined
        ? createWorkerEngine(options.worker, { transferInputs: options.transferInputs ?? false })
        : createDefaultEngine();
  try {
    await engine.init(sendableSource(options.wasm));
  } catch (error) {
    await engine.close();
    throw error;
  }
  return engine;
}

/**
 * The wasm source as the engine receives it. A `URL` cannot be structured-cloned to a worker, so it
 * goes as its `href`; a relative URL string is resolved here, against the page, since in the
 * worker it would resolve against the worker's script.
 */
function sendableSource(wasm: TransferableWasmSource | undefined): TransferableWasmSource | undefined {
  if (wasm instanceof URL) return wasm.href;
  const base = (globalThis as { location?: { href?: unknown } }).location?.href;
  if (typeof wasm === 'string' && typeof base === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(wasm)) {
    try {
      return new URL(wasm, base).href;
    } catch {
      return wasm; // refused when it is loaded, with the source named
    }
  }
  return wasm;
}

/**
 * INVALID_PARAMS unless `options` is an object or undefined, `options.worker` is `false`, undefined
 * or a Worker (something with `postMessage` and `addEventListener`), and `options.transferInputs` a
 * boolean or undefined. `options.wasm` is checked when it is loaded (WASM_LOAD_FAILED).
 */
function checkOptions(options: unknown): asserts options is CtxgateOptions {
  expectOptions(options);
  const { worker, transferInputs } = options ?? {};
  if (worker !== undefined && worker !== false) expectMethods(worker, 'options.worker', ['postMessage', 'addEventListener'], 'a Worker, false or undefined');
  if (transferInputs !== undefined && typeof transferInputs !== 'boolean') {
    throw wrongKind('options.transferInputs', 'a boolean', transferInputs);
  }
}

let shared: Promise<Engine> | undefined;
/** The options the shared engine was started with. */
let sharedOptions: CtxgateOptions = {};

/**
 * Starts the shared engine behind the package-level functions (`crc32`, `sha256Hex`,
 * `buildContext`, …). Optional: those functions start it on first use. Call it first to override
 * the core's source (for example a CDN URL) or to fail early. It runs in a Web Worker in browsers
 * and in the calling thread elsewhere (in Deno too, where a live worker would keep a script from
 * exiting; pass `worker` to have one). The synchronous helpers (`scanSecrets`, `sha256HexSync`, …)
 * run in the calling thread: they need `await loadCore()` (with the same source, if you override it).
 *
 * Once it runs, `init()` returns it; options other than those it was started with are
 * INVALID_PARAMS (`shutdown()` first). Closing it, like `shutdown()`, lets the next call start anew.
 */
export function init(options: CtxgateOptions = {}): Promise<Engine> {
  if (shared) {
    // Options other than the running engine's would be ignored silently (a CDN core never loaded).
    if (!sameOptions(options, sharedOptions)) {
      return Promise.reject(
        invalidParams('options', 'differ from those the shared engine was started with; call shutdown() first to start it with these, or use createCtxgate(options) for an engine of your own.'),
      );
    }
    return shared;
  }
  // In Deno the shared engine runs in-thread unless a worker is given (see engine.deno.ts).
  // Options of the wrong kind (null) go as given, for createCtxgate to refuse.
  const inThread = SHARED_ENGINE_IN_THREAD && (options === undefined || (typeof options === 'object' && options !== null && options.worker === undefined));
  const effective = inThread ? { ...options, worker: false as const } : options;
  const pending = createCtxgate(effective).then((engine) => {
    // Closing the shared engine (not only shutdown()) lets the next package-level call start a
    // new one, instead of failing with WORKER_CLOSED until shutdown().
    const close = engine.close.bind(engine);
    engine.close = async () => {
      if (shared === pending) shared = undefined;
      await close();
    };
    return engine;
  });
  pending.catch(() => {
    if (shared === pending) shared = undefined;
  });
  shared = pending;
  sharedOptions = options ?? {};
  return pending;
}

/**
 * Whether `given` asks for nothing the running engine was not started with: no option (the
 * package-level calls), or the same ones (a repeated `init` at start-up). A URL and its href are
 * the same source.
 */
function sameOptions(given: CtxgateOptions | undefined, running: CtxgateOptions): boolean {
  if (given === undefined || given === null || typeof given !== 'object') return true;
  const source = (w: unknown): unknown => (w instanceof URL ? w.href : w);
  return (
    (given.wasm === undefined || source(given.wasm) === source(running.wasm)) &&
    (given.worker === undefined || given.worker === running.worker) &&
    (given.transferInputs === undefined || given.transferInputs === (running.transferInputs ?? false))
  );
}

/** The shared engine behind the package-level functions. */
export function sharedEngine(): Promise<Engine> {
  return shared ?? init();
}

/** Closes the shared engine; the next package-level call starts a new one. */
export async function shutdown(): Promise<void> {
  const current = shared;
  shared = undefined;
  if (current) await (await current.catch(() => undefined))?.close();
}

/** Thrown for calls that need a running engine when none can be started. */
export function notRunning(): CtxgateError {
  return new CtxgateError('NOT_INITIALIZED', 'No ctxgate engine is running; call init() or createCtxgate().');
}
