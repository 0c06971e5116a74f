import type { JsonTape } from './json-tape.ts';
import { TAPE_ARRAY, TAPE_OBJECT } from './json-tape.ts';
import { jsonStringBytes, utf8ByteLength } from '../encoding/utf8-size.ts';
import { LITERAL_BOUND, arrayBound, numberBound, objectBound, stringBound } from './json-bound.ts';
import { memberNameBytes, numberBytes } from './json-exact.ts';
import { jsonTextNestingExceeds } from '../json-depth.ts';
import { MAX_WALK_DEPTH, assertWalkDepth } from './json-safety.ts';

/**
 * UTF-8 byte sizes of JSON text, counted without writing the text: a value's JSON size is counted
 * from its tape (json-tape.ts), which holds every name and primitive of the value in order, so a
 * namespace recorded (or proven unchanged) once is measured by a loop over a flat array instead of
 * being written out by `JSON.stringify` only to be counted.
 *
 * Most of an exact count is reading the characters of the strings (encoding/utf8-size.ts). A limit
 * check only needs to know the size is not over the limit, so {@link tapeMaxJsonBytes} counts an
 * upper bound that reads no string's characters (json-bound.ts); only a bound that reaches a limit
 * needs the exact count.
 */

/**
 * Bytes of `value` as UTF-8 JSON; 0 for `undefined`, which JSON omits. INVALID_PARAMS naming the
 * place (under `field`, `value` itself `depth` levels below its root) if the data is nested deeper
 * than MAX_WALK_DEPTH levels (json-safety.ts): seen in the text, or in JSON.stringify's stack
 * running out, whose depth differs between engines, and only then walked to name the place. A
 * cycle or a BigInt is still JSON.stringify's TypeError, which the measuring functions diagnose
 * (json-fault.ts).
 */
export function jsonByteLength(value: unknown, field = 'value', depth = 0): number {
  let text: string | undefined;
  try {
    text = JSON.stringify(value) as string | undefined;
  } catch (error) {
    if (error instanceof RangeError) assertWalkDepth(value, field, depth);
    throw error;
  }
  if (text === undefined) return 0;
  if (jsonTextNestingExceeds(text, MAX_WALK_DEPTH - depth)) assertWalkDepth(value, field, depth);
  return utf8ByteLength(text);
}

/** The count under way. */
let counted = 0;

/** UTF-8 bytes of the JSON text of the value recorded as `tape`: what `jsonByteLength` returns for it. */
export function tapeJsonBytes(tape: JsonTape): number {
  // Nothing here runs code of the caller's (the tape holds only primitives), so no count can start
  // inside another and the state needs no saving.
  counted = 0;
  if (countFrom(tape, 0) !== tape.length) throw new Error('json-size: not a whole tape');
  return counted;
}

/**
 * An upper bound of {@link tapeJsonBytes}, counted without reading any string's characters, by the
 * rules of json-bound.ts.
 *
 * One pass straight down the flat tape, without following its structure: a count after a marker
 * is read with the marker, and every other entry is a name or a primitive, counted alike.
 */
export function tapeMaxJsonBytes(tape: JsonTape): number {
  let bound = 0;
  const end = tape.length;
  for (let at = 0; at < end; at++) {
    const entry = tape[at];
    if (typeof entry === 'string') bound += stringBound(entry);
    else if (entry === TAPE_ARRAY) bound += arrayBound(tape[++at] as number);
    else if (entry === TAPE_OBJECT) bound += objectBound(tape[++at] as number);
    else if (typeof entry === 'number') bound += numberBound(entry);
    else bound += LITERAL_BOUND;
  }
  return bound;
}

/** Adds the bytes of the value recorded at `at` to `counted`; returns the position after it. */
function countFrom(tape: JsonTape, at: number): number {
  const entry = tape[at++];
  if (entry === TAPE_ARRAY) {
    const n = tape[at++] as number;
    // Brackets and the commas between items: the bound's count is exact.
    counted += arrayBound(n);
    for (let i = 0; i < n; i++) {
      const item = tape[at];
      // Strings (most of a context) are settled here, without a call per item.
      if (typeof item === 'string') {
        counted += jsonStringBytes(item);
        at++;
      } else at = countFrom(tape, at);
    }
    return at;
  }
  if (entry === TAPE_OBJECT) {
    const n = tape[at++] as number;
    let written = 0;
    for (let i = 0; i < n; i++) {
      const name = tape[at++] as string;
      const member = tape[at];
      // A member set to undefined: on the tape, left out of JSON.
      if (member === undefined) {
        at++;
        continue;
      }
      written++;
      counted += memberNameBytes(name);
      if (typeof member === 'string') {
        counted += jsonStringBytes(member);
        at++;
      } else at = countFrom(tape, at);
    }
    // Braces, a colon per member written and the commas between them.
    counted += objectBound(written);
    return at;
  }
  switch (typeof entry) {
    case 'string':
      counted += jsonStringBytes(entry);
      break;
    case 'number':
      counted += numberBytes(entry);
      break;
    case 'boolean':
      counted += entry ? 4 : 5;
      break;
    default:
      // null (a tape holds undefined only as a member's value, handled above).
      counted += 4;
  }
  return at;
}
