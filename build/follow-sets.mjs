// Fitting the prefilter's follow sets into the core's table (used by gen-rules.mjs).

/** Whether byte `c` is in a 256-bit set held as 32 bytes. */
const hasByte = (bits, c) => (bits[c >> 3] & (1 << (c & 7))) !== 0;

/** How many bytes a 256-bit set holds. */
function size(bits) {
  let n = 0;
  for (let b of bits) for (; b; b &= b - 1) n++;
  return n;
}

/**
 * The core reads a follow set's number from a byte, so the sets must number at most `max`. Past
 * that, the two sets holding the same `keep` bytes whose union adds the fewest bytes to the two are
 * merged into it, until they fit. A larger set only lets more positions through to the rules,
 * which decide, so the filter stays sound and loses the least. `keep`: bytes whose presence must
 * not change (quotes: the core changes to a key's quoted row at a quote that fails the set, and a
 * quote let through would keep it in the unquoted one).
 *
 * `sets`: 256-bit sets as arrays of 32 bytes. Returns the sets to store and, for each set given,
 * the number of the one that holds it; under `max`, the sets as given and numbers 0, 1, 2, ….
 * Deterministic: ties go to the first pair in order.
 */
export function mergeFollowSets(sets, max, keep) {
  const merged = sets.map((s) => [...s]);
  const active = sets.map((_, k) => k);
  const into = sets.map((_, k) => k);
  while (active.length > max) {
    let best = null;
    for (let x = 0; x < active.length; x++) {
      for (let y = x + 1; y < active.length; y++) {
        const a = merged[active[x]];
        const b = merged[active[y]];
        if (keep.some((c) => hasByte(a, c) !== hasByte(b, c))) continue;
        const union = a.map((v, k) => v | b[k]);
        const cost = 2 * size(union) - size(a) - size(b);
        if (best === null || cost < best.cost) best = { x, y, union, cost };
      }
    }
    if (best === null) throw new Error(`too many follow sets (${active.length}, at most ${max}) and no two alike in their kept bytes to merge`);
    const gone = active[best.y];
    merged[active[best.x]] = best.union;
    for (let k = 0; k < into.length; k++) if (into[k] === gone) into[k] = active[best.x];
    active.splice(best.y, 1);
  }
  const number = new Map(active.map((k, n) => [k, n]));
  return { sets: active.map((k) => merged[k]), numbers: into.map((k) => number.get(k)) };
}
