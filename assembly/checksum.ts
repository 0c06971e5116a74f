// Byte-level primitives used to prove the host <-> core path and by the store's record checks.

// CRC-32 (IEEE 802.3, reflected polynomial 0xEDB88320) lookup table, built once at start-up.
const CRC_TABLE: StaticArray<u32> = new StaticArray<u32>(256);
for (let n: u32 = 0; n < 256; n++) {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  unchecked((CRC_TABLE[n] = c));
}

/** CRC-32 of `len` bytes at `ptr`, continuing from `seed` (0 to start). */
export function crc32(ptr: usize, len: usize, seed: u32): u32 {
  let c = ~seed;
  const end = ptr + len;
  for (let p = ptr; p < end; p++) {
    c = unchecked(CRC_TABLE[(c ^ load<u8>(p)) & 0xff]) ^ (c >>> 8);
  }
  return ~c;
}

/**
 * Validates UTF-8 (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF).
 * Returns the number of code points, or -(offset + 1) of the first invalid sequence.
 */
export function utf8Validate(ptr: usize, len: usize): i32 {
  let i: usize = 0;
  let count: i32 = 0;
  while (i < len) {
    const b0 = <u32>load<u8>(ptr + i);
    if (b0 < 0x80) {
      i++;
    } else if (b0 >= 0xc2 && b0 <= 0xdf) {
      if (i + 1 >= len || !cont(ptr + i + 1)) return -(<i32>i + 1);
      i += 2;
    } else if (b0 >= 0xe0 && b0 <= 0xef) {
      if (i + 2 >= len) return -(<i32>i + 1);
      const b1 = <u32>load<u8>(ptr + i + 1);
      const lo: u32 = b0 == 0xe0 ? 0xa0 : 0x80;
      const hi: u32 = b0 == 0xed ? 0x9f : 0xbf;
      if (b1 < lo || b1 > hi || !cont(ptr + i + 2)) return -(<i32>i + 1);
      i += 3;
    } else if (b0 >= 0xf0 && b0 <= 0xf4) {
      if (i + 3 >= len) return -(<i32>i + 1);
      const b1 = <u32>load<u8>(ptr + i + 1);
      const lo: u32 = b0 == 0xf0 ? 0x90 : 0x80;
      const hi: u32 = b0 == 0xf4 ? 0x8f : 0xbf;
      if (b1 < lo || b1 > hi || !cont(ptr + i + 2) || !cont(ptr + i + 3)) return -(<i32>i + 1);
      i += 4;
    } else {
      return -(<i32>i + 1);
    }
    count++;
  }
  return count;
}

// @ts-ignore: decorator
@inline
function cont(p: usize): bool {
  return (<u32>load<u8>(p) & 0xc0) == 0x80;
}
