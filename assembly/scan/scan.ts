// Secret scanner: one linear pass over UTF-8 bytes.
//
// A keyword prefilter (tables compiled by build/gen-rules.mjs) finds rule keywords in two stages.
// First a SIMD filter classifies 16 positions at once: table lookups (i8x16.swizzle) on the nibbles
// of each folded byte and on adjacent byte pairs say which of 8 keyword buckets could start at each
// position; typically a few percent of positions survive, and every position where a keyword key
// starts does. Those positions are probed in a hashed bit filter on their folded 4-byte word, and
// filter hits are verified against exact keys, the bytes that may follow them, then the whole
// keyword. Each keyword hit runs that rule's steps forward from the keyword: greedy runs of a byte
// class with a maximum length, literals, and "until literal" searches. Nothing backtracks, every step
// is bounded, and each until-search literal has a cache that never scans a byte twice for it, so
// the work per input byte is a small constant whatever the input. `secretScanSteps()` reports the
// work done so tests can check that without timing anything.
//
// Findings go to the output window as 16-byte records: rule index, byte start, byte end, confidence.
import { outReserve, outSetLen, ioOutput } from '../io';
import {
  RULE_COUNT,
  HASH_MUL,
  HASH_BITS,
  BUCKET_SHIFT,
  RULE_STRIDE,
  KW_STRIDE,
  FILTER4,
  BUCKET_START,
  LONG_KEY,
  LONG_KEY2,
  LONG_ENTRY,
  LONG_FOLLOW,
  LONG_FOLLOW_Q,
  FOLLOW_BITS,
  FOLLOW_BITS_Q,
  TEDDY,
  KW,
  LITS,
  LIT_COUNT,
  LIT_BYTES,
  CLASS_BITS,
  STEPS,
  RULES,
  VALUE_DQ,
  VALUE_SQ,
  VALUE_BQ,
  CLASS_COUNT,
} from './tables.generated';

const NONE: i32 = 0xffff;
/** The nibble mask of the SIMD filter, loaded once per scan (so it stays in a register). */
const NIBBLE: usize = memory.data<u8>([
  0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f, 0x0f,
]);
const STEP_RUN: i32 = 0;
const STEP_LIT: i32 = 1;
const STEP_LIT_CI: i32 = 2;
const STEP_VALUE: i32 = 4;
const STEP_PREFIX: i32 = 5;
/** Entropy is measured over at most this many bytes of a candidate, to bound the work per hit. */
const ENTROPY_SAMPLE: i32 = 256;

let base: usize = 0;
let size: i32 = 0;
let steps: u64 = 0;
const lastEnd = new StaticArray<i32>(RULE_COUNT);
const found = new Array<u32>();
const counts = new StaticArray<u32>(256);
/** Entropy terms p log2 p by byte count, valid where termFor[count] == termsFor (one stamp per call). */
const terms = new StaticArray<f64>(ENTROPY_SAMPLE + 1);
const termFor = new StaticArray<u32>(ENTROPY_SAMPLE + 1);
let termsFor: u32 = 0;

// The until-literal caches, one per literal: for literal l, positions [uFrom[l], uLimit[l]) were
// searched and the first occurrence at or after uFrom[l] is uFound[l] (-1: none before uLimit[l]).
// An entry is valid in the scan whose number is uScan[l]. One cache per literal, not one shared:
// rules that search for different literals in turn (BEGIN lines of different PEM labels, one
// after the other) would otherwise each search the same bytes again, up to their 32 KiB bound.
const uFrom = new StaticArray<i32>(LIT_COUNT);
const uLimit = new StaticArray<i32>(LIT_COUNT);
const uFound = new StaticArray<i32>(LIT_COUNT);
const uScan = new StaticArray<u32>(LIT_COUNT);
let scanNumber: u32 = 0;

// runForward's last run of each class, valid in the scan whose number is rScan[c].
const rFrom = new StaticArray<i32>(CLASS_COUNT);
const rTo = new StaticArray<i32>(CLASS_COUNT);
const rClosed = new StaticArray<bool>(CLASS_COUNT);
const rScan = new StaticArray<u32>(CLASS_COUNT);

// @ts-ignore: decorator
@inline
function byteAt(i: i32): u32 {
  return <u32>load<u8>(base + <usize>i);
}

/** Whether bit `b` is set in the bit set at address `set` (byte classes, follow sets, the hashed filter FILTER4). */
// @ts-ignore: decorator
@inline
function inSet(set: usize, b: u32): bool {
  return ((<u32>load<u8>(set + (<usize>b >> 3)) >> (b & 7)) & 1) != 0;
}

// @ts-ignore: decorator
@inline
function inClass(cls: i32, b: u32): bool {
  return inSet(CLASS_BITS + (<usize>cls << 5), b);
}

/** Whether byte `b` is in follow set `set` of `bits` (FOLLOW_BITS or FOLLOW_BITS_Q, 32 bytes each). */
// @ts-ignore: decorator
@inline
function inFollow(bits: usize, set: usize, b: u32): bool {
  return inSet(bits + (set << 5), b);
}

/** Whether `b` is one of the quotes a value may stand in: `"`, `'` or the backtick. */
// @ts-ignore: decorator
@inline
function isQuote(b: u32): bool {
  return b == 0x22 || b == 0x27 || b == 0x60;
}

/** The prefilter's hash of a folded 4-byte word (FILTER4 bit, and bucket by its top bits). */
// @ts-ignore: decorator
@inline
function hashWord(w: u32): u32 {
  return (w * HASH_MUL) >> (32 - HASH_BITS);
}

// @ts-ignore: decorator
@inline
function fold(b: u32): u32 {
  return b - 65 < 26 ? b + 32 : b;
}

// @ts-ignore: decorator
@inline
function ruleField(r: i32, f: i32): i32 {
  return <i32>load<u16>(RULES + ((<usize>(r * RULE_STRIDE + f)) << 1));
}

/**
 * Length of the run of class `cls` starting at `pos`, at most `max`. The runs a keyword's rules
 * measure overlap the next keyword's (each `password=` of `password=password=…` starts a value run
 * of up to 256 bytes over the ones after it), so each class keeps its last run: bytes [rFrom, rTo)
 * are in the class, and when rClosed the byte at rTo is not (or is the end). A run starting inside
 * it is known up to rTo without looking again, and a scan inspects no byte twice for one class
 * while its runs overlap.
 */
function runForward(cls: i32, pos: i32, max: i32): i32 {
  const limit = min(max, size - pos);
  if (max < CACHED_RUN_MIN) return plainRun(cls, pos, limit);
  let n: i32 = 0;
  if (unchecked(rScan[cls]) == scanNumber && pos >= unchecked(rFrom[cls]) && pos < unchecked(rTo[cls])) {
    n = unchecked(rTo[cls]) - pos;
    if (n >= limit) {
      steps += 1;
      return limit;
    }
    if (unchecked(rClosed[cls])) {
      steps += 1;
      return n;
    }
  } else {
    unchecked((rScan[cls] = scanNumber));
    unchecked((rFrom[cls] = pos));
  }
  // Measure on from the end of what is known (nothing, on a miss).
  n += plainRun(cls, pos + n, limit - n);
  unchecked((rTo[cls] = pos + n));
  unchecked((rClosed[cls] = n < limit || pos + n == size));
  return n;
}

// Runs bounded by fewer bytes (names, blanks, separators) are measured afresh: overlapping, they
// cost at most their bound again, and the cache's upkeep would cost more than it saves.
const CACHED_RUN_MIN: i32 = 64;

/** Length of the run of class `cls` at `pos`, at most `limit` bytes, without the cache. */
// @ts-ignore: decorator
@inline
function plainRun(cls: i32, pos: i32, limit: i32): i32 {
  const at = base + <usize>pos;
  const set = CLASS_BITS + (<usize>cls << 5);
  let n: i32 = 0;
  while (n < limit) {
    const b = <u32>load<u8>(at + <usize>n);
    if (!inSet(set, b)) break;
    n++;
  }
  steps += <u64>(n + 1);
  return n;
}

/**
 * Length of a quoted value's run of class `cls` at `pos`, at most `max`: as runForward, but a
 * backslash takes the printable byte after it with it (`\"` inside "…" is the value's own quote).
 * `close`, when not 0, is the quote of a value opened by an escaped quote (`\"…\"`: JSON inside a
 * string, a notebook cell's source): there a backslash before that quote ends the value.
 */
function quotedRun(cls: i32, pos: i32, max: i32, close: u32): i32 {
  const at = base + <usize>pos;
  const set = CLASS_BITS + (<usize>cls << 5);
  const limit = min(max, size - pos);
  let n: i32 = 0;
  while (n < limit) {
    const b = <u32>load<u8>(at + <usize>n);
    if (b == 0x5c && n + 1 < limit) {
      const next = <u32>load<u8>(at + <usize>(n + 1));
      if (next == close) break;
      // Inside escaped quotes the value's own quote is escaped twice (`\\\"`): four bytes of it.
      if (close != 0 && next == 0x5c && n + 3 < limit && <u32>load<u8>(at + <usize>(n + 2)) == 0x5c && <u32>load<u8>(at + <usize>(n + 3)) == close) {
        n += 4;
        continue;
      }
      if (next >= 0x21 && next <= 0x7e) {
        n += 2;
        continue;
      }
    }
    if (!inSet(set, b)) break;
    n++;
  }
  steps += <u64>(n + 1);
  return n;
}

/** Compares a literal at `pos` (ASCII case-insensitively when `ci`). */
function litAt(lit: i32, pos: i32, ci: bool): i32 {
  const off = <usize>load<u32>(LITS + (<usize>lit << 3));
  const len = <i32>load<u32>(LITS + (<usize>lit << 3) + 4);
  if (pos + len > size) return -1;
  const at = base + <usize>pos;
  for (let k: i32 = 0; k < len; k++) {
    let b = <u32>load<u8>(at + <usize>k);
    if (ci) b = fold(b);
    if (b != <u32>load<u8>(LIT_BYTES + off + <usize>k)) {
      steps += <u64>(k + 1);
      return -1;
    }
  }
  steps += <u64>len;
  return len;
}

/**
 * First occurrence of literal `lit` at or after `pos`, looking at most `max` bytes ahead; -1 if
 * none. Keyword hits come in increasing `pos`, so with the literal's cache no byte is searched
 * twice for the same literal in one scan.
 */
function findLiteral(lit: i32, pos: i32, limit: i32): i32 {
  const off = <usize>load<u32>(LITS + (<usize>lit << 3));
  const len = <i32>load<u32>(LITS + (<usize>lit << 3) + 4);
  if (unchecked(uScan[lit]) == scanNumber && pos >= unchecked(uFrom[lit])) {
    const found = unchecked(uFound[lit]);
    if (found >= pos) return found - pos <= limit ? found : -1;
    const searched = unchecked(uLimit[lit]);
    if (found < 0 && pos <= searched) {
      // Continue where the last search stopped.
      const r = scanFor(off, len, searched, pos + limit + 1);
      unchecked((uLimit[lit] = max(searched, pos + limit + 1)));
      unchecked((uFound[lit] = r));
      return r >= 0 && r - pos <= limit ? r : -1;
    }
  }
  const r = scanFor(off, len, pos, pos + limit + 1);
  unchecked((uScan[lit] = scanNumber));
  unchecked((uFrom[lit] = pos));
  unchecked((uLimit[lit] = pos + limit + 1));
  unchecked((uFound[lit] = r));
  return r >= 0 && r - pos <= limit ? r : -1;
}

function scanFor(off: usize, len: i32, from: i32, to: i32): i32 {
  const first = <u32>load<u8>(LIT_BYTES + off);
  const stop = min(to, size - len + 1);
  const b = base;
  let work: u64 = 0;
  for (let i = from; i < stop; i++) {
    work++;
    if (<u32>load<u8>(b + <usize>i) != first) continue;
    let k: i32 = 1;
    while (k < len && <u32>load<u8>(b + <usize>(i + k)) == <u32>load<u8>(LIT_BYTES + off + <usize>k)) k++;
    work += <u64>(k - 1);
    if (k == len) {
      steps += work;
      return i;
    }
  }
  steps += work;
  return -1;
}

/**
 * The entropy, in hundredths of a bit, a hex key needs ({@link isHexKey}) where a rule asks more.
 * Sixteen symbols give at most 4 bits a byte, and a short random draw less: a random 16-character
 * hex key measures 3.3 on average, so a rule's 3.3 turned away about half of them (a Pusher app
 * secret's 20 characters, a third). Values this varied are still not runs or repeats.
 */
const HEX_ENTROPY: f64 = 280;

/**
 * Whether `from`..`to` is a hex key: 16 to 64 hex digits of one case, with at least two of its
 * digits and two of its letters (not a number, not a word such as `deadbeef…` alone).
 */
function isHexKey(from: i32, to: i32): bool {
  const n = to - from;
  if (n < 16 || n > 64) return false;
  let digits = 0;
  let lower = 0;
  let upper = 0;
  for (let i = from; i < to; i++) {
    const c = byteAt(i);
    if (c - 0x30 < 10) digits++;
    else if (c - 0x61 < 6) lower++;
    else if (c - 0x41 < 6) upper++;
    else return false;
  }
  return digits >= 2 && ((lower >= 2 && upper == 0) || (upper >= 2 && lower == 0));
}

/** Shannon entropy in bits per byte of up to ENTROPY_SAMPLE bytes at `from`. */
function entropy(from: i32, to: i32): f64 {
  const end = min(to, from + ENTROPY_SAMPLE);
  const n = end - from;
  if (n <= 0) return 0;
  // Rules of one keyword often measure the same value in turn (a third of the calls on small files).
  if (from == lastFrom && end == lastTo && scanNumber == lastScan) return lastEntropy;
  // Terms p log2 p are computed once per distinct count in this sample (few: most bytes occur once
  // or twice), with the same operations, so the sum is the same double as term by term.
  if (++termsFor == 0) {
    for (let c: i32 = 0; c <= ENTROPY_SAMPLE; c++) unchecked((termFor[c] = 0));
    termsFor = 1;
  }
  const b = base;
  for (let i = from; i < end; i++) unchecked(counts[load<u8>(b + <usize>i)]++);
  let h: f64 = 0;
  for (let i = from; i < end; i++) {
    const x = load<u8>(b + <usize>i);
    const c = unchecked(counts[x]);
    if (c != 0) {
      if (unchecked(termFor[c]) != termsFor) {
        const p = <f64>c / <f64>n;
        unchecked((terms[c] = p * Math.log2(p)));
        unchecked((termFor[c] = termsFor));
      }
      h -= unchecked(terms[c]);
      unchecked((counts[x] = 0));
    }
  }
  steps += <u64>(2 * n);
  lastFrom = from;
  lastTo = end;
  lastScan = scanNumber;
  lastEntropy = h;
  return h;
}

/** The last entropy measured: its span, in scan lastScan. */
let lastFrom: i32 = -1;
let lastTo: i32 = -1;
let lastScan: u32 = 0;
let lastEntropy: f64 = 0;

/** Runs rule `r` for a keyword at [kwStart, kwEnd); records a finding when every step holds. */
function tryRule(r: i32, kwStart: i32, kwEnd: i32): void {
  if (kwStart < unchecked(lastEnd[r])) return;
  let start = kwStart;
  const backCls = ruleField(r, 2);
  if (backCls != NONE) {
    const bmin = ruleField(r, 3);
    const bmax = ruleField(r, 4);
    let n: i32 = 0;
    while (n < bmax && start - n - 1 >= 0 && inClass(backCls, byteAt(start - n - 1))) n++;
    steps += <u64>(n + 1);
    if (n < bmin) return;
    start -= n;
  }
  const before = ruleField(r, 5);
  if (before != NONE && start > 0 && inClass(before, byteAt(start - 1))) return;

  const first = ruleField(r, 0);
  const count = ruleField(r, 1);
  const secFromField = ruleField(r, 7);
  const secFrom = secFromField == NONE ? -1 : secFromField;
  const secTo = ruleField(r, 8);
  let secStart = start;
  let secEnd = kwEnd;
  let pos = kwEnd;
  for (let j: i32 = 0; j < count; j++) {
    const s = STEPS + (<usize>((first + j) * 4) << 1);
    const kind = <i32>load<u16>(s);
    const arg = <i32>load<u16>(s, 2);
    const smin = <i32>load<u16>(s, 4);
    const smax = <i32>load<u16>(s, 6);
    if (j == secFrom) secStart = pos;
    let n: i32;
    if (kind == STEP_RUN) {
      n = runForward(arg, pos, smax);
      if (n < smin) return;
    } else if (kind == STEP_VALUE) {
      // After an opening quote a value runs to the closing one: `(`, `;`, `{` or `,` there are the
      // value's own characters. Unquoted, they end it (code follows).
      // Two quotes before it (`password: "",`) are an empty string, and what follows is not in one.
      const q = pos > 0 ? byteAt(pos - 1) : 0;
      const open = pos < 2 || byteAt(pos - 2) != q;
      // An escaped opening quote (`\"…\"`) closes escaped too: its backslash is not the value's.
      const close: u32 = pos >= 2 && byteAt(pos - 2) == 0x5c ? q : 0;
      n = !open || !isQuote(q) ? runForward(arg, pos, smax) : quotedRun(q == 0x22 ? VALUE_DQ : q == 0x27 ? VALUE_SQ : VALUE_BQ, pos, smax, close);
      if (n < smin) return;
    } else if (kind == STEP_PREFIX) {
      // A string literal's prefix (Python's `b'…'`, `r"…"`): taken only when a quote follows it,
      // so an unquoted value keeps its first letters. One byte of lookahead, no backtracking.
      n = runForward(arg, pos, smax);
      if (n > 0 && (pos + n >= size || !isQuote(byteAt(pos + n)))) n = 0;
    } else if (kind == STEP_LIT || kind == STEP_LIT_CI) {
      n = litAt(arg, pos, kind == STEP_LIT_CI);
      if (n < 0) return;
    } else {
      const at = findLiteral(arg, pos, smax);
      if (at < 0 || at - pos < smin) return;
      n = at - pos;
    }
    pos += n;
    if (j == secTo) secEnd = pos;
  }
  const after = ruleField(r, 6);
  if (after != NONE && pos < size && inClass(after, byteAt(pos))) return;
  const threshold = ruleField(r, 9);
  if (threshold != 0) {
    const h = entropy(secStart, secEnd) * 100.0;
    if (h < <f64>threshold && !(h >= HEX_ENTROPY && isHexKey(secStart, secEnd))) return;
  }
  if (secEnd <= secStart) return;
  unchecked((lastEnd[r] = pos));
  found.push(<u32>r);
  found.push(<u32>secStart);
  found.push(<u32>secEnd);
  found.push(<u32>ruleField(r, 10));
}

/** Verifies keyword entry `e` at byte `at` (the prefilter matched its folded prefix) and runs its rule. */
function tryKeyword(e: usize, at: i32): void {
  const row = KW + e * <usize>(KW_STRIDE * 4);
  const rule = <i32>load<u32>(row);
  const len = <i32>load<u32>(row, 4);
  const cs = load<u32>(row, 8) != 0;
  const off = <usize>load<u32>(row, 12);
  if (at + len > size) return;
  const p = base + <usize>at;
  for (let k: i32 = 0; k < len; k++) {
    let b = <u32>load<u8>(p + <usize>k);
    let want = <u32>load<u8>(LIT_BYTES + off + <usize>k);
    if (!cs) {
      b = fold(b);
      want = fold(want);
    }
    if (b != want) {
      steps += <u64>(k + 1);
      return;
    }
  }
  steps += <u64>len;
  tryRule(rule, at, at + len);
}

/** Handles a prefilter hit at byte `i` whose folded 4-byte word is `w` and hash `h`. */
function onCandidate(i: i32, w: u32, h: u32): void {
  const bucket = <usize>(h >> BUCKET_SHIFT);
  const lo = <usize>load<u16>(BUCKET_START + (bucket << 1));
  const hi = <usize>load<u16>(BUCKET_START + ((bucket + 1) << 1));
  const b = base;
  const n = size;
  let w2: u32 = 0;
  if (i + 8 <= n) w2 = load<u32>(b + <usize>(i + 4));
  else for (let k: i32 = 4; k < 8 && i + k < n; k++) w2 |= <u32>load<u8>(b + <usize>(i + k)) << (<u32>(k - 4) << 3);
  w2 |= 0x20202020;
  let work: u64 = 0;
  for (let o = lo; o < hi; o++) {
    work++;
    if (load<u32>(LONG_KEY + (o << 2)) != w) continue;
    const k2 = LONG_KEY2 + (o << 3);
    if ((w2 & load<u32>(k2, 4)) != load<u32>(k2)) continue;
    // The bytes after the key, each in the set its keyword or rule allows there (0xff: any), up to
    // FOLLOW_DEPTH of them. These sets hold no quote (but where the keyword's own bytes have one):
    // a quote fails its check, and from it on the window is checked against the key's quoted row
    // (a quoted value's bytes are nearly anything printable), so a window without quotes pays
    // nothing for them. Bytes past the end pass: the rule decides there.
    let row = LONG_FOLLOW + (o << 4);
    // The two rows number their sets apart (the numbers are bytes).
    let bits = FOLLOW_BITS;
    let quoted = false;
    // The count of sets to check covers both rows (the build stores the larger in the first).
    const depth = min(<i32>load<u8>(row, 12), n - i - 4);
    let d: i32 = 0;
    for (; d < depth; d++) {
      let set = <usize>load<u8>(row + <usize>d);
      if (set == 0xff) continue;
      const c = <u32>load<u8>(b + <usize>(i + 4 + d));
      if (inFollow(bits, set, c)) continue;
      if (quoted || !isQuote(c)) break;
      quoted = true;
      row = LONG_FOLLOW_Q + (o << 4);
      bits = FOLLOW_BITS_Q;
      set = <usize>load<u8>(row + <usize>d);
      if (set != 0xff && !inFollow(bits, set, c)) break;
    }
    work += <u64>d;
    if (d < depth) continue;
    tryKeyword(<usize>load<u16>(LONG_ENTRY + (o << 1)), i);
  }
  steps += work;
}

// @ts-ignore: decorator
@inline
function probe(i: i32, w: u32): void {
  const h = hashWord(w);
  if (inSet(FILTER4, h)) onCandidate(i, w, h);
}

/** Bytes the SIMD filter goes through before the positions it let through are handled. */
const CHUNK: i32 = 4096;
/** Positions of the current chunk that passed both filters (at most one per byte). */
const HITS: usize = memory.data(CHUNK << 2);
/** Positions of the current chunk that passed the SIMD filter, and room for 8 more writes. */
const LANES: usize = memory.data((CHUNK + 8) << 2);

/** The SIMD filter's state between chunks: the previous block's results for key bytes 0, 1, 2. */
const CARRY: usize = memory.data(48, 16);

/**
 * The SIMD filter over the whole 16-byte blocks of [i, stop): writes the positions that also pass
 * the hashed filter to HITS and returns how many. A function of its own with no call in it, so that
 * the engine keeps the tables in registers instead of saving them around calls.
 *
 * The lookups are aligned on the last byte of a key: lane e of block i stands for the key whose
 * fourth byte is at i + e, so its first byte's result is lane e - 3, taken with the previous block's
 * results (CARRY) where e < 3.
 */
function filterChunk(p: usize, from: i32, stop: i32): usize {
  const nibble = v128.load(NIBBLE);
  const lo0 = v128.load(TEDDY, 0);
  const hi0 = v128.load(TEDDY, 16);
  const lo1 = v128.load(TEDDY, 32);
  const hi1 = v128.load(TEDDY, 48);
  const lo2 = v128.load(TEDDY, 64);
  const hi2 = v128.load(TEDDY, 80);
  const lo3 = v128.load(TEDDY, 96);
  const hi3 = v128.load(TEDDY, 112);
  const pair01 = v128.load(TEDDY, 128);
  const pair12 = v128.load(TEDDY, 144);
  const pair23 = v128.load(TEDDY, 160);
  // m + 0x7f (saturating) has its top bit set exactly where m is not zero.
  const top = i8x16.splat(0x7f);
  let r0Before = v128.load(CARRY, 0);
  let r1Before = v128.load(CARRY, 16);
  let r2Before = v128.load(CARRY, 32);
  let candidates: usize = 0;
  let i = from;
  // Candidate lanes of up to four blocks, 16 bits each, are taken together and written out once
  // per 64 positions (below), not once per block.
  let lanes: u64 = 0;
  let shift: u64 = 0;
  let first = i - 3; // position of lane 0 of `lanes`
  for (; i + 16 <= stop; i += 16) {
    const v = v128.load(p + <usize>i);
    const lo = v128.and(v, nibble);
    const hi = v128.and(i16x8.shr_u(v, 4), nibble);
    // ((x >> 1) + y) & 15 for each byte y and the byte x before it. The 16-bit shift moves a bit
    // of the next byte into bit 7, which the mask drops. Before the first block this reads the byte
    // before the input (the caller makes sure there is one): it only feeds lanes of keys that would
    // start before the input, which the zero CARRY of the first chunk clears.
    const prev = v128.load(p + <usize>i - 1);
    const pair = v128.and(i8x16.add(i16x8.shr_u(prev, 1), v), nibble);
    const r0 = v128.and(i8x16.swizzle(lo0, lo), i8x16.swizzle(hi0, hi));
    const r1 = v128.and(v128.and(i8x16.swizzle(lo1, lo), i8x16.swizzle(hi1, hi)), i8x16.swizzle(pair01, pair));
    const r2 = v128.and(v128.and(i8x16.swizzle(lo2, lo), i8x16.swizzle(hi2, hi)), i8x16.swizzle(pair12, pair));
    const r3 = v128.and(v128.and(i8x16.swizzle(lo3, lo), i8x16.swizzle(hi3, hi)), i8x16.swizzle(pair23, pair));
    const m = v128.and(
      v128.and(
        i8x16.shuffle(r0Before, r0, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28),
        i8x16.shuffle(r1Before, r1, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29),
      ),
      v128.and(i8x16.shuffle(r2Before, r2, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30), r3),
    );
    r0Before = r0;
    r1Before = r1;
    r2Before = r2;
    lanes |= <u64>i8x16.bitmask(i8x16.add_sat_u(m, top)) << shift;
    shift += 16;
    if (shift == 64 || i + 32 > stop) {
      // The lanes' positions go to LANES, eight of them written whatever their number: a loop
      // over a varying number of lanes would end in a mispredicted branch for most words, which
      // cost more than the lanes themselves. Writes past the count are overwritten or ignored
      // (LANES has room for them). Unrolled by hand: a loop whose first eight rounds always run
      // (k < 8 || lanes != 0) measured 0.9 ms slower on the labelled corpus (10.1 against 9.2 ms).
      const count = <usize>popcnt(lanes);
      const q = LANES + (candidates << 2);
      store<u32>(q, first + <i32>ctz(lanes), 0);
      lanes &= lanes - 1;
      store<u32>(q, first + <i32>ctz(lanes), 4);
      lanes &= lanes - 1;
      store<u32>(q, first + <i32>ctz(lanes), 8);
      lanes &= lanes - 1;
      store<u32>(q, first + <i32>ctz(lanes), 12);
      lanes &= lanes - 1;
      store<u32>(q, first + <i32>ctz(lanes), 16);
      lanes &= lanes - 1;
      store<u32>(q, first + <i32>ctz(lanes), 20);
      lanes &= lanes - 1;
      store<u32>(q, first + <i32>ctz(lanes), 24);
      lanes &= lanes - 1;
      store<u32>(q, first + <i32>ctz(lanes), 28);
      lanes &= lanes - 1;
      for (let k: usize = 8; lanes != 0; k++) {
        store<u32>(q + (k << 2), first + <i32>ctz(lanes));
        lanes &= lanes - 1;
      }
      candidates += count;
      shift = 0;
      first = i + 13;
    }
  }
  v128.store(CARRY, r0Before, 0);
  v128.store(CARRY, r1Before, 16);
  v128.store(CARRY, r2Before, 32);
  // The hashed filter on each lane's folded word, in a loop whose count is known: the positions
  // that pass are written to HITS (each is written, and counted only when it passes).
  let hits: usize = 0;
  for (let k: usize = 0; k < candidates; k++) {
    const at = load<u32>(LANES + (k << 2));
    const h = hashWord(load<u32>(p + <usize>at) | 0x20202020);
    store<u32>(HITS + (hits << 2), at);
    hits += <usize>inSet(FILTER4, h);
  }
  return hits;
}

/**
 * Probes every position of whole 16-byte blocks that the SIMD filter lets through, in order, and
 * returns the first position it did not decide (the caller probes the rest one by one). Blocks
 * start at 0, so a key is never looked for before the input. Positions that pass both filters are
 * collected per chunk and handled after it.
 */
function prefilter(p: usize, n: i32): i32 {
  const zero = i8x16.splat(0);
  v128.store(CARRY, zero, 0);
  v128.store(CARRY, zero, 16);
  v128.store(CARRY, zero, 32);
  let i: i32 = 0;
  const whole = n & ~15;
  while (i < whole) {
    const stop = min(whole, i + CHUNK);
    const hits = filterChunk(p, i, stop);
    i = stop;
    for (let k: usize = 0; k < hits; k++) {
      const at = <i32>load<u32>(HITS + (k << 2));
      const w = load<u32>(p + <usize>at) | 0x20202020;
      onCandidate(at, w, hashWord(w));
    }
  }
  // Keys starting at i - 3 .. i - 1 end past the last block.
  return i - 3;
}

/**
 * Scans `len` bytes at `ptr` for secrets. Returns the number of findings; the output window holds
 * them as 16-byte records (rule index, start, end, confidence), ordered by keyword position.
 */
export function secretScan(ptr: usize, len: usize): i32 {
  base = ptr;
  size = <i32>len;
  steps = 0;
  found.length = 0;
  // A new scan number invalidates every literal's cache at once; on wrap-around, clear them.
  if (++scanNumber == 0) {
    for (let l: i32 = 0; l < LIT_COUNT; l++) unchecked((uScan[l] = 0));
    for (let c: i32 = 0; c < CLASS_COUNT; c++) unchecked((rScan[c] = 0));
    lastScan = 0;
    scanNumber = 1;
  }
  for (let r: i32 = 0; r < RULE_COUNT; r++) unchecked((lastEnd[r] = 0));
  const n = size;
  const p = base;
  // Every byte is folded with OR 0x20 (as the tables were built); the last three positions read
  // zero padding instead of bytes past the input.
  // The SIMD filter reads the byte before each block (see filterChunk), so an input at address 0
  // (never the I/O window) takes the position-by-position probe below instead.
  let i = n >= 16 && p != 0 ? prefilter(p, n) : 0;
  for (; i < n - 3; i++) probe(i, load<u32>(p + <usize>i) | 0x20202020);
  for (; i < n; i++) {
    let w: u32 = 0;
    for (let k: i32 = 0; k < 4 && i + k < n; k++) w |= byteAt(i + k) << (<u32>k << 3);
    probe(i, w | 0x20202020);
  }
  steps += <u64>n;
  const records = found.length >> 2;
  // Room for secretPositions() to add a line, a column and value flags per record after them.
  const out = outReserve(<usize>records * 28);
  outSetLen(<usize>records << 4);
  for (let k: i32 = 0; k < found.length; k++) store<u32>(out + (<usize>k << 2), unchecked(found[k]));
  return records;
}

/**
 * UTF-16 code units (low 32 bits) and newlines (high 32 bits) in `blocks` 16-byte blocks at `from`:
 * per-lane byte counters, summed every 255 blocks, so the loop has no branch but its own.
 */
function countBlocks(b: usize, from: i32, blocks: i32, utf16: bool): u64 {
  const top2 = i8x16.splat(<i8>0xc0);
  const cont = i8x16.splat(<i8>0x80);
  const lead4 = i8x16.splat(<i8>0xf0);
  const newline = i8x16.splat(0x0a);
  let units: u64 = <u64>blocks << 4;
  let newlines: u64 = 0;
  let at = b + <usize>from;
  while (blocks > 0) {
    const run = min(blocks, 255);
    blocks -= run;
    let nl = i8x16.splat(0);
    let minus = i8x16.splat(0); // continuation bytes
    let plus = i8x16.splat(0); // 4-byte leads (two units)
    if (utf16) {
      for (let k: i32 = 0; k < run; k++) {
        const v = v128.load(at);
        nl = i8x16.sub(nl, i8x16.eq(v, newline));
        minus = i8x16.sub(minus, i8x16.eq(v128.and(v, top2), cont));
        plus = i8x16.sub(plus, i8x16.ge_u(v, lead4));
        at += 16;
      }
    } else {
      for (let k: i32 = 0; k < run; k++) {
        nl = i8x16.sub(nl, i8x16.eq(v128.load(at), newline));
        at += 16;
      }
    }
    newlines += <u64>laneSum(nl);
    units += <u64>laneSum(plus);
    units -= <u64>laneSum(minus);
  }
  return (newlines << 32) | (units & 0xffffffff);
}

/** Sum of the 16 unsigned bytes of `v`. */
// @ts-ignore: decorator
@inline
function laneSum(v: v128): u32 {
  const w = i32x4.extadd_pairwise_i16x8_u(i16x8.extadd_pairwise_i8x16_u(v));
  return <u32>(i32x4.extract_lane(w, 0) + i32x4.extract_lane(w, 1) + i32x4.extract_lane(w, 2) + i32x4.extract_lane(w, 3));
}

/**
 * The host's placeholder fragments (PLACEHOLDER_FRAGMENTS in src/secrets/filters.ts), lowercase
 * ASCII, one after the other; FRAGMENT_ROWS holds each one's offset and length. The differential
 * test checks every fragment against the host's own judgement.
 */
const FRAGMENT_BYTES: usize = memory.data<u8>([
  120, 120, 120, 120, 101, 120, 97, 109, 112, 108, 101, 112, 108, 97, 99, 101, 104, 111, 108, 100, 101, 114, 121, 111, 117, 114, 95,
  121, 111, 117, 114, 45, 121, 111, 117, 114, 97, 112, 105, 121, 111, 117, 114, 116, 111, 107, 101, 110, 121, 111, 117, 114, 115, 101,
  99, 114, 101, 116, 121, 111, 117, 114, 112, 97, 115, 115, 105, 110, 115, 101, 114, 116, 95, 105, 110, 115, 101, 114, 116, 45, 114,
  101, 100, 97, 99, 116, 101, 100, 100, 117, 109, 109, 121, 99, 104, 97, 110, 103, 101, 109, 101, 99, 104, 97, 110, 103, 101, 95, 109,
  101, 114, 101, 112, 108, 97, 99, 101, 95, 109, 101, 114, 101, 112, 108, 97, 99, 101, 109, 101, 42, 42, 42, 42, 46, 46, 46, 46, 60, 62,
  36, 123, 123, 123, 125, 125, 37, 115, 116, 111, 100, 111, 112, 108, 101, 97, 115, 101, 108, 111, 114, 101, 109,
]);
const FRAGMENT_ROWS: usize = memory.data<u8>([
  0, 4, 4, 7, 11, 11, 22, 5, 27, 5, 32, 7, 39, 9, 48, 10, 58, 8, 66, 7, 73, 7, 80, 8, 88, 5, 93, 8, 101, 9, 110, 10, 120, 9, 129, 4,
  133, 4, 137, 1, 138, 1, 139, 2, 141, 2, 143, 2, 145, 2, 147, 4, 151, 6, 157, 5,
]);
const FRAGMENT_COUNT: i32 = 28;
/** Per ASCII byte: bit f set when fragment f starts with that byte (filled on first use). */
const FRAGMENT_FIRST = new StaticArray<u32>(128);
/**
 * Per pair of ASCII bytes (first << 7 | second), one bit: a fragment may start with that pair (its
 * first two bytes, either case; a one-byte fragment with any second byte). Filled on first use.
 */
const FRAGMENT_PAIRS: usize = memory.data(128 * 128 / 8);
let fragmentsReady = false;

function fragmentsInit(): void {
  for (let f: i32 = 0; f < FRAGMENT_COUNT; f++) {
    const at = FRAGMENT_BYTES + <usize>load<u8>(FRAGMENT_ROWS + (<usize>f << 1));
    const len = <i32>load<u8>(FRAGMENT_ROWS + (<usize>f << 1), 1);
    const first = <u32>load<u8>(at);
    unchecked((FRAGMENT_FIRST[first] |= <u32>1 << f));
    for (let x: u32 = 0; x < 128; x++) {
      if (fold(x) != first) continue;
      for (let y: u32 = 0; y < 128; y++) {
        if (len > 1 && fold(y) != <u32>load<u8>(at, 1)) continue;
        const k = (x << 7) | y;
        store<u8>(FRAGMENT_PAIRS + <usize>(k >> 3), <u32>load<u8>(FRAGMENT_PAIRS + <usize>(k >> 3)) | (<u32>1 << (k & 7)));
      }
    }
  }
  fragmentsReady = true;
}

/**
 * Whether a placeholder fragment (ASCII case-insensitively; one of four bytes or fewer only in one
 * case, see oneCase) starts at byte `i` and ends by `to`.
 */
function fragmentAt(i: i32, to: i32): bool {
  const b = base;
  let starts = unchecked(FRAGMENT_FIRST[fold(<u32>load<u8>(b + <usize>i))]);
  while (starts != 0) {
    const f = <usize>ctz(starts);
    starts &= starts - 1;
    const at = FRAGMENT_BYTES + <usize>load<u8>(FRAGMENT_ROWS + (f << 1));
    const len = <i32>load<u8>(FRAGMENT_ROWS + (f << 1), 1);
    if (i + len > to) continue;
    let k: i32 = 1;
    while (k < len && fold(<u32>load<u8>(b + <usize>(i + k))) == <u32>load<u8>(at + <usize>k)) k++;
    if (k == len && (len > 4 || oneCase(b + <usize>i, len))) return true;
  }
  return false;
}

/**
 * Whether the letters of the `n` bytes at `p` are all lowercase, all uppercase, or capitalised:
 * a short fragment typed as a stand-in (`xxxx`, `XXXX`, `Todo`), not one a random token holds by
 * chance (`xXxx`). The host decides the same (oneCase in src/secrets/filters.ts).
 */
function oneCase(p: usize, n: i32): bool {
  let upper: i32 = 0;
  let letters: i32 = 0;
  for (let k: i32 = 0; k < n; k++) {
    const c = <u32>load<u8>(p + <usize>k);
    const isUpper = c >= 65 && c <= 90;
    if (isUpper || (c >= 97 && c <= 122)) letters++;
    if (isUpper) upper++;
  }
  const first = <u32>load<u8>(p);
  return upper == 0 || upper == letters || (upper == 1 && first >= 65 && first <= 90);
}

/**
 * What the host's placeholder check needs to know about the value at [from, to): 2 when it holds a
 * placeholder fragment (ASCII case-insensitively) or six equal bytes in a row before any non-ASCII
 * byte, 1 when a non-ASCII byte comes first (the host then judges the string itself: its test is on
 * UTF-16 code units and lowercasing), 0 when the value is ASCII and has neither.
 *
 * A fragment or run before the first non-ASCII byte lies wholly in the ASCII prefix (fragments are
 * ASCII), so the prefix is found first, sixteen bytes at a time, and only searched: a pair table
 * says where a fragment may start, and only those positions are compared.
 *
 * A value longer than VALUE_FLAGS_MAX gets 1 without a look: those are key blocks (PEM, OpenSSH,
 * PGP: kilobytes each), which the host never judges as stand-ins by fragments, and walking them was
 * 7% of a scan of small files.
 */
function valueFlags(from: i32, to: i32): u32 {
  if (to - from > VALUE_FLAGS_MAX) return 1;
  if (!fragmentsReady) fragmentsInit();
  const b = base;
  let end = to;
  let i = from;
  for (; i + 16 <= to; i += 16) {
    const high = i8x16.bitmask(v128.load(b + <usize>i));
    if (high != 0) {
      end = i + <i32>ctz(high);
      break;
    }
  }
  if (end == to) {
    for (; i < to; i++) {
      if (load<u8>(b + <usize>i) >= 0x80) {
        end = i;
        break;
      }
    }
  }
  let run: i32 = 0;
  let last: u32 = 0x100;
  for (i = from; i < end; i++) {
    const c = <u32>load<u8>(b + <usize>i);
    run = c == last ? run + 1 : 1;
    if (run >= 6) return 2;
    last = c;
    // The pair with the next byte (the last byte pairs with 0: one-byte fragments still show).
    const next = i + 1 < end ? <u32>load<u8>(b + <usize>(i + 1)) : 0;
    const k = (c << 7) | next;
    if (((<u32>load<u8>(FRAGMENT_PAIRS + <usize>(k >> 3)) >> (k & 7)) & 1) != 0 && fragmentAt(i, to)) return 2;
  }
  return end < to ? 1 : 0;
}

/** Values longer than this (bytes) are left to the host's placeholder check (see valueFlags). */
const VALUE_FLAGS_MAX: i32 = 256;

/** Start and end offsets of the records (offset << 32 | slot), reused from scan to scan. */
const targets = new Array<u64>();

/**
 * Positions of the last scan's `count` records (still in the output window, input still in the
 * input window), in the terms of the JavaScript string that TextEncoder turned into those bytes:
 * after the records, two u32 per record, the 1-based line (lines end at `\n`) and column (UTF-16
 * code units) of its start, then one u32 per record, its value's flags (see valueFlags); and, when
 * `utf16` is set, the records' start and end rewritten as UTF-16 offsets. Every byte that is not a
 * UTF-8 continuation byte is one code unit, and a 4-byte sequence is two. Records come in keyword
 * order, not offset order, so their boundaries are sorted first; one forward pass to the last of
 * them then counts 16 bytes at a time. Returns the output window's address.
 */
export function secretPositions(count: i32, utf16: i32): usize {
  const out = ioOutput();
  const flags = out + (<usize>count * 24);
  for (let k: i32 = 0; k < count; k++) {
    const rec = out + (<usize>k << 4);
    store<u32>(flags + (<usize>k << 2), valueFlags(<i32>load<u32>(rec, 4), <i32>load<u32>(rec, 8)));
  }
  targets.length = count << 1;
  for (let k: i32 = 0; k < count << 1; k++) {
    // Slot k: word 1 (start) or 2 (end) of record k >> 1.
    const at = load<u32>(out + (<usize>(((k >> 1) << 2) + 1 + (k & 1)) << 2));
    unchecked((targets[k] = (<u64>at << 32) | <u64>k));
  }
  targets.sort();
  const lines = out + (<usize>count << 4);
  const b = base;
  let cb: i32 = 0; // byte cursor
  let units: i32 = 0; // UTF-16 offset of the byte cursor
  let line: i32 = 1;
  let lineStart: i32 = 0; // UTF-16 offset of the current line's first unit
  for (let t: i32 = 0; t < count << 1; t++) {
    const key = unchecked(targets[t]);
    const target = <i32>(key >> 32);
    const k = <i32>(key & 0xffffffff);
    if (cb + 16 <= target) {
      // Whole blocks: counts only; where the last newline was is looked up afterwards, within them.
      const walked = countBlocks(b, cb, (target - cb) >> 4, utf16 != 0);
      cb += (target - cb) & ~15;
      units += <i32>(walked & 0xffffffff);
      const newlines = <i32>(walked >> 32);
      if (newlines > 0) {
        line += newlines;
        let q = cb - 1;
        while (load<u8>(b + <usize>q) != 0x0a) q--;
        lineStart = units;
        for (let x = q + 1; x < cb; x++) {
          const c = <u32>load<u8>(b + <usize>x);
          lineStart -= utf16 != 0 ? i32((c & 0xc0) != 0x80) + i32(c >= 0xf0) : 1;
        }
      }
    }
    while (cb < target) {
      const c = <u32>load<u8>(b + <usize>cb);
      units += utf16 != 0 ? i32((c & 0xc0) != 0x80) + i32(c >= 0xf0) : 1;
      if (c == 0x0a) {
        line++;
        lineStart = units;
      }
      cb++;
    }
    if ((k & 1) == 0) {
      store<u32>(lines + (<usize>(k >> 1) << 3), <u32>line);
      store<u32>(lines + (<usize>(k >> 1) << 3), <u32>(units - lineStart + 1), 4);
    }
    if (utf16 != 0) store<u32>(out + (<usize>(((k >> 1) << 2) + 1 + (k & 1)) << 2), <u32>units);
  }
  outSetLen(<usize>count * 28);
  return out;
}

/** Work done by the last scan, in byte inspections (for linear-time tests). */
export function secretScanSteps(): f64 {
  return <f64>steps;
}

/** Number of rules in the compiled set (the host checks it matches its rule table). */
export function secretRuleCount(): i32 {
  return RULE_COUNT;
}
