// SWAR on ASCII: the eight bytes of a u64 as lanes, a class of bytes as a mask with bit 7 of each
// lane that holds a byte of the class. One load and a few operations classify eight bytes, and the
// first lane of a mask (ctz) ends a run without a branch per byte.

export const ONES: u64 = 0x0101010101010101;
export const HIGHS: u64 = 0x8080808080808080;
export const LOWS7: u64 = 0x7f7f7f7f7f7f7f7f;
/** OR-ed into ASCII bytes, folds upper case onto lower case and maps no other byte onto a letter. */
export const CASE: u64 = 0x2020202020202020;

/** Lanes of `w` holding an ASCII byte in [lo, hi]; bytes of 0x80 and above are in no class. */
// @ts-ignore: decorator
@inline
export function inRange(w: u64, lo: u64, hi: u64): u64 {
  const x = w & LOWS7;
  return (x + (0x80 - lo) * ONES) & ~(x + (0x7f - hi) * ONES) & ~w & HIGHS;
}

/** Lanes of `w` equal to the byte `c`. */
// @ts-ignore: decorator
@inline
export function eqLanes(w: u64, c: u64): u64 {
  const v = w ^ (c * ONES);
  return ~(((v & LOWS7) + LOWS7) | v | LOWS7);
}

/** Byte offset of the first lane set in `m`; 8 when none is. */
// @ts-ignore: decorator
@inline
export function firstLane(m: u64): usize {
  return <usize>(ctz(m) >>> 3);
}

/** Mask of the lanes from `k` (below 8) on. */
// @ts-ignore: decorator
@inline
export function lanesFrom(k: usize): u64 {
  return HIGHS << (<u64>k << 3);
}

/** Lanes of `w` in the blob alphabet `0-9A-Za-z+/=` (scan.ts). */
// @ts-ignore: decorator
@inline
export function blobLanes(w: u64): u64 {
  return inRange(w | CASE, 0x61, 0x7a) | inRange(w, 0x2f, 0x39) | eqLanes(w, 0x2b) | eqLanes(w, 0x3d);
}
