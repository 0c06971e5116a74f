// UTF-16 code units to UTF-8 bytes, exactly as TextEncoder.encodeInto writes them (a lone surrogate
// becomes U+FFFD). Node's V8 writes UTF-8 one character at a time for any string that is not all
// one-byte, while Buffer copies the code units themselves at memory speed; the host copies them
// into the input window and this turns them into the UTF-8 every other export reads, sixteen ASCII
// units per step.

/**
 * Encodes `units` UTF-16 code units at `src` as UTF-8 at `dst` and returns the byte count.
 *
 * In place: `src` may lie at or after `dst + units` inside the same window. After k units the
 * output ends at or before dst + 3k, and each step reads its s units before it stores, at most 2s
 * bytes for a vector step (16 or 32 units; the stores past the kept bytes included) and 3 for one
 * unit (4 for a pair), so no store reaches a unit not yet read: 3k + 2s <= units + 2(k + s) and
 * 3k + 3 <= units + 2(k + 1) hold whenever k + s <= units.
 */
export function utf16ToUtf8(src: usize, units: usize, dst: usize): usize {
  const cap = i16x8.splat(0xff);
  let i: usize = 0;
  let o = dst;
  const nonAscii = i16x8.splat(<i16>0xff80);
  while (i + 16 <= units) {
    // Thirty-two ASCII units at a time while they last (most of code and logs): one test, no mask.
    while (i + 32 <= units) {
      const p = src + (i << 1);
      const a = v128.load(p);
      const b = v128.load(p, 16);
      const c = v128.load(p, 32);
      const d = v128.load(p, 48);
      if (v128.any_true(v128.and(v128.or(v128.or(a, b), v128.or(c, d)), nonAscii))) break;
      v128.store(o, i8x16.narrow_i16x8_u(a, b));
      v128.store(o, i8x16.narrow_i16x8_u(c, d), 16);
      o += 32;
      i += 32;
    }
    if (i + 16 > units) break;
    const a = v128.load(src + (i << 1));
    const b = v128.load(src + (i << 1), 16);
    // Narrowing reads the lanes as signed, so U+8000 and up would become 0: cap them at 0xFF
    // first. A lane is then ASCII exactly where its byte's top bit is clear.
    const bytes = i8x16.narrow_i16x8_u(i16x8.min_u(a, cap), i16x8.min_u(b, cap));
    const high = <u32>i8x16.bitmask(bytes);
    // All sixteen bytes are stored; only the ASCII prefix is kept (the rest is overwritten).
    v128.store(o, bytes);
    if (high == 0) {
      o += 16;
      i += 16;
      continue;
    }
    // No unit of U+0800 or above: one or two bytes each, eight units at a time (accented text).
    if (!v128.any_true(v128.and(v128.or(a, b), i16x8.splat(<i16>0xf800)))) {
      o = twoByteLanes(a, o);
      o = twoByteLanes(b, o);
      i += 16;
      continue;
    }
    const ascii = <usize>ctz(high);
    o += ascii;
    i += ascii;
    // The run of non-ASCII units (a word of accented or CJK text) one by one, then back to blocks.
    do {
      o = encodeUnit(src, i, units, o);
      i = nextUnit;
    } while (i < units && load<u16>(src + (i << 1)) >= 0x80);
  }
  while (i < units) {
    o = encodeUnit(src, i, units, o);
    i = nextUnit;
  }
  return o - dst;
}

/**
 * For each mask of ASCII lanes among eight units, the swizzle that keeps both bytes of each other
 * lane's two-byte form and the low byte of each ASCII lane, in order (unused bytes: 0x80, zero).
 */
const COMPACT: usize = memory.data(256 << 4);
for (let m: u32 = 0; m < 256; m++) {
  let at: usize = COMPACT + (<usize>m << 4);
  const end = at + 16;
  for (let k: u8 = 0; k < 8; k++) {
    store<u8>(at++, k << 1);
    if (((m >> k) & 1) == 0) store<u8>(at++, (k << 1) | 1);
  }
  while (at < end) store<u8>(at++, 0x80);
}

/**
 * Writes the UTF-8 of eight units below U+0800 at `o` (sixteen bytes are stored, only what they
 * encode to is kept); returns the new end.
 */
// @ts-ignore: decorator
@inline
function twoByteLanes(v: v128, o: usize): usize {
  const ascii = i16x8.lt_u(v, i16x8.splat(0x80));
  // Lead byte 110xxxxx low, continuation 10xxxxxx high: the two bytes in memory order.
  const lead = v128.or(i16x8.shr_u(v, 6), i16x8.splat(0xc0));
  const trail = v128.or(v128.and(v, i16x8.splat(0x3f)), i16x8.splat(0x80));
  const words = v128.bitselect(v, v128.or(lead, i16x8.shl(trail, 8)), ascii);
  const mask = <u32>i16x8.bitmask(ascii);
  v128.store(o, i8x16.swizzle(words, v128.load(COMPACT + (<usize>mask << 4))));
  return o + 16 - <usize>popcnt(mask);
}

// Index of the unit after the one (or the pair) the last encodeUnit encoded.
let nextUnit: usize = 0;

/** Writes the UTF-8 of the unit at `i` (or of the surrogate pair it starts) at `o`; returns the new end. */
// @ts-ignore: decorator
@inline
function encodeUnit(src: usize, i: usize, units: usize, o: usize): usize {
  const c = <u32>load<u16>(src + (i << 1));
  nextUnit = i + 1;
  if (c < 0x80) {
    store<u8>(o, <u8>c);
    return o + 1;
  }
  if (c < 0x800) {
    store<u8>(o, <u8>(0xc0 | (c >> 6)));
    store<u8>(o, <u8>(0x80 | (c & 0x3f)), 1);
    return o + 2;
  }
  if ((c & 0xf800) == 0xd800) {
    // A high surrogate followed by a low one is one code point; any other surrogate is U+FFFD.
    if (c < 0xdc00 && i + 1 < units) {
      const d = <u32>load<u16>(src + ((i + 1) << 1));
      if ((d & 0xfc00) == 0xdc00) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        store<u8>(o, <u8>(0xf0 | (cp >> 18)));
        store<u8>(o, <u8>(0x80 | ((cp >> 12) & 0x3f)), 1);
        store<u8>(o, <u8>(0x80 | ((cp >> 6) & 0x3f)), 2);
        store<u8>(o, <u8>(0x80 | (cp & 0x3f)), 3);
        nextUnit = i + 2;
        return o + 4;
      }
    }
    store<u8>(o, 0xef);
    store<u8>(o, 0xbf, 1);
    store<u8>(o, 0xbd, 2);
    return o + 3;
  }
  store<u8>(o, <u8>(0xe0 | (c >> 12)));
  store<u8>(o, <u8>(0x80 | ((c >> 6) & 0x3f)), 1);
  store<u8>(o, <u8>(0x80 | (c & 0x3f)), 2);
  return o + 3;
}
