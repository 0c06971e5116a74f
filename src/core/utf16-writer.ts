/**
 * Copies a string's UTF-16 code units into a window of bytes, where the runtime has a native way
 * to: Node's Buffer does it at memory speed (`src/core/utf16-writer.node.ts`, chosen by the
 * `#utf16-writer` package condition). Browsers, Deno and workerd have no such API (a JavaScript
 * loop over code units is slower than their UTF-8 encoder), so here there is none.
 *
 * @returns a function writing `s` at byte `at` of `window` (default 0) and returning the bytes
 * written (two per code unit; `s` must fit), or null.
 */
export function utf16Writer(_window: Uint8Array): ((s: string, at?: number) => number) | null {
  return null;
}
