// ctxgate-est/1: the calibrated token estimator. Sum over the text's pieces of
// greedy count x calibrated ratio (by piece class and greedy count), plus the encoding's safety
// margin, in integer fixed point so every runtime gives the same number for the same text.
import { measurePiece, pieceIsBlobBytes, BLOB_MIN_BYTES, BLOB_MIN_DIGITS } from './scan';
import { nextPiece, pieceClass, ENC_O200K, ENC_CL100K, CLASS_BLOB } from './pieces';
import { vocabFlag } from './greedy';
import { BUCKETS, ESTIMATOR_VERSION, O200K_RATIO, O200K_MARGIN, CL100K_RATIO, CL100K_MARGIN } from './calibration.generated';

/** Version of the estimator model (the `1` of `ctxgate-est/1`). */
export function tokensEstimatorVersion(): u32 {
  return ESTIMATOR_VERSION;
}

/**
 * Estimated token count of the UTF-8 text [ptr, ptr+len) for encoding family `enc`
 * (0 = o200k_base, 1 = cl100k_base). Returns 0 for empty text and u32.MAX_VALUE for an unknown
 * encoding (the host validates first).
 *
 * One walk over the pieces, no piece list: the sum is exact integer arithmetic, so adding as we go
 * gives what scan.ts's list would. A run of blob-alphabet pieces is only known to be a blob when it
 * ends, so the run is summed both ways (its own classes, and the blob class) until then.
 */
export function tokensEstimate(ptr: usize, len: usize, enc: i32): u32 {
  if (enc != ENC_O200K && enc != ENC_CL100K) return u32.MAX_VALUE;
  if (len == 0) return 0;
  const ratio = enc == ENC_O200K ? O200K_RATIO : CL100K_RATIO;
  const blobRow = ratio + ((<usize>(<u32>CLASS_BLOB * BUCKETS)) << 2);
  const margin: u64 = enc == ENC_O200K ? O200K_MARGIN : CL100K_MARGIN;
  const flag = vocabFlag(enc);
  const end = ptr + len;
  let sum: u64 = 0;
  // The open run of blob-alphabet pieces: its sum under the pieces' classes, under CLASS_BLOB, its
  // bytes and how many of its pieces start with a digit.
  let runOwn: u64 = 0;
  let runBlob: u64 = 0;
  let runBytes: usize = 0;
  let runDigits: u32 = 0;
  let i = ptr;
  while (i < end) {
    const e = nextPiece(i, end, enc);
    const g = measurePiece(i, e, flag);
    const col = <usize>(g < BUCKETS ? g : BUCKETS - 1);
    const own = <u64>g * <u64>load<u32>(ratio + ((<usize>(<u32>pieceClass * BUCKETS) + col) << 2));
    if (pieceIsBlobBytes) {
      runOwn += own;
      runBlob += <u64>g * <u64>load<u32>(blobRow + (col << 2));
      runBytes += e - i;
      const b0 = <u32>load<u8>(i);
      if (b0 >= 0x30 && b0 <= 0x39) runDigits++;
    } else {
      sum += runBytes < BLOB_MIN_BYTES || runDigits < BLOB_MIN_DIGITS ? runOwn : runBlob;
      sum += own;
      runOwn = 0;
      runBlob = 0;
      runBytes = 0;
      runDigits = 0;
    }
    i = e;
  }
  sum += runBytes < BLOB_MIN_BYTES || runDigits < BLOB_MIN_DIGITS ? runOwn : runBlob;
  // 16.16 sum x 16.16 (1 + margin), rounded to nearest; a non-empty text is at least one token.
  const t = <u32>((sum * (65536 + margin) + (<u64>1 << 31)) >> 32);
  return t == 0 ? 1 : t;
}
