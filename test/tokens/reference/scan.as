// FROZEN REFERENCE (test only): ctxgate-est/1 as first shipped, before the single-pass rewrite.
// See entry.as. Do not edit.
// One pass over a text: its pieces, each with a class and a greedy token count, in a reusable
// scratch list. Shared by the estimator and the build-time calibration entry so both see exactly
// the same pieces and classes.
import { nextPiece, pieceClass, CLASS_BLOB } from './pieces';
import { pieceCount, vocabFlag } from './greedy';

/** Bytes per piece in the list: start, end, class, greedy count (u32 each). */
export const PIECE_BYTES: usize = 16;
/** A run of base64/hex alphabet at least this long (no spaces or other punctuation) is a blob. */
const BLOB_MIN_BYTES: usize = 64;

let list: usize = 0;
let listCap: usize = 0;

// @ts-ignore: decorator
@inline
function isBlobByte(b: u32): bool {
  return (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7a) || b == 0x2b || b == 0x2f || b == 0x3d;
}

function allBlobBytes(p: usize, e: usize): bool {
  for (; p < e; p++) if (!isBlobByte(<u32>load<u8>(p))) return false;
  return true;
}

/** Relabels the pieces [from, to) of the list as blob pieces when their bytes form a long run. */
function closeRun(from: u32, to: u32, digits: u32): void {
  if (to <= from) return;
  const a = list + <usize>from * PIECE_BYTES;
  const b = list + <usize>(to - 1) * PIECE_BYTES;
  const bytes = <usize>(load<u32>(b, 4) - load<u32>(a));
  if (bytes < BLOB_MIN_BYTES || digits < 4) return;
  for (let q = a; q <= b; q += PIECE_BYTES) store<u32>(q, <u32>CLASS_BLOB, 8);
}

/**
 * Splits [ptr, ptr+len) into pieces; returns their number. The list (see {@link pieceList}) holds
 * base-relative offsets, the class and the greedy count of each piece.
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
    store<u32>(q, pieceCount(i, e, flag), 12);
    if (allBlobBytes(i, e)) {
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
