// Reference build of ctxgate-est/1 as it was before the single-pass rewrite: a frozen copy of
// assembly/tokens/{chars,pieces,scan,greedy,estimate}.ts, stored as .as files so tsc skips them,
// sharing the generated tables. Compiled only by test/tokens/estimate-differential.test.ts to
// check that the shipped core gives the same estimate for every text. Do not edit: it is the
// definition the new code must match.
export { tokensEstimate } from './estimate';

let inPtr: usize = 0;
let inCap: usize = 0;

/** An input window of at least `len` bytes. */
export function refInput(len: usize): usize {
  if (len > inCap) {
    if (inPtr != 0) heap.free(inPtr);
    inCap = len < 65536 ? 65536 : len;
    inPtr = heap.alloc(inCap);
  }
  return inPtr;
}
