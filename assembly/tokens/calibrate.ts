// Build-time entry (not part of the shipped core): exposes the pieces, classes and greedy counts
// so build/gen-calibration.mjs can pair each piece with its exact token count.
import { outReserve } from '../io';
import { scanPieces, pieceList, PIECE_BYTES } from './scan';

export { ioInput, ioOutput, ioOutputLen } from '../io';

/**
 * Writes 4 u32 per piece (start, end, class, greedy count) of [ptr, ptr+len) to the output
 * window; returns the number of pieces.
 */
export function calScan(ptr: usize, len: usize, enc: i32): u32 {
  const n = scanPieces(ptr, len, enc);
  const bytes = <usize>n * PIECE_BYTES;
  memory.copy(outReserve(bytes), pieceList(), bytes);
  return n;
}
