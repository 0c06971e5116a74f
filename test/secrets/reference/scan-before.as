// Frozen copy of assembly/scan/scan.ts before the SIMD prefilter (test/secrets/scan-differential.test.ts
// compiles it with asc): a position-by-position hashed probe over the same compiled tables.
// Secret scanner: one linear pass over UTF-8 bytes.
//
// A keyword prefilter (tables compiled by build/gen-rules.mjs) finds rule keywords: at each position
// the folded 4-byte word is probed in a hashed bit filter and the folded 2-byte word in a second
// one; the probes of one position do not depend on the previous one, so the loop runs at memory
// speed instead of a DFA's chain of dependent loads. Filter hits are verified against exact keys,
// then the whole keyword. Each keyword hit runs that rule's steps forward from the keyword: greedy runs of a byte class with a
// maximum length, literals, and "until literal" searches. Nothing backtracks, every step is
// bounded, and the until-searches share a cache that never scans a byte twice, so the work per
// input byte is a small constant whatever the input. `secretScanSteps()` reports the work done so
// tests can check that without timing anything.
//
// Findings go to the output window as 16-byte records: rule index, byte start, byte end, confidence.
import { outReserve, ioOutput } from '../../../assembly/io';
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
  KW,
  LITS,
  LIT_BYTES,
  CLASS_BITS,
  STEPS,
  RULES,
  VALUE_DQ,
  VALUE_SQ,
  VALUE_BQ,
} from '../../../assembly/scan/tables.generated';

const NONE: i32 = 0xffff;
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

// The until-literal cache: positions [uFrom, uLimit) were searched, the first occurrence of
// literal uLit at or after uFrom is uFound (-1: none before uLimit).
let uLit: i32 = -1;
let uFrom: i32 = 0;
let uLimit: i32 = 0;
let uFound: i32 = -1;

// @ts-ignore: decorator
@inline
function byteAt(i: i32): u32 {
  return <u32>load<u8>(base + <usize>i);
}

// @ts-ignore: decorator
@inline
function inClass(cls: i32, b: u32): bool {
  return ((<u32>load<u8>(CLASS_BITS + (<usize>cls << 5) + (<usize>b >> 3)) >> (b & 7)) & 1) != 0;
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

/** Length of the run of class `cls` starting at `pos`, at most `max`. */
function runForward(cls: i32, pos: i32, max: i32): i32 {
  let n: i32 = 0;
  while (n < max && pos + n < size && inClass(cls, byteAt(pos + n))) n++;
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
    if (((<u32>load<u8>(set + (<usize>b >> 3)) >> (b & 7)) & 1) == 0) break;
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
  for (let k: i32 = 0; k < len; k++) {
    steps++;
    let b = byteAt(pos + k);
    if (ci) b = fold(b);
    if (b != <u32>load<u8>(LIT_BYTES + off + <usize>k)) return -1;
  }
  return len;
}

/** First occurrence of literal `lit` at or after `pos`, looking at most `max` bytes ahead; -1 if none. */
function findLiteral(lit: i32, pos: i32, limit: i32): i32 {
  const off = <usize>load<u32>(LITS + (<usize>lit << 3));
  const len = <i32>load<u32>(LITS + (<usize>lit << 3) + 4);
  if (lit == uLit && pos >= uFrom) {
    if (uFound >= pos) return uFound - pos <= limit ? uFound : -1;
    if (uFound < 0 && pos <= uLimit) {
      // Continue where the last search stopped.
      const r = scanFor(off, len, uLimit, pos + limit + 1);
      uLimit = max(uLimit, pos + limit + 1);
      uFound = r;
      return r >= 0 && r - pos <= limit ? r : -1;
    }
  }
  const r = scanFor(off, len, pos, pos + limit + 1);
  uLit = lit;
  uFrom = pos;
  uLimit = pos + limit + 1;
  uFound = r;
  return r >= 0 && r - pos <= limit ? r : -1;
}

function scanFor(off: usize, len: i32, from: i32, to: i32): i32 {
  const first = <u32>load<u8>(LIT_BYTES + off);
  const stop = min(to, size - len + 1);
  for (let i = from; i < stop; i++) {
    steps++;
    if (byteAt(i) != first) continue;
    let k: i32 = 1;
    while (k < len && byteAt(i + k) == <u32>load<u8>(LIT_BYTES + off + <usize>k)) {
      k++;
      steps++;
    }
    if (k == len) return i;
  }
  return -1;
}

/** Shannon entropy in bits per byte of up to ENTROPY_SAMPLE bytes at `from`. */
function entropy(from: i32, to: i32): f64 {
  const end = min(to, from + ENTROPY_SAMPLE);
  const n = end - from;
  if (n <= 0) return 0;
  for (let i = from; i < end; i++) unchecked(counts[byteAt(i)]++);
  let h: f64 = 0;
  for (let i = from; i < end; i++) {
    const b = byteAt(i);
    const c = unchecked(counts[b]);
    if (c != 0) {
      const p = <f64>c / <f64>n;
      h -= p * Math.log2(p);
      unchecked((counts[b] = 0));
    }
  }
  steps += <u64>(2 * n);
  return h;
}

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
      // A judgement added after the speed work (rule steps 2): a quoted value runs to its quote.
      // Two quotes before it (`password: "",`) are an empty string, and what follows is not in one.
      const q = pos > 0 ? byteAt(pos - 1) : 0;
      const open = pos < 2 || byteAt(pos - 2) != q;
      // Rule steps 4 (FILTERS_VERSION 18), kept in step with the core: a value opened by an escaped
      // quote ends at the backslash of its escaped closing quote.
      const close: u32 = pos >= 2 && byteAt(pos - 2) == 0x5c ? q : 0;
      n = !open || (q != 0x22 && q != 0x27 && q != 0x60) ? runForward(arg, pos, smax) : quotedRun(q == 0x22 ? VALUE_DQ : q == 0x27 ? VALUE_SQ : VALUE_BQ, pos, smax, close);
      if (n < smin) return;
    } else if (kind == STEP_PREFIX) {
      // Rule steps 5 (FILTERS_VERSION 19), kept in step with the core: a string literal's prefix
      // is taken only when a quote follows it.
      n = runForward(arg, pos, smax);
      if (n > 0 && (pos + n >= size || !(byteAt(pos + n) == 0x22 || byteAt(pos + n) == 0x27 || byteAt(pos + n) == 0x60))) n = 0;
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
  // Not frozen (FILTERS_VERSION 26), written plainly: a hex key of 16 to 64 digits of one case, two
  // digits and two letters at least, needs only 2.8 bits.
  if (threshold != 0 && entropy(secStart, secEnd) * 100.0 < <f64>threshold) {
    const n = secEnd - secStart;
    let digits = 0;
    let lower = 0;
    let upper = 0;
    let other = 0;
    for (let i = secStart; i < secEnd; i++) {
      const c = byteAt(i);
      if (c >= 0x30 && c <= 0x39) digits++;
      else if (c >= 0x61 && c <= 0x66) lower++;
      else if (c >= 0x41 && c <= 0x46) upper++;
      else other++;
    }
    const hexKey = n >= 16 && n <= 64 && other == 0 && digits >= 2 && ((lower >= 2 && upper == 0) || (upper >= 2 && lower == 0));
    if (!hexKey || entropy(secStart, secEnd) * 100.0 < 280) return;
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
  for (let k: i32 = 0; k < len; k++) {
    steps++;
    let b = byteAt(at + k);
    let want = <u32>load<u8>(LIT_BYTES + off + <usize>k);
    if (!cs) {
      b = fold(b);
      want = fold(want);
    }
    if (b != want) return;
  }
  tryRule(rule, at, at + len);
}

/** Handles a prefilter hit at byte `i` whose folded 4-byte word is `w` and hash `h`. */
function onCandidate(i: i32, w: u32, h: u32): void {
  const bucket = <usize>(h >> BUCKET_SHIFT);
  const lo = <usize>load<u16>(BUCKET_START + (bucket << 1));
  const hi = <usize>load<u16>(BUCKET_START + ((bucket + 1) << 1));
  let w2: u32 = 0;
  if (i + 8 <= size) w2 = load<u32>(base + <usize>(i + 4));
  else for (let k: i32 = 4; k < 8 && i + k < size; k++) w2 |= byteAt(i + k) << (<u32>(k - 4) << 3);
  w2 |= 0x20202020;
  for (let o = lo; o < hi; o++) {
    steps++;
    if (load<u32>(LONG_KEY + (o << 2)) != w) continue;
    const k2 = LONG_KEY2 + (o << 3);
    if ((w2 & load<u32>(k2, 4)) == load<u32>(k2)) tryKeyword(<usize>load<u16>(LONG_ENTRY + (o << 1)), i);
  }
}

// @ts-ignore: decorator
@inline
function probe(i: i32, w: u32): void {
  const h = (w * HASH_MUL) >> (32 - HASH_BITS);
  if (((<u32>load<u8>(FILTER4 + <usize>(h >> 3)) >> (h & 7)) & 1) != 0) onCandidate(i, w, h);
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
  uLit = -1;
  uFound = -1;
  for (let r: i32 = 0; r < RULE_COUNT; r++) unchecked((lastEnd[r] = 0));
  const n = size;
  const p = base;
  let i: i32 = 0;
  // Every byte is folded with OR 0x20 (as the tables were built); the last three positions read
  // zero padding instead of bytes past the input.
  for (; i < n - 3; i++) probe(i, load<u32>(p + <usize>i) | 0x20202020);
  for (; i < n; i++) {
    let w: u32 = 0;
    for (let k: i32 = 0; k < 4 && i + k < n; k++) w |= byteAt(i + k) << (<u32>k << 3);
    probe(i, w | 0x20202020);
  }
  steps += <u64>n;
  const records = found.length >> 2;
  const out = outReserve(<usize>found.length << 2);
  for (let k: i32 = 0; k < found.length; k++) store<u32>(out + (<usize>k << 2), unchecked(found[k]));
  return records;
}

/**
 * Rewrites the start and end byte offsets of the last scan's `count` records (still in the output
 * window, input still in the input window) as UTF-16 offsets, as a JavaScript string of the text
 * TextEncoder produced would index them: every byte that is not a UTF-8 continuation byte is one
 * code unit, and a 4-byte sequence is two. A cursor moves between consecutive boundaries, so the
 * work is the distance travelled: records come in keyword order, so that is about one pass over
 * the text up to the last finding plus the findings' own lengths.
 */
export function secretOffsetsUtf16(count: i32): void {
  const out = ioOutput();
  let cb: i32 = 0; // byte cursor
  let cu: i32 = 0; // UTF-16 offset of the byte cursor
  for (let k: i32 = 0; k < count; k++) {
    for (let f: i32 = 1; f <= 2; f++) {
      const slot = out + (<usize>(k * 4 + f) << 2);
      const target = <i32>load<u32>(slot);
      // Eight bytes at a time: units = 8 - continuation bytes (10xxxxxx) + 4-byte leads (11110xxx).
      while (cb + 8 <= target) {
        const x = load<u64>(base + <usize>cb);
        const cont = x & ~(x << 1) & 0x8080808080808080;
        const lead4 = x & (x << 1) & (x << 2) & (x << 3) & 0x8080808080808080;
        cu += 8 - <i32>popcnt(cont) + <i32>popcnt(lead4);
        cb += 8;
      }
      while (cb < target) {
        const b = byteAt(cb);
        cu += i32((b & 0xc0) != 0x80) + i32(b >= 0xf0);
        cb++;
      }
      while (cb > target) {
        cb--;
        const b = byteAt(cb);
        cu -= i32((b & 0xc0) != 0x80) + i32(b >= 0xf0);
      }
      store<u32>(slot, <u32>cu);
    }
  }
}

/** Work done by the last scan, in byte inspections (for linear-time tests). */
export function secretScanSteps(): f64 {
  return <f64>steps;
}

/** Number of rules in the compiled set (the host checks it matches its rule table). */
export function secretRuleCount(): i32 {
  return RULE_COUNT;
}
