// FROZEN REFERENCE (test only): ctxgate-est/1 as first shipped, before the single-pass rewrite.
// See entry.as. Do not edit.
// The pre-tokeniser: splits UTF-8 text into the pieces that o200k_base and cl100k_base split it
// into before byte-pair merging, following the alternatives of their regexes in order (words with
// one leading non-letter, digits in groups of up to 3, punctuation runs, newline runs, space runs).
// BPE never merges across pieces, so a text's token count is the sum over its pieces.
import {
  CAT_LETTER,
  CAT_LOWER,
  CAT_MARK,
  CAT_NEWLINE,
  CAT_NUMBER,
  CAT_OTHER,
  CAT_SPACE,
  CAT_UPPER,
  category,
  cp,
  cpLen,
  decodeAt,
  script,
} from './chars';

/** Encoding families the pre-tokeniser follows. */
export const ENC_O200K: i32 = 0;
export const ENC_CL100K: i32 = 1;

// Piece classes (rows of the calibration tables). Words are 0..9, by script (chars.ts SCRIPT_*).
export const CLASS_NUMBER: i32 = 10;
export const CLASS_PUNCT: i32 = 11;
export const CLASS_SYMBOL: i32 = 12;
export const CLASS_NEWLINE: i32 = 13;
export const CLASS_SPACE: i32 = 14;
export const CLASS_CONTRACTION: i32 = 15;
/** Pieces inside a long base64 or hex run (embedded data), relabelled by scan.ts. */
export const CLASS_BLOB: i32 = 16;
/** Number of piece classes. */
export const CLASS_COUNT: i32 = 17;

/** Class of the piece returned by the last {@link nextPiece}. */
export let pieceClass: i32 = 0;

// Scratch set by catAt: the category and byte length of the code point at a position.
let lastCat: i32 = 0;
let lastLen: usize = 1;
let lastScript: i32 = 0;

// @ts-ignore: decorator
@inline
function catAt(p: usize, end: usize): i32 {
  decodeAt(p, end);
  lastLen = cpLen;
  lastCat = category(cp);
  return lastCat;
}

// @ts-ignore: decorator
@inline
function isLetterO200k(c: i32): bool {
  return c >= CAT_UPPER && c <= CAT_MARK;
}

// @ts-ignore: decorator
@inline
function isLetterCl100k(c: i32): bool {
  return c >= CAT_UPPER && c <= CAT_LETTER;
}

/** Length of an English contraction suffix (`'s`, `'re`, …, any case) at `p`, or 0. */
function contraction(p: usize, end: usize): usize {
  if (p + 1 >= end || load<u8>(p) != 0x27) return 0;
  const a = <u32>load<u8>(p + 1) | 0x20;
  if (a == 0x73 || a == 0x74 || a == 0x6d || a == 0x64) return 2; // s t m d
  if (p + 2 >= end) return 0;
  const b = <u32>load<u8>(p + 2) | 0x20;
  if ((a == 0x72 || a == 0x76) && b == 0x65) return 3; // re ve
  if (a == 0x6c && b == 0x6c) return 3; // ll
  return 0;
}

/** Script of the word's letters: the highest rank seen in [p, e). */
function wordScript(p: usize, e: usize): i32 {
  let s = 0;
  while (p < e) {
    const b = load<u8>(p);
    if (b < 0x80) {
      p++;
      continue;
    }
    decodeAt(p, e);
    const r = script(cp);
    if (r > s) s = r;
    p += cpLen;
  }
  return s;
}

/** o200k word: `[Lu Lt Lm Lo M]*[Ll Lm Lo M]+` or `[Lu Lt Lm Lo M]+[Ll Lm Lo M]*`, then a contraction. */
function wordO200k(j: usize, end: usize): usize {
  // Greedy run of the upper set (upper, caseless letters, marks), remembering the last caseless one.
  let k = j;
  let lastCaselessEnd: usize = 0;
  let c = CAT_OTHER;
  while (k < end) {
    c = catAt(k, end);
    if (c == CAT_UPPER) {
      k += lastLen;
    } else if (c == CAT_LETTER || c == CAT_MARK) {
      k += lastLen;
      lastCaselessEnd = k;
    } else break;
  }
  let e: usize;
  if (k < end && c == CAT_LOWER) {
    // The lower set continues the word.
    e = k;
    while (e < end) {
      const d = catAt(e, end);
      if (d == CAT_LOWER || d == CAT_LETTER || d == CAT_MARK) e += lastLen;
      else break;
    }
  } else if (lastCaselessEnd != 0) {
    // Backtracking gives the last caseless letter to the lower part: the word ends after it.
    e = lastCaselessEnd;
  } else {
    // All upper case: the second alternative takes the whole run.
    e = k;
  }
  return e + contraction(e, end);
}

/** cl100k word: `\p{L}+` (marks are not letters here). */
function wordCl100k(j: usize, end: usize): usize {
  let e = j;
  while (e < end) {
    if (isLetterCl100k(catAt(e, end))) e += lastLen;
    else break;
  }
  return e;
}

/**
 * Returns the end of the piece starting at `i` (base-relative addresses, `i < end`) and sets
 * {@link pieceClass}.
 */
export function nextPiece(i: usize, end: usize, enc: i32): usize {
  const o200k = enc == ENC_O200K;
  const c0 = catAt(i, end);
  const len0 = lastLen;

  if (!o200k) {
    const n = contraction(i, end);
    if (n != 0) {
      pieceClass = CLASS_CONTRACTION;
      return i + n;
    }
  }

  // Words, possibly with one leading non-letter, non-digit, non-newline character.
  let j: usize = 0;
  let isWord = false;
  if (o200k ? isLetterO200k(c0) : isLetterCl100k(c0)) {
    j = i;
    isWord = true;
  } else if ((c0 == CAT_OTHER || c0 == CAT_SPACE || c0 == CAT_MARK) && i + len0 < end) {
    const c1 = catAt(i + len0, end);
    if (o200k ? isLetterO200k(c1) : isLetterCl100k(c1)) {
      j = i + len0;
      isWord = true;
    }
  }
  if (isWord) {
    const e = o200k ? wordO200k(j, end) : wordCl100k(j, end);
    pieceClass = wordScript(j, e);
    return e;
  }

  if (c0 == CAT_NUMBER) {
    let e = i + len0;
    for (let n = 1; n < 3 && e < end; n++) {
      if (catAt(e, end) != CAT_NUMBER) break;
      e += lastLen;
    }
    pieceClass = CLASS_NUMBER;
    return e;
  }

  // Punctuation and symbol runs, with an optional leading space and trailing newlines (and `/`).
  let p = i;
  if (load<u8>(i) == 0x20 && i + 1 < end) {
    const c1 = catAt(i + 1, end);
    if (c1 == CAT_OTHER || c1 == CAT_MARK) p = i + 1;
  }
  const cp0 = p == i ? c0 : catAt(p, end);
  if (cp0 == CAT_OTHER || cp0 == CAT_MARK) {
    let e = p;
    let ascii = true;
    while (e < end) {
      const b = load<u8>(e);
      if (b >= 0x80) {
        const d = catAt(e, end);
        if (d != CAT_OTHER && d != CAT_MARK) break;
        ascii = false;
        e += lastLen;
      } else {
        const d = catAt(e, end);
        if (d != CAT_OTHER) break;
        e++;
      }
    }
    while (e < end) {
      const b = load<u8>(e);
      if (b == 0x0a || b == 0x0d || (o200k && b == 0x2f)) e++;
      else break;
    }
    pieceClass = ascii ? CLASS_PUNCT : CLASS_SYMBOL;
    return e;
  }

  // Whitespace: up to the last newline of the run; else all but the last space before a non-space.
  let e = i;
  let lastNewlineEnd: usize = 0;
  let lastStart = i;
  while (e < end) {
    const d = catAt(e, end);
    if (d == CAT_SPACE || d == CAT_NEWLINE) {
      lastStart = e;
      e += lastLen;
      if (d == CAT_NEWLINE) lastNewlineEnd = e;
    } else break;
  }
  if (lastNewlineEnd != 0) {
    pieceClass = CLASS_NEWLINE;
    return lastNewlineEnd;
  }
  pieceClass = CLASS_SPACE;
  if (e == i) return i + len0; // unreachable for well-formed input; never stall
  if (e < end && lastStart > i) return lastStart;
  return e;
}
