// Character classes for the pre-tokeniser, decoded straight from UTF-8.
//
// BPE tokenisers split text with a Unicode regex before merging bytes; the classes here are the
// ones those regexes test (\p{L} by case, \p{M}, \p{N}, \s, \r\n). Outside ASCII they are
// approximated by code-point ranges: the estimator only has to land in the same piece as the real
// regex most of the time, and calibration absorbs what is left.

/** Punctuation, symbols, controls, format characters: `[^\s\p{L}\p{N}]`. */
export const CAT_OTHER: i32 = 0;
/** \p{Lu} / \p{Lt}. */
export const CAT_UPPER: i32 = 1;
/** \p{Ll}. */
export const CAT_LOWER: i32 = 2;
/** \p{Lm} / \p{Lo}: letters without case, in both the upper and the lower set of o200k. */
export const CAT_LETTER: i32 = 3;
/** \p{M}: a letter for o200k, punctuation for cl100k. */
export const CAT_MARK: i32 = 4;
/** \p{N}. */
export const CAT_NUMBER: i32 = 5;
/** \s other than CR and LF. */
export const CAT_SPACE: i32 = 6;
/** CR or LF. */
export const CAT_NEWLINE: i32 = 7;

/**
 * Scripts of letters, ranked so that the highest one seen in a word names the word's class
 * (a Japanese word mixing kana and kanji is a kana word).
 */
export const SCRIPT_ASCII: i32 = 0;
export const SCRIPT_LATIN: i32 = 1;
/** Cyrillic, Greek, Armenian, Georgian. */
export const SCRIPT_CASED: i32 = 2;
/** Hebrew, Arabic, Syriac, Thaana. */
export const SCRIPT_RTL: i32 = 3;
/** Devanagari to Sinhala. */
export const SCRIPT_INDIC: i32 = 4;
/** Thai, Lao, Tibetan, Myanmar, Khmer. */
export const SCRIPT_SEASIAN: i32 = 5;
export const SCRIPT_OTHER: i32 = 6;
export const SCRIPT_HAN: i32 = 7;
export const SCRIPT_HANGUL: i32 = 8;
export const SCRIPT_KANA: i32 = 9;
/** Number of scripts (word classes). */
export const SCRIPT_COUNT: i32 = 10;

/** Category of each ASCII byte (see the CAT_ constants), one byte each; index with a byte < 0x80. */
export const ASCII_CAT: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 7, 6, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0, 0, 0, 0, 0, 0,
  0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
  0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
]);

/** Code point decoded by the last {@link decodeAt}. */
export let cp: u32 = 0;
/** Byte length of the last decoded code point (1 for an invalid byte). */
export let cpLen: usize = 1;

/** Decodes the code point at `p` (before `end`) into {@link cp} / {@link cpLen}. */
// @ts-ignore: decorator
@inline
export function decodeAt(p: usize, end: usize): void {
  const b0 = <u32>load<u8>(p);
  if (b0 < 0x80) {
    cp = b0;
    cpLen = 1;
  } else if (b0 >= 0xc0 && b0 < 0xe0 && p + 1 < end) {
    cp = ((b0 & 0x1f) << 6) | (<u32>load<u8>(p + 1) & 0x3f);
    cpLen = 2;
  } else if (b0 >= 0xe0 && b0 < 0xf0 && p + 2 < end) {
    cp = ((b0 & 0x0f) << 12) | ((<u32>load<u8>(p + 1) & 0x3f) << 6) | (<u32>load<u8>(p + 2) & 0x3f);
    cpLen = 3;
  } else if (b0 >= 0xf0 && p + 3 < end) {
    cp =
      ((b0 & 0x07) << 18) |
      ((<u32>load<u8>(p + 1) & 0x3f) << 12) |
      ((<u32>load<u8>(p + 2) & 0x3f) << 6) |
      (<u32>load<u8>(p + 3) & 0x3f);
    cpLen = 4;
  } else {
    cp = 0xfffd;
    cpLen = 1;
  }
}

/** Category of a code point (see the CAT_ constants). */
export function category(c: u32): i32 {
  if (c < 0x80) return <i32>load<u8>(ASCII_CAT + c);
  if (c < 0x100) {
    if (c == 0x85) return CAT_OTHER; // NEL is not \s in ECMAScript
    if (c == 0xa0) return CAT_SPACE;
    if (c == 0xaa || c == 0xba) return CAT_LETTER;
    if (c == 0xb5) return CAT_LOWER;
    if (c == 0xb2 || c == 0xb3 || c == 0xb9 || (c >= 0xbc && c <= 0xbe)) return CAT_NUMBER;
    if (c == 0xd7 || c == 0xf7) return CAT_OTHER;
    if (c >= 0xc0 && c <= 0xde) return CAT_UPPER;
    if (c >= 0xdf) return CAT_LOWER;
    return CAT_OTHER;
  }
  if (c < 0x250) {
    if (c < 0x180) return (c & 1) == 0 ? CAT_UPPER : CAT_LOWER;
    return CAT_LOWER;
  }
  if (c < 0x2b0) return CAT_LOWER;
  if (c < 0x300) return c < 0x2c2 || (c >= 0x2c6 && c < 0x2d2) || c == 0x2ec || c == 0x2ee ? CAT_LETTER : CAT_OTHER;
  if (c < 0x370) return CAT_MARK;
  if (c < 0x400) {
    if (c >= 0x391 && c <= 0x3ab) return c == 0x3a2 ? CAT_LOWER : CAT_UPPER;
    if (c == 0x37e || c == 0x387 || c == 0x375 || c == 0x384 || c == 0x385) return CAT_OTHER;
    if (c >= 0x386 && c <= 0x38f) return c == 0x387 ? CAT_OTHER : CAT_UPPER;
    return CAT_LOWER;
  }
  if (c < 0x530) {
    if (c < 0x410) return CAT_UPPER;
    if (c < 0x430) return CAT_UPPER;
    if (c < 0x460) return CAT_LOWER;
    if (c >= 0x482 && c <= 0x489) return c == 0x482 ? CAT_OTHER : CAT_MARK;
    return (c & 1) == 0 ? CAT_UPPER : CAT_LOWER;
  }
  if (c < 0x590) {
    if (c >= 0x531 && c <= 0x556) return CAT_UPPER;
    if (c >= 0x560 && c <= 0x588) return CAT_LOWER;
    if (c == 0x559) return CAT_LETTER;
    return CAT_OTHER;
  }
  if (c < 0x600) {
    if (c >= 0x591 && c <= 0x5c7) return c == 0x5be || c == 0x5c0 || c == 0x5c3 || c == 0x5c6 ? CAT_OTHER : CAT_MARK;
    if (c >= 0x5d0 && c <= 0x5f2) return CAT_LETTER;
    return CAT_OTHER;
  }
  if (c < 0x700) {
    if ((c >= 0x660 && c <= 0x669) || (c >= 0x6f0 && c <= 0x6f9)) return CAT_NUMBER;
    if (c == 0x60c || c == 0x61b || c == 0x61f || (c >= 0x66a && c <= 0x66d) || c == 0x6d4 || c < 0x610) return CAT_OTHER;
    if ((c >= 0x610 && c <= 0x61a) || (c >= 0x64b && c <= 0x65f) || c == 0x670 || (c >= 0x6d6 && c <= 0x6ed)) return CAT_MARK;
    return CAT_LETTER;
  }
  if (c < 0x900) return CAT_LETTER;
  if (c < 0xe00) {
    // Indic blocks: digits at xx66..xx6F, dandas are punctuation, vowel signs and viramas are marks.
    const lo = c & 0x7f;
    if (lo >= 0x66 && lo <= 0x6f) return CAT_NUMBER;
    if (c == 0x964 || c == 0x965) return CAT_OTHER;
    if (lo <= 0x03 || (lo >= 0x3a && lo <= 0x4f) || (lo >= 0x51 && lo <= 0x57) || lo == 0x62 || lo == 0x63) return CAT_MARK;
    return CAT_LETTER;
  }
  if (c < 0xe80) {
    if (c >= 0xe50 && c <= 0xe59) return CAT_NUMBER;
    if (c == 0xe3f || c == 0xe4f || c == 0xe5a || c == 0xe5b) return CAT_OTHER;
    if (c == 0xe31 || (c >= 0xe34 && c <= 0xe3a) || (c >= 0xe47 && c <= 0xe4e)) return CAT_MARK;
    return CAT_LETTER;
  }
  if (c < 0x10a0) return CAT_LETTER;
  if (c < 0x1100) return c < 0x10d0 ? CAT_UPPER : CAT_LOWER;
  if (c < 0x1e00) {
    if (c == 0x1680) return CAT_SPACE;
    return CAT_LETTER;
  }
  if (c < 0x1f00) return (c & 1) == 0 ? CAT_UPPER : CAT_LOWER;
  if (c < 0x2000) return CAT_LOWER;
  if (c < 0x2070) {
    if (c <= 0x200a || c == 0x2028 || c == 0x2029 || c == 0x202f || c == 0x205f) return CAT_SPACE;
    return CAT_OTHER;
  }
  if (c < 0x20a0) {
    if (c == 0x2071 || c == 0x207f || c >= 0x2090) return CAT_LETTER;
    if (c == 0x2070 || (c >= 0x2074 && c <= 0x2079) || (c >= 0x2080 && c <= 0x2089)) return CAT_NUMBER;
    return CAT_OTHER;
  }
  if (c < 0x20d0) return CAT_OTHER;
  if (c < 0x2100) return CAT_MARK;
  if (c < 0x2150) return CAT_OTHER;
  if (c < 0x2190) return c == 0x2183 || c == 0x2184 ? CAT_LETTER : CAT_NUMBER;
  if (c < 0x2460) return CAT_OTHER;
  if (c < 0x24a0) return CAT_NUMBER;
  if (c < 0x2c00) return CAT_OTHER;
  if (c < 0x2e00) return CAT_LETTER;
  if (c < 0x3000) return CAT_OTHER;
  if (c < 0x3040) {
    if (c == 0x3000) return CAT_SPACE;
    if (c == 0x3005 || c == 0x3006 || (c >= 0x3031 && c <= 0x3035) || c == 0x303b || c == 0x303c) return CAT_LETTER;
    if (c == 0x3007 || (c >= 0x3021 && c <= 0x3029) || (c >= 0x3038 && c <= 0x303a)) return CAT_NUMBER;
    if (c >= 0x302a && c <= 0x302f) return CAT_MARK;
    return CAT_OTHER;
  }
  if (c < 0x3100) {
    if (c == 0x3099 || c == 0x309a) return CAT_MARK;
    if (c == 0x309b || c == 0x309c || c == 0x30a0 || c == 0x30fb) return CAT_OTHER;
    return CAT_LETTER;
  }
  if (c < 0x3200) return c >= 0x3190 && c <= 0x319f ? CAT_OTHER : CAT_LETTER;
  if (c < 0x3400) return CAT_OTHER;
  if (c < 0x4dc0) return CAT_LETTER;
  if (c < 0x4e00) return CAT_OTHER;
  if (c < 0xa490) return CAT_LETTER;
  if (c < 0xa4d0) return CAT_OTHER;
  if (c < 0xa700) return CAT_LETTER;
  if (c < 0xa720) return CAT_OTHER;
  if (c < 0xa800) return (c & 1) == 0 ? CAT_UPPER : CAT_LOWER;
  if (c < 0xd800) return CAT_LETTER;
  if (c < 0xf900) return CAT_OTHER;
  if (c < 0xfb00) return CAT_LETTER;
  if (c < 0xfb50) return c < 0xfb1d ? CAT_LOWER : CAT_LETTER;
  if (c < 0xfe00) return c == 0xfd3e || c == 0xfd3f ? CAT_OTHER : CAT_LETTER;
  if (c < 0xfe10) return CAT_MARK;
  if (c < 0xfe70) return c >= 0xfe20 && c <= 0xfe2f ? CAT_MARK : CAT_OTHER;
  if (c < 0xff00) return c == 0xfeff ? CAT_SPACE : CAT_LETTER;
  if (c < 0xff66) {
    if (c >= 0xff10 && c <= 0xff19) return CAT_NUMBER;
    if (c >= 0xff21 && c <= 0xff3a) return CAT_UPPER;
    if (c >= 0xff41 && c <= 0xff5a) return CAT_LOWER;
    return CAT_OTHER;
  }
  if (c < 0xffe0) return CAT_LETTER;
  if (c < 0x10000) return CAT_OTHER;
  if (c >= 0x1d400 && c < 0x1d800) return CAT_LOWER;
  if (c >= 0x1f000 && c < 0x1fc00) return CAT_OTHER;
  if (c >= 0xe0000) return c >= 0xe0100 && c <= 0xe01ef ? CAT_MARK : CAT_OTHER;
  return CAT_LETTER;
}

/** Script of a letter (see the SCRIPT_ constants). */
export function script(c: u32): i32 {
  if (c < 0x80) return SCRIPT_ASCII;
  if (c < 0x370) return SCRIPT_LATIN;
  if (c < 0x590) return SCRIPT_CASED;
  if (c < 0x7c0) return SCRIPT_RTL;
  if (c < 0x900) return SCRIPT_OTHER;
  if (c < 0xe00) return SCRIPT_INDIC;
  if (c < 0x10a0) return SCRIPT_SEASIAN;
  if (c < 0x1100) return SCRIPT_CASED;
  if (c < 0x1200) return SCRIPT_HANGUL;
  if (c >= 0x1780 && c < 0x1800) return SCRIPT_SEASIAN;
  if (c < 0x1e00) return SCRIPT_OTHER;
  if (c < 0x2000) return SCRIPT_LATIN;
  if (c < 0x2e80) return SCRIPT_OTHER;
  if (c < 0x3040) return SCRIPT_HAN;
  if (c < 0x3100) return SCRIPT_KANA;
  if (c < 0x3130) return SCRIPT_HAN;
  if (c < 0x3190) return SCRIPT_HANGUL;
  if (c < 0x31f0) return SCRIPT_HAN;
  if (c < 0x3200) return SCRIPT_KANA;
  if (c < 0xa000) return SCRIPT_HAN;
  if (c < 0xac00) return SCRIPT_OTHER;
  if (c < 0xd800) return SCRIPT_HANGUL;
  if (c >= 0xf900 && c < 0xfb00) return SCRIPT_HAN;
  if (c >= 0xff66 && c < 0xffa0) return SCRIPT_KANA;
  if (c >= 0xffa0 && c < 0xffe0) return SCRIPT_HANGUL;
  if (c >= 0xff00 && c < 0xff66) return SCRIPT_LATIN;
  if (c >= 0x20000) return SCRIPT_HAN;
  return SCRIPT_OTHER;
}

// Category and script of every BMP code point, one byte each (category in bits 0-2, script in
// bits 3-6), filled one 256-code-point page at a time the first time a text touches the page.
// Derived from category() and script() themselves, so it can only be faster, never different:
// the range tests above cost dozens of compares per CJK character.
const BMP_INFO: usize = memory.data(65536);
const PAGE_READY: usize = memory.data(256);

function fillPage(page: u32): void {
  const base = page << 8;
  for (let k: u32 = 0; k < 256; k++) {
    const c = base | k;
    store<u8>(BMP_INFO + c, <u8>(category(c) | (script(c) << 3)));
  }
  store<u8>(PAGE_READY + page, 1);
}

/** Category (bits 0-2) and script (bits 3-6) of the BMP code point `c`, through the table. */
// @ts-ignore: decorator
@inline
export function bmpInfo(c: u32): u32 {
  const page = c >>> 8;
  if (load<u8>(PAGE_READY + page) == 0) fillPage(page);
  return <u32>load<u8>(BMP_INFO + c);
}

/** {@link category} through the BMP table. */
// @ts-ignore: decorator
@inline
export function categoryFast(c: u32): i32 {
  return c < 0x10000 ? <i32>(bmpInfo(c) & 7) : category(c);
}

/** {@link script} through the BMP table. */
// @ts-ignore: decorator
@inline
export function scriptFast(c: u32): i32 {
  return c < 0x10000 ? <i32>(bmpInfo(c) >>> 3) : script(c);
}
