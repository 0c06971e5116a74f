// Deterministic, stable sort of context blocks (spec 001, INV-CONTEXT-1): by a 32-bit group
// (priority, then block-type rank, packed by the host), then by key bytes compared bytewise as
// unsigned (UTF-8 order, which is code point order), then by input position. Bottom-up merge sort
// on indices: O(n log n) comparisons, no recursion, stable by construction.
import { outReserve } from './io';

// Per-item scratch laid out as parallel arrays: group u32, key prefix u64 (first 8 bytes,
// big-endian, zero padded), key offset u32, key length u32.
let groups: usize = 0;
let prefixes: usize = 0;
let offsets: usize = 0;
let lengths: usize = 0;
let keyBase: usize = 0;

// @ts-ignore: decorator
@inline
function compare(i: u32, j: u32): i32 {
  const gi = load<u32>(groups + (<usize>i << 2));
  const gj = load<u32>(groups + (<usize>j << 2));
  if (gi != gj) return gi < gj ? -1 : 1;
  const pi = load<u64>(prefixes + (<usize>i << 3));
  const pj = load<u64>(prefixes + (<usize>j << 3));
  if (pi != pj) return pi < pj ? -1 : 1;
  const li = load<u32>(lengths + (<usize>i << 2));
  const lj = load<u32>(lengths + (<usize>j << 2));
  if (li > 8 && lj > 8) {
    const n = min<u32>(li, lj) - 8;
    const c = memory.compare(
      keyBase + <usize>load<u32>(offsets + (<usize>i << 2)) + 8,
      keyBase + <usize>load<u32>(offsets + (<usize>j << 2)) + 8,
      <usize>n,
    );
    if (c != 0) return c;
  }
  if (li != lj) return li < lj ? -1 : 1;
  // Equal keys keep their input order.
  return i < j ? -1 : i > j ? 1 : 0;
}

/**
 * Sorts `count` items. `meta` holds `count` records of three u32: group, key offset and key length
 * (offsets relative to `keys`). Writes the sorted permutation (`count` u32 input indices) to the
 * output window.
 */
export function sortBlocks(meta: usize, keys: usize, count: u32): void {
  const n = <usize>count;
  const out = outReserve(n << 2);
  if (n == 0) return;
  groups = heap.alloc(n << 2);
  prefixes = heap.alloc(n << 3);
  offsets = heap.alloc(n << 2);
  lengths = heap.alloc(n << 2);
  keyBase = keys;
  let tmp = heap.alloc(n << 2);
  for (let k: usize = 0; k < n; k++) {
    const rec = meta + k * 12;
    store<u32>(groups + (k << 2), load<u32>(rec));
    const off = load<u32>(rec, 4);
    const len = load<u32>(rec, 8);
    store<u32>(offsets + (k << 2), off);
    store<u32>(lengths + (k << 2), len);
    let prefix: u64 = 0;
    const take = min<u32>(len, 8);
    const p = keys + <usize>off;
    for (let b: u32 = 0; b < 8; b++) {
      prefix = (prefix << 8) | (b < take ? <u64>load<u8>(p + <usize>b) : 0);
    }
    store<u64>(prefixes + (k << 3), prefix);
    store<u32>(out + (k << 2), <u32>k);
  }
  // Bottom-up merge: runs of width w from `src` into `dst`, swapping the two each pass.
  let src = out;
  let dst = tmp;
  for (let w: usize = 1; w < n; w <<= 1) {
    for (let lo: usize = 0; lo < n; lo += w << 1) {
      const mid = min<usize>(lo + w, n);
      const hi = min<usize>(lo + (w << 1), n);
      let a = lo;
      let b = mid;
      let o = lo;
      // Already ordered runs are copied without comparisons.
      if (mid < hi && compare(load<u32>(src + ((mid - 1) << 2)), load<u32>(src + (mid << 2))) <= 0) {
        memory.copy(dst + (lo << 2), src + (lo << 2), (hi - lo) << 2);
        continue;
      }
      while (a < mid && b < hi) {
        const x = load<u32>(src + (a << 2));
        const y = load<u32>(src + (b << 2));
        if (compare(x, y) <= 0) {
          store<u32>(dst + (o << 2), x);
          a++;
        } else {
          store<u32>(dst + (o << 2), y);
          b++;
        }
        o++;
      }
      if (a < mid) memory.copy(dst + (o << 2), src + (a << 2), (mid - a) << 2);
      else if (b < hi) memory.copy(dst + (o << 2), src + (b << 2), (hi - b) << 2);
    }
    const t = src;
    src = dst;
    dst = t;
  }
  if (src != out) memory.copy(out, src, n << 2);
  heap.free(groups);
  heap.free(prefixes);
  heap.free(offsets);
  heap.free(lengths);
  heap.free(tmp);
}
