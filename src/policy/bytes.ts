/**
 * Byte measurements of serialised output. Limits such as "3 KB" are about what travels to the
 * model, so they are measured on the UTF-8 encoding of the JSON text, not on string length
 * (a string of 1,000 CJK characters is 3,000 bytes).
 */

/** Bytes in one kilobyte as the policy counts it (1 KB = 1,024 bytes). */
export const KB = 1024;

/**
 * UTF-8 byte length of a string, without allocating an encoded copy (outputs can be megabytes).
 * A lone surrogate counts 3 bytes, as TextEncoder replaces it with U+FFFD.
 */
export function utf8ByteLength(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 3;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * Compact JSON text of a value as it is sent (`JSON.stringify` without indentation). `undefined`
 * and functions serialise as `null`, as they do inside arrays.
 */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value) ?? 'null';
}

/** UTF-8 bytes of the compact JSON text of a value. */
export function jsonByteLength(value: unknown): number {
  return utf8ByteLength(toJsonText(value));
}

/**
 * UTF-8 bytes of `text` once written inside a JSON string (quotes excluded), as `JSON.stringify`
 * escapes it: `"` and `\` and the short escapes take 2 bytes, other control characters and lone
 * surrogates 6. Computed without building the JSON.
 */
export function jsonStringByteLength(text: string): number {
  let bytes = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20) bytes += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    else if (c === 0x22 || c === 0x5c) bytes += 2;
    else if (c < 0x80) bytes += 1;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const d = i + 1 < n ? text.charCodeAt(i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 6;
    } else if (c >= 0xdc00 && c <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}
