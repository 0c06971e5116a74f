// A program of its own (not part of the core in index.ts): the bytes JSON's escapes add to UTF-8
// text, sixteen bytes at a time, and the whole UTF-8 JSON size of UTF-16 text, sixteen code units
// at a time. The context store's size checks and the tool-output policy count the JSON bytes of
// strings synchronously, wherever they are called, so this kernel is about a kilobyte that the
// host compiles synchronously on first use (src/core/json-escapes.ts), not a function of the core,
// which is hundreds of kilobytes and loads asynchronously. The host writes a string into the
// window (its UTF-8 from the platform's encoder, or in Node its UTF-16 code units) and asks for the
// count; where it cannot compile WebAssembly at run time (workerd) it counts in JavaScript
// (src/encoding/utf8-size.ts), and the tests hold them all to the same answers.
//
// No allocation, no imports: the window is fixed at instantiation, so the memory never grows and
// the host's one view of the window stays valid for the life of the instance.

/** Bytes in the window (64 KiB): the host encodes at most this many bytes per call. */
const WINDOW_SIZE: usize = 65536;
/** The window, after the program's (empty) static data, aligned for v128 loads. */
const WINDOW: usize = (__heap_base + 15) & ~15;

// Grown once, while instantiating.
const missing = <i32>((WINDOW + WINDOW_SIZE + 0xffff) >> 16) - memory.size();
if (missing > 0) memory.grow(missing);

/** Address of the window. */
export function jsonEscapeWindow(): usize {
  return WINDOW;
}

/** Size of the window in bytes. */
export function jsonEscapeWindowSize(): usize {
  return WINDOW_SIZE;
}

/**
 * Bytes JSON's escapes add to sixteen bytes: 1 for each `"`, `\` and control character with a
 * short escape (0x08..0x0D but 0x0B, the vertical tab: `\b \t \n \f \r`), 5 for each other
 * control character (`\u00XX`). Inlined, so its constants fold into each loop that uses it.
 */
// @ts-ignore: decorator
@inline
function escapeExtra16(v: v128): u32 {
  const control = i8x16.lt_u(v, i8x16.splat(0x20));
  const escaped = v128.or(control, v128.or(i8x16.eq(v, i8x16.splat(0x22)), i8x16.eq(v, i8x16.splat(0x5c))));
  // Most blocks of text hold nothing JSON escapes.
  if (!v128.any_true(escaped)) return 0;
  const short = v128.andnot(i8x16.lt_u(i8x16.sub(v, i8x16.splat(0x08)), i8x16.splat(6)), i8x16.eq(v, i8x16.splat(0x0b)));
  return <u32>popcnt(i8x16.bitmask(escaped)) + 4 * <u32>popcnt(i8x16.bitmask(v128.andnot(control, short)));
}

/**
 * Bytes JSON's escapes add to the first `len` bytes of the window, times two, plus 1 if any of
 * them is 0xEF. `"`, `\` and the control characters with a short escape (`\b \t \n \f \r`) add 1
 * each; the other control characters (below 0x20) add 5 (`\u00XX`). 0xEF leads the UTF-8 of
 * U+F000..U+FFFF, U+FFFD among them, which the encoder writes for a lone surrogate (JSON writes
 * `\udXXX`): only text holding one needs the host's closer look.
 */
export function jsonEscapeBytes(len: usize): u32 {
  if (len > WINDOW_SIZE) len = WINDOW_SIZE;
  const lead = i8x16.splat(<i8>0xef);
  let leads = i8x16.splat(0);
  let extra: u32 = 0;
  let i: usize = 0;
  for (; i + 16 <= len; i += 16) {
    const v = v128.load(WINDOW + i);
    leads = v128.or(leads, i8x16.eq(v, lead));
    extra += escapeExtra16(v);
  }
  let sawLead: u32 = v128.any_true(leads) ? 1 : 0;
  for (; i < len; i++) {
    const c = <u32>load<u8>(WINDOW + i);
    if (c == 0xef) sawLead = 1;
    else if (c == 0x22 || c == 0x5c) extra += 1;
    else if (c < 0x20) extra += c - 0x08 < 6 && c != 0x0b ? 1 : 5;
  }
  return (extra << 1) | sawLead;
}

/**
 * UTF-8 bytes of the JSON text of the first `units` UTF-16 code units (little-endian) in the
 * window, quotes left out: 1 byte for ASCII, 2 below U+0800, 3 for the rest of the BMP, 4 for a
 * surrogate pair, 6 for a lone surrogate (`\udXXX`), plus what escapes add (see
 * {@link jsonEscapeBytes}). The host never ends a call between the two halves of a pair.
 *
 * Where the host can copy a string's code units into memory (Node's Buffer, at memory speed), this
 * beats the platform's UTF-8 encoder on text that is not all ASCII, which that encoder takes one
 * character at a time.
 */
export function jsonUtf16Bytes(units: usize): u32 {
  if (units > WINDOW_SIZE >> 1) units = WINDOW_SIZE >> 1;
  const high5 = i16x8.splat(<i16>0xf800);
  const surrogate = i16x8.splat(<i16>0xd800);
  const zero = i16x8.splat(0);
  const latin1 = i16x8.splat(0xff);
  const nonAscii = i16x8.splat(<i16>0xff80);
  let bytes: u32 = 0;
  let i: usize = 0;
  while (i < units) {
    if (i + 16 <= units) {
      const a = v128.load(WINDOW + (i << 1));
      const b = v128.load(WINDOW + (i << 1), 16);
      // Sixteen ASCII units (most text and code): one byte each, and what escapes add.
      if (!v128.any_true(v128.and(v128.or(a, b), nonAscii))) {
        bytes += 16 + escapeExtra16(i8x16.narrow_i16x8_u(a, b));
        i += 16;
        continue;
      }
      const topA = v128.and(a, high5);
      const topB = v128.and(b, high5);
      // Sixteen units without a surrogate (nearly all text): counted together. A block with one
      // is walked unit by unit below, so pairs and lone halves are told apart.
      if (!v128.any_true(v128.or(i16x8.eq(topA, surrogate), i16x8.eq(topB, surrogate)))) {
        // Each unit capped at 0xFF, then narrowed to a byte: ASCII stays itself, U+0080 and up keep
        // a high bit, so the high bits count the units from U+0080 up and no unit JSON does not
        // escape can look like one it does. (The cap comes first: narrowing alone reads its lanes
        // as signed, and would turn U+8000 and up into 0x00.)
        const narrow = i8x16.narrow_i16x8_u(i16x8.min_u(a, latin1), i16x8.min_u(b, latin1));
        const below800 = <u32>popcnt(i16x8.bitmask(i16x8.eq(topA, zero))) + <u32>popcnt(i16x8.bitmask(i16x8.eq(topB, zero)));
        // One byte each, one more from U+0080 up, one more again from U+0800 up, and the escapes.
        bytes += 16 + <u32>popcnt(i8x16.bitmask(narrow)) + (16 - below800) + escapeExtra16(narrow);
        i += 16;
        continue;
      }
    }
    // Unit by unit to the end of this block (a pair may run one unit past it).
    const stop = min(units, i + 16);
    while (i < stop) {
      const c = <u32>load<u16>(WINDOW + (i << 1));
      if (c < 0x80) {
        bytes += 1;
        if (c == 0x22 || c == 0x5c) bytes += 1;
        else if (c < 0x20) bytes += c - 0x08 < 6 && c != 0x0b ? 1 : 5;
      } else if (c < 0x800) bytes += 2;
      else if (c < 0xd800 || c > 0xdfff) bytes += 3;
      else if (c <= 0xdbff && i + 1 < units && (<u32>load<u16>(WINDOW + ((i + 1) << 1)) & 0xfc00) == 0xdc00) {
        bytes += 4;
        i++;
      } else bytes += 6;
      i++;
    }
  }
  return bytes;
}
