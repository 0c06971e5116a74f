/** A position in a string: UTF-16 offset plus 1-based line and column (UTF-16 code units). */
export interface TextPosition {
  readonly offset: number;
  readonly line: number;
  readonly column: number;
}

/**
 * Maps ascending UTF-8 byte offsets of `text` (as TextEncoder encodes it, lone surrogates becoming
 * U+FFFD) to UTF-16 offsets with line and column. One forward pass that stops at the last offset.
 */
export function mapByteOffsets(text: string, byteOffsets: readonly number[]): TextPosition[] {
  const out: TextPosition[] = [];
  let i = 0; // UTF-16 index
  let b = 0; // UTF-8 byte offset of text[i]
  let line = 1;
  let lineStart = 0;
  for (const target of byteOffsets) {
    while (b < target && i < text.length) {
      const c = text.charCodeAt(i);
      if (c < 0x80) {
        b += 1;
        i += 1;
        if (c === 10) {
          line++;
          lineStart = i;
        }
      } else if (c < 0x800) {
        b += 2;
        i += 1;
      } else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        b += 4;
        i += 2;
      } else {
        b += 3; // BMP character, or a lone surrogate encoded as U+FFFD
        i += 1;
      }
    }
    out.push({ offset: i, line, column: i - lineStart + 1 });
  }
  return out;
}

/** Line and column of UTF-16 offsets (ascending) in `text`. */
export function mapUtf16Offsets(text: string, offsets: readonly number[]): TextPosition[] {
  const out: TextPosition[] = [];
  let line = 1;
  let lineStart = 0;
  let scanned = 0;
  for (const target of offsets) {
    for (let nl = text.indexOf('\n', scanned); nl !== -1 && nl < target; nl = text.indexOf('\n', nl + 1)) {
      line++;
      lineStart = nl + 1;
    }
    scanned = Math.max(scanned, target);
    out.push({ offset: target, line, column: target - lineStart + 1 });
  }
  return out;
}
