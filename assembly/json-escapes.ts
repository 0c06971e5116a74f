// A program of its own (not part of the core in index.ts): the bytes JSON's escapes add to UTF-8
// text, sixteen bytes at a time. The context store's size checks and the tool-output policy count
// the JSON bytes of strings synchronously, wherever they are called, so this kernel is a few
// hundred bytes that the host compiles synchronously on first use (src/core/json-escapes.ts), not
// a function of the core, which is hundreds of kilobytes and loads asynchronously. The host
// encodes a string into the window with the platform's encoder and asks for the count; where it
// cannot compile WebAssembly at run time (workerd) it counts in JavaScript
// (src/encoding/utf8-size.ts), and the tests hold the two to the same answers.
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
 * Bytes JSON's escapes add to the first `len` bytes of the window, times two, plus 1 if any of
 * them is 0xEF. `"`, `\` and the control characters with a short escape (`\b \t \n \f \r`) add 1
 * each; the other control characters (below 0x20) add 5 (`\u00XX`). 0xEF leads the UTF-8 of
 * U+F000..U+FFFF, U+FFFD among them, which the encoder writes for a lone surrogate (JSON writes
 * `\udXXX`): only text holding one needs the host's closer look.
 */
export function jsonEscapeBytes(len: usize): u32 {
  if (len > WINDOW_SIZE) len = WINDOW_SIZE;
  const space = i8x16.splat(0x20);
  const quote = i8x16.splat(0x22);
  const backslash = i8x16.splat(0x5c);
  const lead = i8x16.splat(<i8>0xef);
  const backspace = i8x16.splat(0x08);
  const six = i8x16.splat(6);
  const verticalTab = i8x16.splat(0x0b);
  let leads = i8x16.splat(0);
  let extra: u32 = 0;
  let i: usize = 0;
  for (; i + 16 <= len; i += 16) {
    const v = v128.load(WINDOW + i);
    leads = v128.or(leads, i8x16.eq(v, lead));
    const control = i8x16.lt_u(v, space);
    const escaped = v128.or(control, v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)));
    // Most blocks of text hold nothing JSON escapes.
    if (v128.any_true(escaped)) {
      // 0x08..0x0D but 0x0B (vertical tab): the short escapes among the control characters.
      const short = v128.andnot(i8x16.lt_u(i8x16.sub(v, backspace), six), i8x16.eq(v, verticalTab));
      extra += <u32>popcnt(i8x16.bitmask(escaped)) + 4 * <u32>popcnt(i8x16.bitmask(v128.andnot(control, short)));
    }
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
