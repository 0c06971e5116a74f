/**
 * Character limits on text: counted in code points, cut where no surrogate pair is split
 * (encoding/utf16.ts), so a truncated string is still valid UTF-16.
 */

import { codePointLength, safeCutIndex } from '../encoding/utf16.ts';

/**
 * Cuts `text` to at most `maxChars` code points, ending with `ellipsis` (counted in the limit)
 * when anything was cut. Returns the text unchanged when it fits.
 */
export function limitChars(text: string, maxChars: number, ellipsis = '…'): string {
  if (text.length <= maxChars) return text; // code points <= code units
  if (codePointLength(text) <= maxChars) return text;
  const keep = Math.max(0, maxChars - codePointLength(ellipsis));
  let i = 0;
  let points = 0;
  while (i < text.length && points < keep) {
    const c = text.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < text.length ? 2 : 1;
    points++;
  }
  return text.slice(0, safeCutIndex(text, i)) + (maxChars >= codePointLength(ellipsis) ? ellipsis : '');
}
