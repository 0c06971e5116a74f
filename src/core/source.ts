import { CtxgateError } from '../errors.ts';

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

/**
 * Compiles a {@link WasmSource} to a module. Never called with bytes on workerd, which forbids
 * compiling at run time; there the default source is a statically imported module.
 */
export async function compileSource(source: WasmSource): Promise<WebAssembly.Module> {
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
  const res = await response;
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
