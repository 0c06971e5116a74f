import { CtxgateError } from '../errors.ts';

/**
 * Code points and safe cut positions in UTF-16 strings: what a person calls a character, and where
 * a string can be cut without splitting a surrogate pair (a lone half would be written as U+FFFD
 * and corrupt the last character).
 */

/** Index at or before `index` that does not fall between the halves of a surrogate pair. */
export function safeCutIndex(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  const before = text.charCodeAt(index - 1);
  return before >= 0xd800 && before <= 0xdbff ? index - 1 : index;
}

/** Index at or after `index` that does not fall between the halves of a surrogate pair. */
export function safeCutIndexForward(text: string, index: number): number {
  if (index <= 0) return 0;
  if (index >= text.length) return text.length;
  const at = text.charCodeAt(index);
  return at >= 0xdc00 && at <= 0xdfff ? index + 1 : index;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/** Number of Unicode code points in a string (what a person calls "characters"). */
export function codePointLength(text: string): number {
  // Most outputs have no surrogates at all; a native scan settles that fast for megabytes.
  if (!SURROGATE.test(text)) return text.length;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const nativeWellFormed = (String.prototype as { isWellFormed?: () => boolean }).isWellFormed;
/**
 * True if `s` has no lone surrogate: ES2024 `isWellFormed` where the engine has it (all four
 * targets today), a regex otherwise.
 */
export const isWellFormed: (s: string) => boolean =
  typeof nativeWellFormed === 'function' ? (s) => nativeWellFormed.call(s) as boolean : (s) => !LONE_SURROGATE.test(s);

/**
 * The index of the first lone surrogate in `s`, or -1. The native {@link isWellFormed} answers
 * first (a fraction of a millisecond for megabytes, where the regex takes tens), so well-formed
 * text, nearly all of it, is never searched.
 */
export function loneSurrogateIndex(s: string): number {
  if (isWellFormed(s)) return -1;
  return LONE_SURROGATE.exec(s)?.index ?? -1;
}

/** How messages name the lone surrogate at `index` of `text`: `a lone surrogate (U+D800) at index 3`. */
export function describeLoneSurrogate(text: string, index: number): string {
  return `a lone surrogate (U+${text.charCodeAt(index).toString(16).toUpperCase()}) at index ${index}`;
}

/**
 * UNSUPPORTED_VALUE if `text` holds a lone surrogate, which UTF-8 carries as U+FFFD (so distinct
 * texts would share hashes, ids and fingerprints): "`lead`: a lone surrogate (U+D800) at index 3
 * is not valid Unicode`why`; pass the text as valid UTF-16, or `bytes` as a Uint8Array.", with
 * `details` and the index.
 */
export function refuseLoneSurrogate(text: string, lead: string, details: Record<string, unknown>, { why = '', bytes = 'its bytes' } = {}): void {
  const index = loneSurrogateIndex(text);
  if (index < 0) return;
  throw new CtxgateError(
    'UNSUPPORTED_VALUE',
    `${lead}: ${describeLoneSurrogate(text, index)} is not valid Unicode${why}; pass the text as valid UTF-16, or ${bytes} as a Uint8Array.`,
    { details: { ...details, index } },
  );
}
