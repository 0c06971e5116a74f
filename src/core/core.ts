import { CtxgateError } from '../errors.ts';
import { instantiate } from './wasm/ctxgate.js';
import { loadDefaultModule } from '#wasm-source';
import { utf16Writer } from '#utf16-writer';
import { compileSource, type WasmSource } from './source.ts';

/** The raw exports of the core, as the generated glue types them. */
export type CoreExports = Awaited<ReturnType<typeof instantiate>>;

const encoder = new TextEncoder();

/**
 * Strings at least this long are copied as UTF-16 code units and encoded by the core where the
 * runtime can copy code units natively (Node); shorter ones go through the encoder, whose fixed cost
 * per call is lower than a copy plus a call into the core.
 */
const UTF16_MIN_UNITS = 256;

/**
 * The most the core takes in one call: its allocator refuses a block of 1 GiB, and the input
 * window grows in powers of two. A string needs room for 3 bytes per UTF-16 code unit.
 */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;

/** INVALID_PARAMS for an input the core cannot take at once, with what to do instead. */
function tooLarge(bytes: number): CtxgateError {
  return new CtxgateError(
    'INVALID_PARAMS',
    `The input needs ${bytes.toLocaleString('en-US')} bytes in the ctxgate core, which takes at most ${MAX_INPUT_BYTES.toLocaleString('en-US')} bytes (512 MiB; a string at most ${Math.floor(MAX_INPUT_BYTES / 3).toLocaleString('en-US')} UTF-16 code units) in one call. Split it into parts: crc32 takes a seed to continue from, and sha256Hex a stream.`,
    { details: { field: 'input', bytes, maxBytes: MAX_INPUT_BYTES } },
  );
}

/**
 * The exports every operation needs. A .wasm that lacks one is not this version's core: it would
 * instantiate, then fail every call with a TypeError, so it is refused when it loads.
 */
const REQUIRED_EXPORTS = [
  'memory', 'ioInput', 'ioOutput', 'ioOutputLen', 'ioRelease', 'crc32', 'utf8Validate', 'textFacts', 'utf16ToUtf8',
  'sha256', 'sha256Batch', 'sha256Init', 'sha256Update', 'sha256Final', 'sha256Drop', 'sortBlocks',
  'secretScan', 'secretScanSteps', 'secretRuleCount', 'secretPositions', 'tokensEstimate', 'tokensEstimatorVersion',
] as const satisfies readonly (keyof CoreExports | 'memory')[];

/**
 * One instance of the WebAssembly core with the only code that touches its memory. Inputs are
 * copied into the core's I/O window right before a call and outputs copied out with `slice()`
 * right after; no view into `memory.buffer` outlives a call, because `memory.grow` detaches it.
 */
export class Core {
  readonly #exports: CoreExports;
  readonly #memory: WebAssembly.Memory;
  /** The code-unit writer over `#utf16Buffer` (Node), rebuilt when memory grows; null elsewhere. */
  #utf16: ((s: string, at?: number) => number) | null = null;
  #utf16Buffer: ArrayBuffer | undefined;

  /** @internal Use {@link initCore} / {@link getCore}. */
  constructor(exports: CoreExports) {
    this.#exports = exports;
    this.#memory = (exports as unknown as { memory: WebAssembly.Memory }).memory;
  }

  /** The raw numeric exports, for the capability modules in src/core/. */
  get raw(): CoreExports {
    return this.#exports;
  }

  /**
   * Reserves an input window of `len` bytes without writing it; returns its address.
   * INVALID_PARAMS when the core cannot take that much.
   */
  reserve(len: number): number {
    if (len > MAX_INPUT_BYTES) throw tooLarge(len);
    return this.#exports.ioInput(len);
  }

  /** Copies bytes into the input window; returns their address. */
  writeBytes(bytes: Uint8Array): number {
    const ptr = this.reserve(bytes.byteLength);
    new Uint8Array(this.#memory.buffer, ptr, bytes.byteLength).set(bytes);
    return ptr;
  }

  /**
   * Encodes a string as UTF-8 straight into the input window (no intermediate copy); returns the
   * address and the byte length. Lone surrogates become U+FFFD, as with every TextEncoder.
   */
  writeString(text: string): { ptr: number; len: number } {
    // A UTF-16 code unit encodes to at most 3 UTF-8 bytes.
    const ptr = this.reserve(text.length * 3);
    return { ptr, len: this.#encodeAt(text, ptr) };
  }

  /**
   * Writes `text` as UTF-8 at `at`, which has room for 3 bytes per code unit; returns the bytes
   * written. Long strings go in as code units where the runtime copies them natively (Node), to
   * the last 2n of those bytes, and the core encodes them in place (utf16ToUtf8 reads every unit
   * before the bytes it writes can reach it); the rest go through the encoder.
   */
  #encodeAt(text: string, at: number): number {
    const n = text.length;
    if (n >= UTF16_MIN_UNITS) {
      const write = this.#utf16Writer();
      if (write !== null) {
        write(text, at + n);
        return this.#exports.utf16ToUtf8(at + n, n, at);
      }
    }
    return encoder.encodeInto(text, new Uint8Array(this.#memory.buffer, at, n * 3)).written;
  }

  /**
   * The runtime's native code-unit copy over the whole of memory (see `#utf16-writer`), or null.
   * Memory that grew is a new buffer (the old one is detached), so the writer follows it.
   */
  #utf16Writer(): ((s: string, at?: number) => number) | null {
    const buffer = this.#memory.buffer;
    if (buffer !== this.#utf16Buffer) {
      this.#utf16Buffer = buffer;
      this.#utf16 = utf16Writer(new Uint8Array(buffer));
    }
    return this.#utf16;
  }

  /**
   * Encodes strings one after another into the input window, as the UTF-8 of their concatenation
   * when no part ends in a high surrogate that the next part's low surrogate would pair with (the
   * caller's guarantee), without building that string: concatenating a large text to a short one
   * makes the engine copy the whole text to flatten it. `second` may also be given as its UTF-8
   * bytes, which are copied. Returns the address and the byte length.
   */
  writeStrings(first: string, second: string | Uint8Array): { ptr: number; len: number } {
    const cap = first.length * 3 + (typeof second === 'string' ? second.length * 3 : second.byteLength);
    const ptr = this.reserve(cap);
    const a = this.#encodeAt(first, ptr);
    if (typeof second !== 'string') {
      new Uint8Array(this.#memory.buffer, ptr + a, second.byteLength).set(second);
      return { ptr, len: a + second.byteLength };
    }
    return { ptr, len: a + this.#encodeAt(second, ptr + a) };
  }

  /** Writes either form of input; strings are encoded as UTF-8. */
  writeInput(input: string | Uint8Array): { ptr: number; len: number } {
    if (typeof input === 'string') return this.writeString(input);
    return { ptr: this.writeBytes(input), len: input.byteLength };
  }

  /** Copies the last operation's output window out of wasm memory. */
  readOutput(): Uint8Array<ArrayBuffer> {
    const ptr = this.#exports.ioOutput();
    const len = this.#exports.ioOutputLen();
    return new Uint8Array(this.#memory.buffer, ptr, len).slice();
  }

  /** A view of `len` bytes at `ptr`, valid only until the next call into the core. */
  view(ptr: number, len: number): Uint8Array {
    return new Uint8Array(this.#memory.buffer, ptr, len);
  }

  /** Current size of the core's linear memory, in bytes. */
  get memoryBytes(): number {
    return this.#memory.buffer.byteLength;
  }
}

let defaultModule: Promise<WebAssembly.Module> | undefined;
let corePromise: Promise<Core> | undefined;
let ready: Core | undefined;

/** The runtime's default module, compiled once per thread and cached as one promise. */
function loadDefault(): Promise<WebAssembly.Module> {
  if (!defaultModule) {
    const pending = loadDefaultModule().catch((cause: unknown) => {
      if (cause instanceof CtxgateError) throw cause;
      // A missing file or a denied read (Deno without --allow-read) is still a load failure.
      const what = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
      throw new CtxgateError(
        'WASM_LOAD_FAILED',
        `The ctxgate core's .wasm could not be read (${what}). Check that the package's dist/core/wasm/ctxgate.wasm is installed and readable (Deno: --allow-read), or pass the core's location as \`wasm\`.`,
        { cause },
      );
    });
    // A failed load is not cached: a later call may succeed (network back, file served).
    pending.catch(() => {
      if (defaultModule === pending) defaultModule = undefined;
    });
    defaultModule = pending;
  }
  return defaultModule;
}

/**
 * Loads the core for this thread. Without a source: the runtime default, compiled and
 * instantiated once; later calls return the same instance. With a source: a new instance from it
 * replaces this thread's core once it has loaded; if it fails, the current core stays.
 */
export function initCore(source?: WasmSource): Promise<Core> {
  if (source === undefined && corePromise) return corePromise;
  const pending = (source === undefined ? loadDefault() : compileSource(source)).then(instantiateCore).then((core) => {
    if (corePromise === pending || source !== undefined) {
      ready = core;
      corePromise = Promise.resolve(core);
    }
    return core;
  });
  if (source === undefined) {
    pending.catch(() => {
      if (corePromise === pending) corePromise = undefined;
    });
    corePromise = pending;
  }
  return pending;
}

/** The module each instance was made from, so a reset makes the next one from the same module. */
const moduleOf = new WeakMap<Core, WebAssembly.Module>();

async function instantiateCore(module: WebAssembly.Module): Promise<Core> {
  const names = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
  const missing = REQUIRED_EXPORTS.filter((name) => !names.has(name));
  if (missing.length) {
    throw new CtxgateError(
      'WASM_LOAD_FAILED',
      `The .wasm is not this version's ctxgate core: it lacks ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''}. Load the ctxgate.wasm that ships with this version; the current core stays.`,
      { details: { missing } },
    );
  }
  try {
    const core = new Core(await instantiate(module, {}));
    moduleOf.set(core, module);
    return core;
  } catch (cause) {
    throw new CtxgateError('WASM_LOAD_FAILED', 'The ctxgate core compiled but could not be instantiated; is the .wasm from this version of ctxgate?', {
      cause,
    });
  }
}

/**
 * The ready core, synchronously. Throws NOT_INITIALIZED until `await loadCore()` (or any async API
 * call) has loaded it, so a forgotten init fails loudly instead of hanging.
 */
export function getCore(): Core {
  if (!ready) {
    throw new CtxgateError(
      'NOT_INITIALIZED',
      'The ctxgate core is not loaded in this thread yet. Call `await loadCore()` once before using synchronous functions.',
    );
  }
  return ready;
}

/** Whether `core` is this thread's current instance (not replaced, nor its replacement still loading). */
export function isCurrentCore(core: Core): boolean {
  return ready === core;
}

/**
 * Runs an operation against the core. A trap inside WebAssembly (a bug, or memory exhausted) leaves
 * the instance in an unknown state, so it is discarded and the caller gets a CORE_FAILURE error. A
 * fresh instance is made at once from the same compiled module (not the runtime's default, which
 * may not be the one `loadCore(source)` loaded): async calls wait for it, and synchronous calls
 * work again once it is ready (`await loadCore()` waits for it).
 */
export function withCore<T>(op: (core: Core) => T): T {
  const core = getCore();
  try {
    const result = op(core);
    if (core.memoryBytes > recycleAbove) recycle(core);
    return result;
  } catch (cause) {
    if (cause instanceof WebAssembly.RuntimeError || cause instanceof RangeError) {
      replace(core);
      throw new CtxgateError(
        'CORE_FAILURE',
        'The ctxgate core failed on this input and was reset; the call was not completed. A fresh core is loading: ' +
          '`await loadCore()` before the next synchronous call, and please report the input.',
        { cause },
      );
    }
    throw cause;
  }
}

/**
 * Linear memory above which an instance is swapped for a fresh one from the same module after a
 * call. WebAssembly memory never shrinks: without this, one 50 MB text would leave the thread (a
 * tab's worker, a long-lived server) holding the ~150 MiB window it grew for until it exits.
 * Ordinary inputs stay far below it (a whole source tree's files, one at a time: about 22 MiB).
 */
export const RECYCLE_ABOVE_BYTES = 64 * 1024 * 1024;
let recycleAbove = RECYCLE_ABOVE_BYTES;

/** Work that keeps state in an instance's memory (a streaming SHA-256), by instance. */
const pins = new Map<Core, number>();
/** The instance a fresh one is being made for, and that fresh one once it is ready. */
let retiring: Core | undefined;
let spare: Core | undefined;

/**
 * Keeps `core` from being recycled while work holds state in its memory; returns the release,
 * which is idempotent. A pinned instance is swapped once its last pin is released.
 */
export function pinCore(core: Core): () => void {
  pins.set(core, (pins.get(core) ?? 0) + 1);
  let held = true;
  return () => {
    if (!held) return;
    held = false;
    const n = pins.get(core)! - 1;
    if (n > 0) pins.set(core, n);
    else {
      pins.delete(core);
      swapIfIdle();
    }
  };
}

/**
 * Starts making a fresh instance to replace `core`, whose memory grew past the threshold. The
 * current instance keeps serving every call (synchronous ones included) until the fresh one is
 * ready and nothing is pinned to the old one; then the old one, and its memory, are let go.
 * `initCore()` (and so `loadCore()`) waits for the swap.
 */
function recycle(core: Core): void {
  if (ready !== core || retiring === core) return;
  retiring = core;
  const pending: Promise<Core> = instantiateCore(moduleOf.get(core)!).then(
    (next) => {
      if (retiring === core) spare = next;
      swapIfIdle();
      return ready ?? next;
    },
    // The module instantiated before; if it cannot now, the grown instance is still sound.
    () => {
      if (retiring === core) retiring = undefined;
      return core;
    },
  );
  corePromise = pending;
}

/** Swaps in the spare instance when the one it replaces is still current and nothing is pinned to it. */
function swapIfIdle(): void {
  if (spare === undefined || retiring === undefined || pins.has(retiring)) return;
  if (ready === retiring) {
    ready = spare;
    corePromise = Promise.resolve(spare);
  }
  retiring = spare = undefined;
}

/**
 * Sets the recycling threshold (tests: a small one makes recycling observable with small inputs);
 * returns the previous one. @internal
 */
export function setRecycleThreshold(bytes: number): number {
  const previous = recycleAbove;
  recycleAbove = bytes;
  return previous;
}

/** Discards a failed instance and starts making its replacement from the same module. */
function replace(failed: Core): void {
  if (ready !== failed) return;
  ready = undefined;
  // Every instance is made by instantiateCore, which records its module.
  const pending: Promise<Core> = instantiateCore(moduleOf.get(failed)!).then((core) => {
    if (corePromise === pending) ready = core;
    return core;
  });
  pending.catch(() => {
    if (corePromise === pending) corePromise = undefined;
  });
  corePromise = pending;
}

/**
 * Runs `op` once this thread's core is loaded, loading it first if needed. Core failures are
 * classified by the {@link withCore} call around each use of the core inside `op`; errors of the
 * JavaScript around those uses (a caller's value, a bug) pass through as they are and never cost
 * the thread its core.
 */
export async function withCoreAsync<T>(op: (core: Core) => T): Promise<T> {
  if (!ready) await initCore();
  return op(getCore());
}

/** Forgets the loaded instance and module (tests, or to switch the source). */
export function resetCore(): void {
  retiring = spare = undefined;
  pins.clear();
  ready = undefined;
  corePromise = undefined;
  defaultModule = undefined;
}
