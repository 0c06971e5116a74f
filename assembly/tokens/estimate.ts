// ctxgate-est/1: the calibrated token estimator. Sum over the text's pieces of
// greedy count x calibrated ratio (by piece class and greedy count), plus the encoding's safety
// margin, in integer fixed point so every runtime gives the same number for the same text.
import { measurePiece, pieceIsBlobBytes, isBlobByte, BLOB_MIN_BYTES, BLOB_MIN_DIGITS } from './scan';
import { asciiPiece, windowPiece, nextPiece, nextPieceGeneral, pieceClass, ENC_O200K, ENC_CL100K, CLASS_BLOB } from './pieces';
import { HIGHS, blobLanes } from './lanes';
import { vocabFlag, isToken, countCached, pieceH1, PIECE_H1_SEED } from './greedy';
import { BUCKETS, ESTIMATOR_VERSION, O200K_RATIO, O200K_MARGIN, CL100K_RATIO, CL100K_MARGIN } from './calibration.generated';

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
  if (len == 0) return enc == ENC_O200K || enc == ENC_CL100K ? 0 : u32.MAX_VALUE;
  // One copy of the walk per encoding, each with its encoding folded in as a constant.
  if (enc == ENC_O200K) return estimateO200k(ptr, ptr + len);
  if (enc == ENC_CL100K) return estimateCl100k(ptr, ptr + len);
  return u32.MAX_VALUE;
}

function estimateO200k(ptr: usize, end: usize): u32 {
  return estimateWith(ptr, end, ENC_O200K);
}

function estimateCl100k(ptr: usize, end: usize): u32 {
  return estimateWith(ptr, end, ENC_CL100K);
}

/**
 * One walk over the pieces of [ptr, end), no piece list: the sum is exact integer arithmetic, so
 * adding as we go gives what scan.ts's list would.
 *
 * Every piece adds its value under its own class, except in a run of blob-alphabet pieces that is
 * a blob: at least BLOB_MIN_BYTES long with BLOB_MIN_DIGITS pieces that start with a digit (rare:
 * embedded data). Such a run lies in a stretch of at least BLOB_MIN_BYTES blob-alphabet bytes, so
 * the walk looks for those stretches first (a fast byte scan) and counts runs only in them
 * (estimateStretch); between them a piece adds its own value and nothing else.
 */
// @ts-ignore: decorator
@inline
function estimateWith(ptr: usize, end: usize, enc: i32): u32 {
  const o200k = enc == ENC_O200K;
  const ratio = o200k ? O200K_RATIO : CL100K_RATIO;
  const margin: u64 = o200k ? O200K_MARGIN : CL100K_MARGIN;
  const flag = vocabFlag(enc);
  let sum: u64 = 0;
  let i = ptr;
  while (i < end) {
    // Pieces before the next stretch: a run there is too short to be a blob. The piece that
    // reaches into the stretch holds the byte before it, which is no blob byte: not blob alphabet.
    const stretch = findStretch(i, end);
    while (i < stretch) {
      let r = windowPiece(i, end, o200k);
      let e: usize;
      let cls: i32;
      if (r == 0) r = asciiPiece(i, end, o200k);
      if (r != 0) {
        e = <usize>(<u32>r);
        cls = <i32>(r >>> 32);
      } else {
        e = nextPieceGeneral(i, end, enc);
        cls = pieceClass;
      }
      const len = e - i;
      let g: u32;
      if (len <= SHORT_MAX && i + 8 <= end) {
        // Short pieces (and their first eight bytes lie inside the text) through the memo below.
        const key = load<u64>(i) & (<u64>-1 >>> (<u64>(8 - len) << 3));
        const slot = shortSlot(key, len, enc);
        const tag = <u32>len | SHORT_VALID;
        let meta = load<u32>(slot, 12);
        if (load<u64>(slot) != key || (meta & SHORT_TAG_MASK) != tag) meta = shortFill(i, e, key, slot, tag, flag);
        g = (meta & SHORT_TOKEN) != 0 ? 1 : countCached(i, e, load<u32>(slot, 8), flag, true);
      } else {
        g = measurePiece(i, e, flag);
      }
      const col = <usize>(g < BUCKETS ? g : BUCKETS - 1);
      sum += <u64>g * <u64>load<u32>(ratio + ((<usize>(<u32>cls * BUCKETS) + col) << 2));
      i = e;
    }
    if (i < end) {
      sum += estimateStretch(i, stretchEnd, end, enc);
      i = stretchNext;
    }
  }
  // 16.16 sum x 16.16 (1 + margin), rounded to nearest; a non-empty text is at least one token.
  const t = <u32>((sum * (65536 + margin) + (<u64>1 << 31)) >> 32);
  return t == 0 ? 1 : t;
}

// End of the stretch found by the last findStretch.
let stretchEnd: usize = 0;
// Where the walk goes on after the last estimateStretch.
let stretchNext: usize = 0;

/**
 * Start of the first stretch of at least BLOB_MIN_BYTES blob-alphabet bytes in [p, end) (counted
 * from p: what precedes p is no part of it), or `end`; sets stretchEnd. Such a stretch holds a
 * whole aligned block of STRETCH_BLOCK bytes, so only blocks are tested, eight bytes at a time and
 * most only once (code leaves the alphabet every few bytes); a block of blob bytes is then widened
 * to its stretch.
 */
function findStretch(p: usize, end: usize): usize {
  const from = p;
  let block = (p + STRETCH_BLOCK - 1) & ~(STRETCH_BLOCK - 1);
  while (block + STRETCH_BLOCK <= end) {
    let q = block;
    while (q < block + STRETCH_BLOCK && blobLanes(load<u64>(q)) == HIGHS) q += 8;
    if (q == block + STRETCH_BLOCK) {
      // Widen back to `from` or a byte outside the alphabet, and forward likewise.
      let s = block;
      while (s > from && isBlobByte(<u32>load<u8>(s - 1))) s--;
      while (q < end && isBlobByte(<u32>load<u8>(q))) q++;
      if (q - s >= BLOB_MIN_BYTES) {
        stretchEnd = q;
        return s;
      }
    }
    // The next block that may be all blob bytes: the one after the block holding q (a byte outside
    // the alphabet, or the end of a stretch too short).
    block = (q + STRETCH_BLOCK) & ~(STRETCH_BLOCK - 1);
  }
  stretchEnd = end;
  return end;
}

// Any BLOB_MIN_BYTES consecutive bytes hold a whole aligned block of this many (2 x 32 - 1 <= 64).
const STRETCH_BLOCK: usize = 32;

/**
 * Sum of the pieces from `i` (a piece boundary, with no run open) through the one that holds the
 * byte at stretchEnd (no blob byte: that piece closes any run), with runs counted as the piece list
 * of scan.ts counts them: a blob piece extends the open run, any other piece closes it, and a closed
 * run that is a blob counts its pieces as CLASS_BLOB. Sets stretchNext to where the walk goes on.
 */
function estimateStretch(i: usize, stretchEnd: usize, end: usize, enc: i32): u64 {
  const ratio = enc == ENC_O200K ? O200K_RATIO : CL100K_RATIO;
  const blobRow = ratio + ((<usize>(<u32>CLASS_BLOB * BUCKETS)) << 2);
  const flag = vocabFlag(enc);
  let sum: u64 = 0;
  let runOwn: u64 = 0;
  let runBlob: u64 = 0;
  let runBytes: usize = 0;
  let runDigits: u32 = 0;
  while (i < end && i <= stretchEnd) {
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
  stretchNext = i;
  return sum;
}

/**
 * Fills the memo slot of the short piece [p, e) (its bytes `key`): hashes the bytes and looks the
 * hash up; returns the slot's new meta word.
 */
function shortFill(p: usize, e: usize, key: u64, slot: usize, tag: u32, flag: u32): u32 {
  let h1 = PIECE_H1_SEED;
  for (let q = p; q < e; q++) h1 = pieceH1(h1, <u32>load<u8>(q));
  // One byte is one token without a lookup (countHashed).
  const meta = tag | (e - p == 1 || isToken(h1, flag) ? SHORT_TOKEN : 0);
  store<u64>(slot, key);
  store<u32>(slot, h1, 8);
  store<u32>(slot, meta, 12);
  return meta;
}

// A memo of short pieces (up to 8 bytes: most of every text): the piece's bytes as a u64 (the
// exact key, no hash to collide), its FNV-1a hash h1 and whether it is one token (isToken(h1), a
// function of h1 alone; a single byte always is). A hit skips hashing the bytes and the vocabulary
// lookup, a read of a table too large for the nearest caches. The memo holds only what computing
// gives, so hits and misses (and the order of texts) cannot change an estimate; pieces that are
// several tokens still go through countCached, which sees the same calls as without the memo.
const SHORT_MAX: usize = 8;
const SHORT_LOG2: u32 = 12;
const SHORT_VALID: u32 = 0x100;
const SHORT_TAG_MASK: u32 = 0x1ff;
const SHORT_TOKEN: u32 = 0x200;
// 16 bytes per slot (key, h1, meta; meta 0 = empty), one table per encoding (zeroed memory, not
// in the binary).
const shortMemo = memory.data(32 << SHORT_LOG2);

// @ts-ignore: decorator
@inline
function shortSlot(key: u64, len: usize, enc: i32): usize {
  const x = (key + <u64>len) * 0x9e3779b97f4a7c15;
  return shortMemo + (<usize>enc << (SHORT_LOG2 + 4)) + (<usize>(x >>> (64 - SHORT_LOG2)) << 4);
}
