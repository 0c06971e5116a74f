import { utf16Writer } from '#utf16-writer';
import { JSON_ESCAPES_WASM } from './wasm/json-escapes.ts';

/**
 * The JSON-escape kernel (assembly/json-escapes.ts): counts, sixteen bytes at a time, the bytes
 * JSON's escapes add to UTF-8 text written into its window, and, where the runtime can copy UTF-16
 * into it (Node), the whole JSON size of UTF-16 text, sixteen code units at a time. Byte counts of
 * JSON strings are asked for synchronously (a context's size check, a tool output's byte limit),
 * so the kernel is a separate module of about a kilobyte, compiled synchronously on first use from
 * bytes embedded by the build, never the core (hundreds of kilobytes, loaded asynchronously).
 */
export interface JsonEscapeKernel {
  /** The kernel's window: encode into it, then call {@link JsonEscapeKernel.count}. Valid for the life of the process. */
  readonly window: Uint8Array;
  /**
   * Bytes JSON's escapes add to the first `length` bytes of the window, times two, plus 1 if any
   * byte is 0xEF (the lead byte of U+FFFD, which the encoder writes for a lone surrogate).
   */
  count(length: number): number;
  /**
   * Where the runtime can copy a string's UTF-16 code units into the window natively (Node), the
   * whole JSON size counted from them; null elsewhere.
   */
  readonly utf16: {
    /** Copies `s` (at most {@link JsonEscapeKernel.maxUnits} code units) into the window; returns the bytes written. */
    write(s: string): number;
    /** UTF-8 bytes of the JSON text of the first `units` code units in the window, quotes left out. */
    count(units: number): number;
  } | null;
  /** Code units the window holds. */
  readonly maxUnits: number;
}

interface KernelExports {
  memory: WebAssembly.Memory;
  jsonEscapeWindow(): number;
  jsonEscapeWindowSize(): number;
  jsonEscapeBytes(length: number): number;
  jsonUtf16Bytes(units: number): number;
}

/** undefined: not tried yet; null: this runtime does not compile WebAssembly at run time. */
let kernel: JsonEscapeKernel | null | undefined;

/**
 * The kernel, instantiated on first call; null where the runtime refuses to compile WebAssembly
 * from bytes at run time (workerd; a page whose Content-Security-Policy lacks 'wasm-unsafe-eval'),
 * in which case callers count in JavaScript, with the same results.
 */
export function jsonEscapeKernel(): JsonEscapeKernel | null {
  if (kernel === undefined) kernel = instantiate();
  return kernel;
}

function instantiate(): JsonEscapeKernel | null {
  let exports: KernelExports;
  try {
    const bytes = Uint8Array.from(atob(JSON_ESCAPES_WASM), (c) => c.charCodeAt(0));
    exports = new WebAssembly.Instance(new WebAssembly.Module(bytes)).exports as unknown as KernelExports;
  } catch {
    // Refused by the embedder or by the page's policy: a property of the runtime, not an error.
    return null;
  }
  // The module grows its memory once, while instantiating, and never again (it allocates nothing),
  // so this one view stays attached.
  const view = new Uint8Array(exports.memory.buffer, exports.jsonEscapeWindow(), exports.jsonEscapeWindowSize());
  const write = utf16Writer(view);
  // An exported function needs no `this`: it is handed out as it is.
  return {
    window: view,
    count: exports.jsonEscapeBytes,
    utf16: write === null ? null : { write, count: exports.jsonUtf16Bytes },
    maxUnits: view.byteLength >>> 1,
  };
}
