// What the content gate needs to know about a file's bytes, in one pass over them: whether they are
// well-formed UTF-8 (and whether any byte is non-ASCII), whether there is a NUL, how many UTF-16
// code units they decode to, how many of those are control characters the gate counts against text,
// and how many newlines there are. The host's reference is src/secrets/content.ts (a native decode
// plus a regex scan of the decoded string); this pass gives the same decisions without decoding,
// and a differential test holds the two together.
//
// Control characters, as the gate counts them (on code points of the decoded text): U+0000-0008,
// U+000E-001A, U+001C-001F, U+007F-009F and U+FFFD. Tab, LF, VT, FF, CR and ESC are text.
import { utf8SequenceLength } from './checksum';
import { outReserve } from './io';

/** Result word 0: the bytes are well-formed UTF-8 with no NUL. */
const VALID: u32 = 0;
/** Result word 0: a malformed sequence (the host decides such bytes itself: windows-1252 or not). */
const INVALID: u32 = 1;
/** Result word 0: a NUL byte (binary whatever else is there). */
const HAS_NUL: u32 = 2;

/**
 * Classifies `len` bytes at `ptr` and writes five u32 words to the output window: status (0 valid,
 * 1 malformed, 2 NUL; the other words are only meaningful for 0), UTF-16 length, control
 * characters, newlines, and 1 when any byte is 0x80 or above. Returns the status.
 *
 * Blocks of sixteen ASCII bytes are handled with SIMD compares; a block holding a non-ASCII byte is
 * walked sequence by sequence, and the SIMD loop resumes wherever that walk ends.
 */
export function textFacts(ptr: usize, len: usize): u32 {
  const out = outReserve(20);
  let units: u32 = 0;
  let controls: u32 = 0;
  let newlines: u32 = 0;
  let high: u32 = 0;
  const lf = i8x16.splat(0x0a);
  const space = i8x16.splat(0x20);
  const tab = i8x16.splat(0x09);
  const five = i8x16.splat(5);
  const esc = i8x16.splat(0x1b);
  const del = i8x16.splat(0x7f);
  const zero = i8x16.splat(0);
  let i: usize = 0;
  while (i < len) {
    if (i + 16 <= len) {
      const v = v128.load(ptr + i);
      if (i8x16.bitmask(v) == 0) {
        // Below 0x20 and not tab..CR (v - 9 < 5 unsigned) and not ESC, or DEL.
        const low = v128.andnot(v128.andnot(i8x16.lt_u(v, space), i8x16.lt_u(i8x16.sub(v, tab), five)), i8x16.eq(v, esc));
        const ctrl = v128.or(low, i8x16.eq(v, del));
        if (i8x16.bitmask(i8x16.eq(v, zero)) != 0) return finish(out, HAS_NUL, 0, 0, 0, 0);
        controls += <u32>popcnt(i8x16.bitmask(ctrl));
        newlines += <u32>popcnt(i8x16.bitmask(i8x16.eq(v, lf)));
        units += 16;
        i += 16;
        continue;
      }
    }
    // One code point at a time to the end of this block (and past it for a sequence that crosses).
    const stop = min(len, i + 16);
    while (i < stop) {
      const b0 = <u32>load<u8>(ptr + i);
      if (b0 < 0x80) {
        if (b0 == 0) return finish(out, HAS_NUL, 0, 0, 0, 0);
        if (b0 == 0x0a) newlines++;
        else if ((b0 < 0x20 && b0 - 9 >= 5 && b0 != 0x1b) || b0 == 0x7f) controls++;
        units++;
        i++;
        continue;
      }
      high = 1;
      const n = utf8SequenceLength(ptr + i, len - i);
      if (n == 0) return finish(out, INVALID, 0, 0, 0, 0);
      // U+0080..U+009F (C1 controls) are C2 80 .. C2 9F; U+FFFD is EF BF BD.
      if (n == 2) {
        if (b0 == 0xc2 && <u32>load<u8>(ptr + i, 1) <= 0x9f) controls++;
      } else if (n == 3) {
        if (b0 == 0xef && <u32>load<u8>(ptr + i, 1) == 0xbf && <u32>load<u8>(ptr + i, 2) == 0xbd) controls++;
      }
      units += n == 4 ? 2 : 1; // a 4-byte sequence is a surrogate pair
      i += n;
    }
  }
  return finish(out, VALID, units, controls, newlines, high);
}

function finish(out: usize, status: u32, units: u32, controls: u32, newlines: u32, high: u32): u32 {
  store<u32>(out, status);
  store<u32>(out, units, 4);
  store<u32>(out, controls, 8);
  store<u32>(out, newlines, 12);
  store<u32>(out, high, 16);
  return status;
}
