// FROZEN REFERENCE (test only): ctxgate-est/1 as first shipped, before the single-pass rewrite.
// See entry.as. Do not edit.
// ctxgate-est/1: the calibrated token estimator. Sum over the text's pieces of
// greedy count x calibrated ratio (by piece class and greedy count), plus the encoding's safety
// margin, in integer fixed point so every runtime gives the same number for the same text.
import { scanPieces, pieceList, PIECE_BYTES } from './scan';
import { ENC_O200K, ENC_CL100K } from './pieces';
import { BUCKETS, ESTIMATOR_VERSION, O200K_RATIO, O200K_MARGIN, CL100K_RATIO, CL100K_MARGIN } from '../../../assembly/tokens/calibration.generated';

/** Version of the estimator model (the `1` of `ctxgate-est/1`). */
export function tokensEstimatorVersion(): u32 {
  return ESTIMATOR_VERSION;
}

/**
 * Estimated token count of the UTF-8 text [ptr, ptr+len) for encoding family `enc`
 * (0 = o200k_base, 1 = cl100k_base). Returns 0 for empty text and u32.MAX_VALUE for an unknown
 * encoding (the host validates first).
 */
export function tokensEstimate(ptr: usize, len: usize, enc: i32): u32 {
  if (enc != ENC_O200K && enc != ENC_CL100K) return u32.MAX_VALUE;
  if (len == 0) return 0;
  const ratio = enc == ENC_O200K ? O200K_RATIO : CL100K_RATIO;
  const margin: u64 = enc == ENC_O200K ? O200K_MARGIN : CL100K_MARGIN;
  const n = scanPieces(ptr, len, enc);
  const list = pieceList();
  let sum: u64 = 0;
  for (let q = list, end = list + <usize>n * PIECE_BYTES; q < end; q += PIECE_BYTES) {
    const cls = load<u32>(q, 8);
    const g = load<u32>(q, 12);
    const b = g < BUCKETS ? g : BUCKETS - 1;
    sum += <u64>g * <u64>load<u32>(ratio + ((<usize>(cls * BUCKETS + b)) << 2));
  }
  // 16.16 sum x 16.16 (1 + margin), rounded to nearest; a non-empty text is at least one token.
  const t = <u32>((sum * (65536 + margin) + (<u64>1 << 31)) >> 32);
  return t == 0 ? 1 : t;
}
