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
      { cause: typeof source === 'string' || source instanceof URL ? withUrlShown(cause, source) : cause, details: { source: describeSource(source) } },
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
      details: { status: res.status, url: shownUrl(res.url) },
    });
  }
  // Streaming compilation needs the application/wasm type; dev servers and file: URLs often lack it.
  if (typeof WebAssembly.compileStreaming === 'function' && res.headers.get('content-type') === 'application/wasm') {
    return WebAssembly.compileStreaming(res);
  }
  return WebAssembly.compile(await res.arrayBuffer());
}

function describeSource(source: WasmSource): string {
  if (typeof source === 'string' || source instanceof URL) return shownUrl(source);
  if (source instanceof ArrayBuffer || source instanceof Uint8Array) return `${source.byteLength} bytes`;
  return Object.prototype.toString.call(source);
}

/**
 * `cause` with `url` in its message and stack as {@link shownUrl} shows it: a fetch's own error
 * may quote the URL whole (undici: "Request cannot be constructed from a URL that includes
 * credentials: http://user:pass@…"). Any other cause is kept as it is.
 */
function withUrlShown(cause: unknown, url: string | URL): unknown {
  if (!(cause instanceof Error)) return cause;
  const forms = new Set([String(url)]);
  try {
    forms.add(new URL(url).href);
  } catch {
    // not an absolute URL: only the string as given can appear
  }
  const shown = shownUrl(url);
  const clean = (text: string): string => [...forms].reduce((t, form) => t.split(form).join(shown), text);
  const message = clean(cause.message);
  const stack = cause.stack === undefined ? undefined : clean(cause.stack);
  if (message === cause.message && stack === cause.stack) return cause;
  const copy = new Error(message);
  copy.name = cause.name;
  if (stack !== undefined) copy.stack = stack;
  return copy;
}

/**
 * A URL as an error shows it: without its query, fragment and user info, which is where signed
 * asset URLs carry their credentials (`?X-Amz-Credential=AKIA…`, `?access_token=…`, `user:pass@`).
 * What is left names the file to check; a string that is no absolute URL is shown to its first `?`
 * or `#`, the same way.
 */
function shownUrl(url: string | URL): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const text = String(url);
    const cut = text.search(/[?#]/);
    return cut < 0 ? text : `${text.slice(0, cut)}${text[cut] === '?' ? '?…' : '#…'}`;
  }
  const hidden = parsed.search !== '' || parsed.hash !== '' || parsed.username !== '' || parsed.password !== '';
  parsed.search = '';
  parsed.hash = '';
  parsed.username = '';
  parsed.password = '';
  return hidden ? `${parsed.href} (query, fragment and user info left out)` : parsed.href;
}
