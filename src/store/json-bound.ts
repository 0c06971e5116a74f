/**
 * The rules of an upper bound of a JSON value's UTF-8 size that reads no string's characters
 * (json-size.ts counts it from a tape; json-tape.ts while recording one). A size limit only needs
 * to know a value is not over it, and reading every character of every string is most of the cost
 * of an exact count; where no bound reaches a limit, no exact size can.
 *
 * Per piece: a string (member names included) at 6 bytes a UTF-16 unit, the most JSON writes for
 * one (a `\u001f`, a lone surrogate's `\udXXX`), plus its quotes; an integer under a billion
 * exactly, any other number at the most a number writes; `true`, `false`, `null` (and a member set
 * to undefined, counted as if written) at 5; brackets, commas and colons exactly.
 */

/** Most bytes JSON writes for one UTF-16 unit of a string. */
const MAX_BYTES_PER_UNIT = 6;
/** The most characters `Number#toString` writes for a finite number (`-0.0000012345678901234567`). */
const MAX_NUMBER_BYTES = 25;
/** `false`, the longest literal (a member set to undefined counts as one). */
export const LITERAL_BOUND = 5;

/** Bound of a string, or of a member name with its quotes (its colon is in {@link objectBound}). */
export function stringBound(s: string): number {
  return MAX_BYTES_PER_UNIT * s.length + 2;
}

/** Bound of a finite number: exact for integers under a billion, else the most any number writes. */
export function numberBound(value: number): number {
  if (!Number.isInteger(value) || value <= -1e9 || value >= 1e9) return MAX_NUMBER_BYTES;
  let digits = value < 0 ? 2 : 1;
  for (let rest = Math.abs(value); rest >= 10; rest = Math.floor(rest / 10)) digits++;
  return digits;
}

/** Brackets and commas of an array of `n` items. */
export function arrayBound(n: number): number {
  return n === 0 ? 2 : n + 1;
}

/** Braces, colons and commas of an object of `n` members. */
export function objectBound(n: number): number {
  return n === 0 ? 2 : 2 * n + 1;
}
