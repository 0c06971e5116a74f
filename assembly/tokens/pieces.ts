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
  ASCII_CAT,
  SCRIPT_ASCII,
  categoryFast,
  cp,
  cpLen,
  decodeAt,
  bmpInfo,
  category,
  script,
} from './chars';
import { CASE, HIGHS, eqLanes, firstLane, inRange, lanesFrom } from './lanes';

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

// Byte length of the code point read by the last catAt / catWide.
let lastLen: usize = 1;

/** Category of the non-ASCII (or invalid) code point at `p`; sets lastLen. Kept out of line. */
function catWide(p: usize, end: usize): i32 {
  decodeAt(p, end);
  lastLen = cpLen;
  return categoryFast(cp);
}

// Category of the code point at `p`; sets lastLen. ASCII, most of every text, is one table load.
// @ts-ignore: decorator
@inline
function catAt(p: usize, end: usize): i32 {
  const b = <u32>load<u8>(p);
  if (b < 0x80) {
    lastLen = 1;
    return <i32>load<u8>(ASCII_CAT + b);
  }
  return catWide(p, end);
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
// @ts-ignore: decorator
@inline
function contraction(p: usize, end: usize): usize {
  if (p + 1 >= end || load<u8>(p) != 0x27) return 0;
  return contractionTail(p, end);
}

function contractionTail(p: usize, end: usize): usize {
  const a = <u32>load<u8>(p + 1) | 0x20;
  if (a == 0x73 || a == 0x74 || a == 0x6d || a == 0x64) return 2; // s t m d
  if (p + 2 >= end) return 0;
  const b = <u32>load<u8>(p + 2) | 0x20;
  if ((a == 0x72 || a == 0x76) && b == 0x65) return 3; // re ve
  if (a == 0x6c && b == 0x6c) return 3; // ll
  return 0;
}

// Class of the word found by the last wordO200k / wordCl100k: the highest script rank among its
// non-ASCII characters (SCRIPT_ASCII when it has none), kept while scanning them.
let wordScriptRank: i32 = 0;

/**
 * Category (bits 0-2) and script (bits 3-6) of the non-ASCII (or invalid) character at `p`; sets
 * lastLen. Inline for the word scanners, which read one such character after another.
 */
// @ts-ignore: decorator
@inline
function infoWide(p: usize, end: usize): u32 {
  decodeAt(p, end);
  lastLen = cpLen;
  const c = cp;
  return c < 0x10000 ? bmpInfo(c) : <u32>category(c) | (<u32>script(c) << 3);
}

/** o200k word: `[Lu Lt Lm Lo M]*[Ll Lm Lo M]+` or `[Lu Lt Lm Lo M]+[Ll Lm Lo M]*`, then a contraction. */
function wordO200k(j: usize, end: usize): usize {
  // Greedy run of the upper set (upper, caseless letters, marks), remembering the last caseless one.
  // ASCII has neither caseless letters nor marks, so an ASCII byte either extends the run as an
  // upper-case letter or ends it.
  let k = j;
  let lastCaselessEnd: usize = 0;
  let c = CAT_OTHER;
  let rank: u32 = 0;
  let rankAtCaseless: u32 = 0;
  while (k < end) {
    const b = <u32>load<u8>(k);
    if (b < 0x80) {
      c = <i32>load<u8>(ASCII_CAT + b);
      if (c != CAT_UPPER) break;
      k++;
      continue;
    }
    const info = infoWide(k, end);
    c = <i32>(info & 7);
    if (c == CAT_UPPER) {
      k += lastLen;
      rank = max(rank, info >>> 3);
    } else if (c == CAT_LETTER || c == CAT_MARK) {
      k += lastLen;
      rank = max(rank, info >>> 3);
      lastCaselessEnd = k;
      rankAtCaseless = rank;
    } else break;
  }
  let e: usize;
  if (k < end && c == CAT_LOWER) {
    // The lower set continues the word.
    e = k;
    while (e < end) {
      const b = <u32>load<u8>(e);
      if (b < 0x80) {
        if (<i32>load<u8>(ASCII_CAT + b) != CAT_LOWER) break;
        e++;
        continue;
      }
      const info = infoWide(e, end);
      const d = <i32>(info & 7);
      if (d == CAT_LOWER || d == CAT_LETTER || d == CAT_MARK) {
        e += lastLen;
        rank = max(rank, info >>> 3);
      } else break;
    }
  } else if (lastCaselessEnd != 0) {
    // Backtracking gives the last caseless letter to the lower part: the word ends after it.
    e = lastCaselessEnd;
    rank = rankAtCaseless;
  } else {
    // All upper case: the second alternative takes the whole run.
    e = k;
  }
  wordScriptRank = <i32>rank;
  return e + contraction(e, end);
}

/** cl100k word: `\p{L}+` (marks are not letters here). */
function wordCl100k(j: usize, end: usize): usize {
  let e = j;
  let rank: u32 = 0;
  while (e < end) {
    const b = <u32>load<u8>(e);
    if (b < 0x80) {
      const d = <i32>load<u8>(ASCII_CAT + b);
      if (d != CAT_UPPER && d != CAT_LOWER) break;
      e++;
      continue;
    }
    const info = infoWide(e, end);
    if (!isLetterCl100k(<i32>(info & 7))) break;
    e += lastLen;
    rank = max(rank, info >>> 3);
  }
  wordScriptRank = <i32>rank;
  return e;
}

/**
 * Returns the end of the piece starting at `i` (base-relative addresses, `i < end`) and sets
 * {@link pieceClass}. Pieces made of ASCII take a path that only reads byte categories; any piece
 * that touches a non-ASCII byte is split again by the general path, which decodes characters.
 */
export function nextPiece(i: usize, end: usize, enc: i32): usize {
  let r = windowPiece(i, end, enc == ENC_O200K);
  if (r == 0) r = asciiPiece(i, end, enc == ENC_O200K);
  if (r != 0) {
    pieceClass = <i32>(r >>> 32);
    return <usize>(<u32>r);
  }
  return nextPieceGeneral(i, end, enc);
}

// Category of every byte: ASCII_CAT below 0x80, BYTE_WIDE for the bytes of multi-byte characters.
// One table load answers both "which category" and "is it ASCII" for the ASCII path.
const BYTE_WIDE: i32 = 8;
const BYTE_CAT: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 7, 6, 6, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 0, 0, 0, 0, 0, 0,
  0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
  0, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0, 0, 0, 0,
  8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
  8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
  8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
  8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8, 8,
]);

// @ts-ignore: decorator
@inline
function byteCat(p: usize): i32 {
  return <i32>load<u8>(BYTE_CAT + <usize>load<u8>(p));
}

// Runs of one kind of ASCII byte are measured eight bytes at a time (lanes.ts), as long as the eight
// bytes lie wholly inside the text (the last bytes of a text go byte by byte): nothing past `end` is
// read.

/** ASCII whitespace: tab, LF, VT, FF, CR and space (CAT_SPACE and CAT_NEWLINE). */
// @ts-ignore: decorator
@inline
function spaceLanes(w: u64): u64 {
  return inRange(w, 0x09, 0x0d) | eqLanes(w, 0x20);
}

/** ASCII bytes of CAT_OTHER: no letter, digit or whitespace. */
// @ts-ignore: decorator
@inline
function otherLanes(w: u64): u64 {
  // OR 0x20 folds upper case onto lower case and maps no other byte onto a letter.
  return ~(inRange(w | CASE, 0x61, 0x7a) | inRange(w, 0x30, 0x39) | spaceLanes(w)) & ~w & HIGHS;
}

/** End of the run of ASCII lower-case letters from `p`. */
// @ts-ignore: decorator
@inline
function runLower(p: usize, end: usize): usize {
  while (p + 8 <= end) {
    const stop = ~inRange(load<u64>(p), 0x61, 0x7a) & HIGHS;
    if (stop != 0) return p + firstLane(stop);
    p += 8;
  }
  while (p < end && byteCat(p) == CAT_LOWER) p++;
  return p;
}

/** End of the run of ASCII upper-case letters from `p`. */
// @ts-ignore: decorator
@inline
function runUpper(p: usize, end: usize): usize {
  while (p + 8 <= end) {
    const stop = ~inRange(load<u64>(p), 0x41, 0x5a) & HIGHS;
    if (stop != 0) return p + firstLane(stop);
    p += 8;
  }
  while (p < end && byteCat(p) == CAT_UPPER) p++;
  return p;
}

/** End of the run of ASCII letters of either case from `p`. */
// @ts-ignore: decorator
@inline
function runAlpha(p: usize, end: usize): usize {
  while (p + 8 <= end) {
    const stop = ~inRange(load<u64>(p) | CASE, 0x61, 0x7a) & HIGHS;
    if (stop != 0) return p + firstLane(stop);
    p += 8;
  }
  while (p < end) {
    const c = byteCat(p);
    if (c != CAT_UPPER && c != CAT_LOWER) break;
    p++;
  }
  return p;
}

/** End of the run of ASCII punctuation (CAT_OTHER) from `p`. */
// @ts-ignore: decorator
@inline
function runOther(p: usize, end: usize): usize {
  while (p + 8 <= end) {
    const stop = ~otherLanes(load<u64>(p)) & HIGHS;
    if (stop != 0) return p + firstLane(stop);
    p += 8;
  }
  while (p < end && byteCat(p) == CAT_OTHER) p++;
  return p;
}

/**
 * End of the run of ASCII whitespace from `p` in the low 32 bits, and the end of its last newline
 * (0 if none) in the high 32 bits.
 */
// @ts-ignore: decorator
@inline
function runSpace(p: usize, end: usize): u64 {
  let lastNewlineEnd: usize = 0;
  while (p + 8 <= end) {
    const w = load<u64>(p);
    const stop = ~spaceLanes(w) & HIGHS;
    // Newlines before the first lane that is no whitespace (all eight when there is none).
    const nl = (eqLanes(w, 0x0a) | eqLanes(w, 0x0d)) & ((stop & (<u64>0 - stop)) - 1);
    if (nl != 0) lastNewlineEnd = p + <usize>((63 - clz(nl)) >>> 3) + 1;
    if (stop != 0) return (<u64>lastNewlineEnd << 32) | <u64>(p + firstLane(stop));
    p += 8;
  }
  while (p < end) {
    const c = byteCat(p);
    if (c == CAT_SPACE) p++;
    else if (c == CAT_NEWLINE) lastNewlineEnd = ++p;
    else break;
  }
  return (<u64>lastNewlineEnd << 32) | <u64>p;
}

/** {@link asciiPiece}'s result: the piece's end and class. */
// @ts-ignore: decorator
@inline
function piece(e: usize, cls: i32): u64 {
  return (<u64>cls << 32) | <u64>e;
}

/** Punctuation run from `p` (an ASCII punctuation byte), then newlines (and `/`); 0 if not ASCII. */
// @ts-ignore: decorator
@inline
function asciiPunct(p: usize, end: usize, o200k: bool): u64 {
  let e = runOther(p + 1, end);
  if (e < end) {
    if (byteCat(e) == BYTE_WIDE) return 0;
    while (e < end) {
      const b = load<u8>(e);
      if (b == 0x0a || b == 0x0d || (o200k && b == 0x2f)) e++;
      else break;
    }
  }
  return piece(e, CLASS_PUNCT);
}

/** Whitespace run from `i` (an ASCII space or newline), as nextPieceGeneral splits it; 0 if not ASCII. */
// @ts-ignore: decorator
@inline
function asciiSpace(i: usize, end: usize): u64 {
  const r = runSpace(i, end);
  const e = <usize>(<u32>r);
  if (e < end && byteCat(e) == BYTE_WIDE) return 0;
  const lastNewlineEnd = <usize>(r >>> 32);
  if (lastNewlineEnd != 0) return piece(lastNewlineEnd, CLASS_NEWLINE);
  // All but the last space before a non-space (every character here is one byte).
  return piece(e < end && e - 1 > i ? e - 1 : e, CLASS_SPACE);
}

/**
 * The piece at `i` when it and the characters that decide it lie in the eight bytes at `i` (all
 * inside the text) and are ASCII: packed as by {@link asciiPiece}, else 0. The bytes are read once
 * and classified together (lanes.ts), and each rule of asciiPiece becomes a few operations on the
 * masks, with no loop. Cases it does not settle (a run reaching the eighth byte, a non-ASCII byte
 * where it matters, a contraction) give 0, and asciiPiece decides them. Most pieces of code and
 * prose are settled here.
 */
// @ts-ignore: decorator
@inline
export function windowPiece(i: usize, end: usize, o200k: bool): u64 {
  if (i + 8 > end) return 0;
  const w = load<u64>(i);
  const b0 = <u32>w & 0xff;
  const c0 = <i32>load<u8>(BYTE_CAT + <usize>b0);
  let j: usize = 0;
  if (c0 != CAT_UPPER && c0 != CAT_LOWER) {
    if (c0 == BYTE_WIDE || (!o200k && b0 == 0x27)) return 0;
    if (c0 == CAT_NUMBER) {
      // Up to three digits; the general path looks at a non-ASCII character among the first three.
      const nd = firstLane(~inRange(w, 0x30, 0x39) & HIGHS);
      if (nd < 3 && ((w >>> (<u64>nd << 3)) & 0x80) != 0) return 0;
      return piece(i + (nd < 3 ? nd : 3), CLASS_NUMBER);
    }
    const c1 = <i32>load<u8>(BYTE_CAT + <usize>((<u32>w >>> 8) & 0xff));
    if (c0 != CAT_NEWLINE) {
      if (c1 == CAT_UPPER || c1 == CAT_LOWER) {
        // One non-letter, non-newline character before a word.
        j = 1;
      } else {
        if (c1 == BYTE_WIDE) return 0;
        if (c0 == CAT_OTHER || (c1 == CAT_OTHER && b0 == 0x20)) {
          // Punctuation run (after one space), then newlines (and `/` for o200k).
          const p: usize = c0 == CAT_OTHER ? 0 : 1;
          const b = firstLane(~otherLanes(w) & lanesFrom(p));
          if (b == 8 || ((w >>> (<u64>b << 3)) & 0x80) != 0) return 0;
          let tail = eqLanes(w, 0x0a) | eqLanes(w, 0x0d);
          if (o200k) tail |= eqLanes(w, 0x2f);
          const t = firstLane(~tail & lanesFrom(b));
          if (t == 8) return 0;
          return piece(i + t, CLASS_PUNCT);
        }
      }
    }
    if (j == 0) {
      // Whitespace: up to the last newline of the run, else all but the last space before the rest.
      const b = firstLane(~spaceLanes(w) & HIGHS);
      if (b == 8) return asciiSpace(i, end); // a longer run (indentation)
      if (((w >>> (<u64>b << 3)) & 0x80) != 0) return 0;
      const nl = (eqLanes(w, 0x0a) | eqLanes(w, 0x0d)) & ((<u64>1 << (<u64>b << 3)) - 1);
      if (nl != 0) return piece(i + <usize>((63 - clz(nl)) >>> 3) + 1, CLASS_NEWLINE);
      return piece(i + (b >= 2 ? b - 1 : b), CLASS_SPACE);
    }
  }
  // A word from lane j.
  let b: usize;
  if (o200k) {
    // Upper-case run, then the lower-case run if one follows (if not, its first lane ends it).
    const u = firstLane(~inRange(w, 0x41, 0x5a) & lanesFrom(j));
    if (u == 8) return 0;
    b = firstLane(~inRange(w, 0x61, 0x7a) & lanesFrom(u));
    if (b == 8) {
      // A longer lower-case run, then what asciiPiece does after it.
      const e = runLower(i + 8, end);
      if (e < end && byteCat(e) == BYTE_WIDE) return 0;
      return piece(e + contraction(e, end), SCRIPT_ASCII);
    }
    if (((w >>> (<u64>b << 3)) & 0xff) == 0x27) return 0;
  } else {
    b = firstLane(~inRange(w | CASE, 0x61, 0x7a) & lanesFrom(j));
    if (b == 8) {
      const e = runAlpha(i + 8, end);
      if (e < end && byteCat(e) == BYTE_WIDE) return 0;
      return piece(e, SCRIPT_ASCII);
    }
  }
  if (((w >>> (<u64>b << 3)) & 0x80) != 0) return 0;
  return piece(i + b, SCRIPT_ASCII);
}

/**
 * The piece at `i` when every character that decides it is ASCII: its end in the low 32 bits and
 * its class in the high 32 bits; else 0. Follows nextPieceGeneral branch for branch; where that
 * would decode a character, this gives up instead. For the pieces windowPiece does not settle.
 */
export function asciiPiece(i: usize, end: usize, o200k: bool): u64 {
  const c0 = byteCat(i);
  if (c0 == BYTE_WIDE) return 0;
  if (!o200k) {
    const n = contraction(i, end);
    if (n != 0) return piece(i + n, CLASS_CONTRACTION);
  }
  let j = i;
  if (c0 != CAT_UPPER && c0 != CAT_LOWER) {
    if (c0 == CAT_NUMBER) {
      let e = i + 1;
      for (let n = 1; n < 3 && e < end; n++) {
        const c = byteCat(e);
        if (c != CAT_NUMBER) {
          if (c == BYTE_WIDE) return 0;
          break;
        }
        e++;
      }
      return piece(e, CLASS_NUMBER);
    }
    if (c0 == CAT_NEWLINE) return asciiSpace(i, end);
    // OTHER or SPACE: a word may follow it.
    if (i + 1 >= end) return piece(end, c0 == CAT_OTHER ? CLASS_PUNCT : CLASS_SPACE);
    const c1 = byteCat(i + 1);
    if (c1 == BYTE_WIDE) return 0;
    if (c1 == CAT_UPPER || c1 == CAT_LOWER) {
      j = i + 1;
    } else if (c0 == CAT_OTHER) {
      return asciiPunct(i, end, o200k);
    } else if (c1 == CAT_OTHER && load<u8>(i) == 0x20) {
      return asciiPunct(i + 1, end, o200k);
    } else {
      return asciiSpace(i, end);
    }
  }
  // A word from j: its letters are ASCII as long as no non-ASCII byte continues it.
  let e: usize;
  if (o200k) {
    // Upper-case run, then (if a lower-case letter follows) the lower-case run, then a contraction.
    e = runUpper(j, end);
    if (e < end) {
      let c = byteCat(e);
      if (c == CAT_LOWER) {
        e = runLower(e + 1, end);
        if (e < end) c = byteCat(e);
      }
      if (c == BYTE_WIDE && e < end) return 0;
    }
    e += contraction(e, end);
  } else {
    e = runAlpha(j + 1, end);
    if (e < end && byteCat(e) == BYTE_WIDE) return 0;
  }
  return piece(e, SCRIPT_ASCII);
}

/** {@link nextPiece} for any text: decodes every character it looks at. */
export function nextPieceGeneral(i: usize, end: usize, enc: i32): usize {
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
    pieceClass = wordScriptRank;
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
