// UTF-16 code units to UTF-8 bytes, exactly as TextEncoder.encodeInto writes them (a lone surrogate
// becomes U+FFFD). Node's V8 writes UTF-8 one character at a time for any string that is not all
// one-byte, while Buffer copies the code units themselves at memory speed; the host copies them
// into the input window and this turns them into the UTF-8 every other export reads, sixteen ASCII
// units per step.

/**
 * Encodes `units` UTF-16 code units at `src` as UTF-8 at `dst` and returns the byte count.
 *
 * In place: `src` may lie at or after `dst + units` inside the same window. Each step reads its
 * units before it writes, and after k units at most 3k bytes are written (a pair of units makes 4
 * bytes), so a write never reaches a unit not yet read: 3k + 16 <= units + 2(k + 16) for a
 * 16-unit step, 3(k + 1) <= units + 2(k + 1) for one unit.
 */
export function utf16ToUtf8(src: usize, units: usize, dst: usize): usize {
  const cap = i16x8.splat(0xff);
  let i: usize = 0;
  let o = dst;
  while (i + 16 <= units) {
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
