// One pass over a text: its pieces, each with a class and a greedy token count. The estimator
// (estimate.ts) sums as it walks; the build-time calibration entry takes the same pieces as a list.
// This list goes through nextPiece and measurePiece; the estimator calls the parts of nextPiece
// (windowPiece, asciiPiece, nextPieceGeneral) in the same order and reads counts through a memo
// of what measurePiece computes, so both see exactly the same pieces, classes and counts.
import { nextPiece, pieceClass, CLASS_BLOB } from './pieces';
import { countHashed, pieceH1, vocabFlag, PIECE_H1_SEED } from './greedy';

/** Bytes per piece in the list: start, end, class, greedy count (u32 each). */
export const PIECE_BYTES: usize = 16;
/** A run of base64/hex alphabet at least this long (no spaces or other punctuation) is a blob. */
export const BLOB_MIN_BYTES: usize = 64;
/** A blob run must also hold at least this many pieces that start with a digit. */
export const BLOB_MIN_DIGITS: u32 = 4;

// 1 for the bytes of the base64/hex alphabet (`0-9A-Za-z+/=`), else 0.
const BLOB_BYTE: usize = memory.data<u8>([
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 0, 0,
  0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
  0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
  0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
]);

/** Whether byte `b` is in the blob alphabet. */
// @ts-ignore: decorator
@inline
export function isBlobByte(b: u32): bool {
  return load<u8>(BLOB_BYTE + b) != 0;
}

/** Whether every byte of the piece read by the last {@link measurePiece} is in the blob alphabet. */
export let pieceIsBlobBytes: bool = false;

/**
 * Greedy token count of the piece [p, e) (e > p), reading its bytes once: the same pass hashes
 * them for the vocabulary and checks them against the blob alphabet ({@link pieceIsBlobBytes}).
 */
// @ts-ignore: decorator
@inline
export function measurePiece(p: usize, e: usize, flag: u32): u32 {
  let h1 = PIECE_H1_SEED;
  let blob: u32 = 1;
  for (let q = p; q < e; q++) {
    const b = <u32>load<u8>(q);
    blob &= <u32>load<u8>(BLOB_BYTE + b);
    h1 = pieceH1(h1, b);
  }
  pieceIsBlobBytes = blob != 0;
  return countHashed(p, e, h1, flag);
}

let list: usize = 0;
let listCap: usize = 0;

/** Relabels the pieces [from, to) of the list as blob pieces when their bytes form a long run. */
function closeRun(from: u32, to: u32, digits: u32): void {
  if (to <= from) return;
  const a = list + <usize>from * PIECE_BYTES;
  const b = list + <usize>(to - 1) * PIECE_BYTES;
  const bytes = <usize>(load<u32>(b, 4) - load<u32>(a));
  if (bytes < BLOB_MIN_BYTES || digits < BLOB_MIN_DIGITS) return;
  for (let q = a; q <= b; q += PIECE_BYTES) store<u32>(q, <u32>CLASS_BLOB, 8);
}

/**
 * Splits [ptr, ptr+len) into pieces; returns their number. The list (see {@link pieceList}) holds
 * base-relative offsets, the class and the greedy count of each piece. Calibration only: the
 * estimator makes the same walk without keeping a list.
 */
export function scanPieces(ptr: usize, len: usize, enc: i32): u32 {
  const need = (len + 1) * PIECE_BYTES;
  if (need > listCap) {
    if (list != 0) heap.free(list);
    let cap: usize = listCap < 65536 ? 65536 : listCap;
    while (cap < need) cap <<= 1;
    list = heap.alloc(cap);
    listCap = cap;
  }
  const end = ptr + len;
  const flag = vocabFlag(enc);
  let i = ptr;
  let n: u32 = 0;
  let runStart: u32 = 0;
  let runDigits: u32 = 0;
  while (i < end) {
    const e = nextPiece(i, end, enc);
    const q = list + <usize>n * PIECE_BYTES;
    store<u32>(q, <u32>(i - ptr));
    store<u32>(q, <u32>(e - ptr), 4);
    store<u32>(q, <u32>pieceClass, 8);
    store<u32>(q, measurePiece(i, e, flag), 12);
    if (pieceIsBlobBytes) {
      const b0 = <u32>load<u8>(i);
      if (b0 >= 0x30 && b0 <= 0x39) runDigits++;
    } else {
      closeRun(runStart, n, runDigits);
      runStart = n + 1;
      runDigits = 0;
    }
    n++;
    i = e;
  }
  closeRun(runStart, n, runDigits);
  return n;
}

/** Address of the piece list filled by the last {@link scanPieces}. */
export function pieceList(): usize {
  return list;
}
