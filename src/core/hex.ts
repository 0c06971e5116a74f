const HEX: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** Lowercase hex of bytes `[start, end)`. */
export function toHex(bytes: Uint8Array, start = 0, end = bytes.length): string {
  let out = '';
  for (let i = start; i < end; i++) out += HEX[bytes[i]!];
  return out;
}

// Byte i's two ASCII hex digits as one u16 in memory order, so a Uint16Array of them decodes as text
// on any endianness.
const PAIRS = new Uint16Array(256);
{
  const chars = new Uint8Array(PAIRS.buffer);
  for (let i = 0; i < 256; i++) {
    chars[2 * i] = HEX[i]!.charCodeAt(0);
    chars[2 * i + 1] = HEX[i]!.charCodeAt(1);
  }
}
const ascii = new TextDecoder();

/**
 * Lowercase hex of `count` consecutive `width`-byte records of `bytes` (a batch of digests), one
 * string each. One text decode and slices instead of a string built per byte: for thousands of
 * digests, concatenation costs more than hashing them.
 */
export function toHexRecords(bytes: Uint8Array, count: number, width: number): string[] {
  const n = count * width;
  const chars = new Uint16Array(n);
  for (let i = 0; i < n; i++) chars[i] = PAIRS[bytes[i]!]!;
  const all = ascii.decode(chars);
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) out[i] = all.slice(i * 2 * width, (i + 1) * 2 * width);
  return out;
}
