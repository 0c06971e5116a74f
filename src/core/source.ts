import { kindOf, wrongKind } from '../args.ts';
import { CtxgateError, invalidParams } from '../errors.ts';

/**
 * Where the core's WebAssembly comes from. Every runtime has a zero-config default (see the
 * `#wasm-source` entries in package.json); pass one of these to `init()` to override it, e.g. a
 * URL on your CDN, bytes you fetched, or on workerd a `WebAssembly.Module` you imported yourself.
 */
export type WasmSource =
  | WebAssembly.Module
  | ArrayBuffer
  | Uint8Array<ArrayBuffer>
  | Response
  | Promise<Response>
  | URL
  | string;

const WASM_SOURCE_KINDS = 'a WebAssembly.Module, an ArrayBuffer, a Uint8Array, a Response (or a promise of one), a URL or a URL string';

/**
 * INVALID_PARAMS (`field`) unless `source` is one of the kinds of {@link WasmSource}. A Response
 * is recognised by its shape too (`status`, `headers`, `arrayBuffer()`), so a fetch polyfill's
 * works; a thenable is taken as a promise of a Response and checked when it settles.
 */
export function checkWasmSource(source: unknown, field = 'source'): asserts source is WasmSource {
  if (typeof source === 'string' || source instanceof URL || source instanceof ArrayBuffer || source instanceof Uint8Array) return;
  if (source instanceof WebAssembly.Module || isResponseLike(source) || isThenable(source)) return;
  throw wrongKind(field, WASM_SOURCE_KINDS, source);
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { then?: unknown }).then === 'function';
}

function isResponseLike(value: unknown): value is Response {
  if (typeof Response !== 'undefined' && value instanceof Response) return true;
  if (value === null || typeof value !== 'object') return false;
  const r = value as { status?: unknown; headers?: unknown; arrayBuffer?: unknown };
  return typeof r.status === 'number' && typeof r.arrayBuffer === 'function' && r.headers !== null && typeof r.headers === 'object';
}

/**
 * Compiles a {@link WasmSource} to a module. Never called with bytes on workerd, which forbids
 * compiling at run time; there the default source is a statically imported module. A `source` of
 * another kind, or a promise that resolves to something other than a Response, is INVALID_PARAMS
 * (`source`); one that cannot be fetched or compiled is WASM_LOAD_FAILED.
 */
export async function compileSource(source: WasmSource): Promise<WebAssembly.Module> {
  checkWasmSource(source);
  try {
    if (source instanceof WebAssembly.Module) return source;
    if (source instanceof ArrayBuffer || source instanceof Uint8Array) return await WebAssembly.compile(source);
    if (typeof source === 'string' || source instanceof URL) return await compileResponse(fetch(source));
    return await compileResponse(source);
  } catch (cause) {
    if (cause instanceof CtxgateError) throw cause;
    throw new CtxgateError(
      'WASM_LOAD_FAILED',
      'Could not load the ctxgate core (WebAssembly). Check that the .wasm file is served next to the ' +
        'library, or pass its URL, bytes or a compiled WebAssembly.Module to init().',
      { cause, details: { source: describeSource(source) } },
    );
  }
}

async function compileResponse(response: Response | Promise<Response>): Promise<WebAssembly.Module> {
  const res: unknown = await response;
  if (!isResponseLike(res)) {
    // A fetch always gives a Response; this is the caller's own promise of something else.
    throw invalidParams('source', `must be a promise of a Response (it resolved to ${kindOf(res)}).`, { expected: 'a promise of a Response', got: kindOf(res) });
  }
  if (!res.ok) {
    throw new CtxgateError('WASM_LOAD_FAILED', `Fetching the ctxgate core failed with HTTP ${res.status}; check the URL passed to init().`, {
      details: { status: res.status, url: res.url },
    });
  }
  // Streaming compilation needs the application/wasm type; dev servers and file: URLs often lack it.
  if (typeof WebAssembly.compileStreaming === 'function' && res.headers.get('content-type') === 'application/wasm') {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

function describeSource(source: WasmSource): string {
  if (typeof source === 'string') return source;
  if (source instanceof URL) return source.href;
  if (source instanceof ArrayBuffer || source instanceof Uint8Array) return `${source.byteLength} bytes`;
  return Object.prototype.toString.call(source);
}
