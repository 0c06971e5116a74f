/**
 * Byte measurements of serialised output. Limits such as "3 KB" are about what travels to the
 * model, so they are measured on the UTF-8 encoding of the JSON text, not on string length
 * (a string of 1,000 CJK characters is 3,000 bytes).
 */

import { jsonStringBytes, utf8ByteLength } from '../encoding/utf8-size.ts';
import { CtxgateError } from '../errors.ts';
import { findJsonFault } from '../json-fault.ts';
import { findTooDeep, MAX_DATA_DEPTH, tooDeep } from './checks.ts';

/** Bytes in one kilobyte as the policy counts it (1 KB = 1,024 bytes). */
export const KB = 1024;

/** UTF-8 byte length of a string (encoding/utf8-size.ts). */
export { utf8ByteLength };

/**
 * Compact JSON text of a value as it is sent (`JSON.stringify` without indentation). `undefined`
 * and functions serialise as `null`, as they do inside arrays. A cycle or a BigInt is
 * UNSUPPORTED_VALUE naming where it is, and so is data nested deeper than 100 levels
 * (`MAX_DATA_DEPTH`), whatever depth the runtime's own JSON.stringify could reach; errors thrown
 * by the data's own code (a getter, a `toJSON`) pass through unchanged.
 */
export function toJsonText(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch (error) {
    // A stack overflow is only a hint: the fixed-depth walk decides, so every runtime agrees.
    if (error instanceof RangeError) {
      const deep = findTooDeepQuietly(value);
      if (deep !== undefined) throw tooDeep('The value', deep);
    }
    const fault = error instanceof TypeError ? findJsonFault(value) : undefined;
    if (fault === undefined) throw error;
    throw new CtxgateError('UNSUPPORTED_VALUE', `Cannot serialise ${fault.what} at ${fault.path} as JSON: ${fault.hint}.`, {
      details: { path: fault.path, what: fault.what },
      cause: error,
    });
  }
  // Checked on the text, not by a second walk of the value: no getter or toJSON runs twice.
  if (jsonNestingExceeds(text, MAX_DATA_DEPTH)) throw tooDeep('The value', findTooDeepQuietly(value));
  return text;
}

function findTooDeepQuietly(value: unknown): string | undefined {
  try {
    return findTooDeep(value, true);
  } catch {
    return undefined;
  }
}

/** True when JSON `text` nests arrays and objects more than `max` levels deep. Linear in the text. */
function jsonNestingExceeds(text: string, max: number): boolean {
  // Each level takes two characters at least.
  if (text.length <= 2 * max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: its closing quote is the next one not escaped by an odd run of `\`.
      let j = text.indexOf('"', i + 1);
      while (j !== -1) {
        let slashes = 0;
        while (text.charCodeAt(j - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j === -1) return false;
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}

/**
 * UTF-8 bytes of the compact JSON text of a value. Data JSON cannot hold (a cycle, a BigInt, nesting
 * deeper than 100 levels) is UNSUPPORTED_VALUE.
 */
export function jsonByteLength(value: unknown): number {
  return utf8ByteLength(toJsonText(value));
}

/**
 * UTF-8 bytes of `text` once written inside a JSON string (quotes excluded), as `JSON.stringify`
 * escapes it: `"` and `\` and the short escapes take 2 bytes, other control characters and lone
 * surrogates 6. Counted without keeping an encoded copy (encoding/utf8-size.ts).
 */
export function jsonStringByteLength(text: string): number {
  return jsonStringBytes(text) - 2;
}
