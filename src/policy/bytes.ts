/**
 * Byte measurements of serialised output. Limits such as "3 KB" are about what travels to the
 * model, so they are measured on the UTF-8 encoding of the JSON text, not on string length
 * (a string of 1,000 CJK characters is 3,000 bytes).
 */

import { jsonStringBytes, utf8ByteLength } from '../encoding/utf8-size.ts';
import { CtxgateError } from '../errors.ts';
import { jsonTextNestingExceeds } from '../json-depth.ts';
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
  if (jsonTextNestingExceeds(text, MAX_DATA_DEPTH)) throw tooDeep('The value', findTooDeepQuietly(value));
  return text;
}

function findTooDeepQuietly(value: unknown): string | undefined {
  try {
    return findTooDeep(value, true);
  } catch {
    return undefined;
  }
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
