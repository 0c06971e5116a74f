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
    const n = utf8SequenceLength(ptr + i, len - i);
    if (n == 0) return -(<i32>i + 1);
    i += n;
    count++;
  }
  return count;
}

/**
 * Length in bytes (1 to 4) of the well-formed UTF-8 sequence at `p`, of which `avail` bytes are
 * there to read; 0 if it is malformed or cut short (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF). Shared by utf8Validate and the content gate's pass (text.ts).
 */
// @ts-ignore: decorator
@inline
export function utf8SequenceLength(p: usize, avail: usize): usize {
  const b0 = <u32>load<u8>(p);
  if (b0 < 0x80) return 1;
  if (b0 >= 0xc2 && b0 <= 0xdf) return avail >= 2 && cont(p + 1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    if (avail < 3) return 0;
    const b1 = <u32>load<u8>(p, 1);
    const lo: u32 = b0 == 0xe0 ? 0xa0 : 0x80;
    const hi: u32 = b0 == 0xed ? 0x9f : 0xbf;
    return b1 >= lo && b1 <= hi && cont(p + 2) ? 3 : 0;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    if (avail < 4) return 0;
    const b1 = <u32>load<u8>(p, 1);
    const lo: u32 = b0 == 0xf0 ? 0x90 : 0x80;
    const hi: u32 = b0 == 0xf4 ? 0x8f : 0xbf;
    return b1 >= lo && b1 <= hi && cont(p + 2) && cont(p + 3) ? 4 : 0;
  }
  return 0;
}

// @ts-ignore: decorator
@inline
function cont(p: usize): bool {
  return (<u32>load<u8>(p) & 0xc0) == 0x80;
}
