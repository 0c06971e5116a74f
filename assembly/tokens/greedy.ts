// Vocabulary membership and the greedy longest-match count that stands in for BPE merges.
//
// Each encoding's vocabulary is a three-probe Bloom filter over FNV-1a hashes of token bytes
// (vocab.generated.ts). Greedy longest-prefix matching against the vocabulary lands close to what
// byte-pair merging produces; the calibration tables correct what is left, per piece class.
// Prefixes are tried only at character boundaries and the search stops after a few misses in a
// row: that keeps Bloom false positives (which would make tokens too long) rare.

/** Longest token prefix tried, in bytes. Longer tokens (long runs of spaces or `=`) count as several. */
export const MAX_TOKEN_BYTES: usize = 32;
/** Consecutive character-boundary misses after which no longer token is looked for. */
const MAX_MISSES: i32 = 4;

// @ts-ignore: decorator
@inline
function bit(bits: usize, i: u32): u32 {
  return <u32>load<u8>(bits + (i >>> 3)) >>> (i & 7);
}

// @ts-ignore: decorator
@inline
function probe(bits: usize, h: u32, shift: u32, mask: u32): bool {
  return (bit(bits, h & mask) & bit(bits, (h * 0x9e3779b1) >>> shift) & bit(bits, (h * 0x85ebca6b) >>> shift) & 1) != 0;
}

/**
 * Number of tokens greedy longest-match gives for the bytes [p, e), against the Bloom filter at
 * `bits` with 2^`log2` bits. Single bytes are always tokens.
 */
export function greedyCount(p: usize, e: usize, bits: usize, log2: u32): u32 {
  const mask: u32 = (<u32>1 << log2) - 1;
  const shift: u32 = 32 - log2;
  let n: u32 = 0;
  while (p < e) {
    let lim = e - p;
    if (lim > MAX_TOKEN_BYTES) lim = MAX_TOKEN_BYTES;
    let h: u32 = 0x811c9dc5;
    let best: usize = 1;
    let misses = 0;
    for (let k: usize = 0; k < lim; k++) {
      h = (h ^ <u32>load<u8>(p + k)) * 0x01000193;
      // Only prefixes that end on a character boundary.
      if (k + 1 < e - p && (<u32>load<u8>(p + k + 1) & 0xc0) == 0x80) continue;
      if (k == 0) continue;
      if (probe(bits, h, shift, mask)) {
        best = k + 1;
        misses = 0;
      } else if (++misses >= MAX_MISSES) break;
    }
    p += best;
    n++;
  }
  return n;
}
