/**
 * A flat record ("tape") of a JSON value, used to prove cheaply that a value has not changed
 * since it was recorded, so work done on the recorded value (a validation, a size, a diff
 * baseline) can be reused.
 *
 * Contexts are plain mutable objects: an agent may change `ctx.reasoning.intents` in place without
 * going through `safeSet`, so nothing short of looking at every member can tell that a field is
 * unchanged. The tape makes that look as cheap as it can be: one pass over the live value against
 * a flat array read in order, comparing strings and numbers by identity and member names by
 * position, with no allocation and no second object graph to walk in step.
 *
 * `tapeMatches` answers true only if the value is plain JSON data equal to the recorded one with
 * its members in the same order (so any order-sensitive output computed from the recorded value,
 * JSON.stringify included, is the same for the live one); any doubt answers false, which only
 * costs the caller the work it would have done without a tape.
 */

import { jsonStringBytes } from '../encoding/utf8-size.ts';
import { LITERAL_BOUND, arrayBound, numberBound, objectBound, stringBound } from './json-bound.ts';
import { memberNameBytes, numberBytes } from './json-exact.ts';
import { inheritsEnumerableMembers } from './json-safety.ts';

/** An opaque record of one JSON value; see {@link recordTape}. */
export type JsonTape = readonly unknown[];

// Markers are private objects, so no JSON value stored on the tape can be mistaken for one.
const ARRAY_MARK: object = Object.freeze({ mark: 'array' });
const OBJECT_MARK: object = Object.freeze({ mark: 'object' });

/**
 * The tape format, for code in this folder that records a tape in the same walk as other work
 * (namespace-pass.ts) instead of walking the value twice, or reads one (json-size.ts counts a
 * value's JSON bytes from its tape, without walking the value). A tape lists the value in
 * walk order: a primitive as itself; an array as TAPE_ARRAY, its length, then its items; a plain
 * object as TAPE_OBJECT, its member count, then each member's name and value in `Object.keys`
 * order (a member set to undefined as `undefined`). Such a recorder must produce exactly the tape
 * {@link recordTape} would (the tests compare them) or refuse the value.
 */
export const TAPE_ARRAY: object = ARRAY_MARK;
/** See {@link TAPE_ARRAY}. */
export const TAPE_OBJECT: object = OBJECT_MARK;

/** Deeper than this nothing is recorded: validated contexts stop at 100 levels anyway. */
export const MAX_TAPE_DEPTH = 128;

class NotJson {}
const NOT_JSON = new NotJson();

/**
 * Records `value` if it is plain JSON data (null, booleans, finite numbers, strings, arrays and
 * plain objects without `toJSON`; a member whose value is `undefined` is recorded as such), or
 * returns undefined for anything else (a Date, a Map, a function, NaN, an `undefined` array item,
 * data nested deeper than 128 levels or cyclic), which callers then simply do not cache.
 */
export function recordTape(value: unknown): JsonTape | undefined {
  return recordAt(value, 0, false);
}

/** A tape with the value's JSON sizes counted while recording it (see {@link recordTapeWithSizes}). */
export interface SizedTape {
  tape: JsonTape;
  /** The upper bound json-size.ts's `tapeMaxJsonBytes` counts from the tape (json-bound.ts's rules). */
  maxJsonBytes: number;
  /** What json-size.ts's `tapeJsonBytes` counts from the tape: `JSON.stringify`'s UTF-8 bytes; only if asked for. */
  jsonBytes?: number;
}

/**
 * {@link recordTape}, with the upper bound of the value's JSON size counted in the same walk, and,
 * if `exact`, its exact JSON size too: reading every string's characters while they are at hand
 * costs less than a second walk over the tape to count them.
 */
export function recordTapeWithSizes(value: unknown, exact = false): SizedTape | undefined {
  const recorded = recordAt(value, 0, exact);
  if (recorded === undefined) return undefined;
  return exact ? { tape: recorded, maxJsonBytes: lastBound, jsonBytes: lastBytes } : { tape: recorded, maxJsonBytes: lastBound };
}

/**
 * The part of an array's tape that records its item `value`: {@link recordTape} of the item, as
 * deep in the array as it is, so an array's tape can be assembled from its items' tapes (an
 * array's tape is TAPE_ARRAY, its length and its items' tapes in a row).
 */
export function recordItemTape(value: unknown): JsonTape | undefined {
  return recordAt(value, 1, false);
}

// The tape under way is written into a reused scratch array and copied out at its exact size at
// the end, so recording leaves no garbage of a growing array and a kept tape holds no spare
// capacity. Both recorders (this one and namespace-pass.ts's) draw on the one scratch array.
let scratch: unknown[] = [];
/** A walk holds the scratch array (a getter inside the data started another walk, which gets a fresh one). */
let scratchTaken = false;
/** A scratch array longer than this (a huge value) is dropped after use rather than kept. */
const MAX_SCRATCH = 1 << 16;

/** An empty array to record a tape into: the reused scratch array if no walk holds it, else a fresh one. */
export function takeTapeArray(): unknown[] {
  if (scratchTaken) return [];
  scratchTaken = true;
  return scratch;
}

/** Gives back an array from {@link takeTapeArray}, of which the first `used` entries were written. */
export function releaseTapeArray(array: unknown[], used: number): void {
  if (array !== scratch) return;
  if (array.length > MAX_SCRATCH) scratch = [];
  else array.fill(undefined, 0, used);
  scratchTaken = false;
}

// Walk state, as module variables (faster than fields in this hot walk).
let tape: unknown[] = [];
let at = 0;
/** The size bound of what the walk under way has recorded (see recordTapeWithSizes). */
let bound = 0;
/** The bound of the last whole value recorded. */
let lastBound = 0;
/** Exact JSON bytes of what the walk under way has recorded, if it counts them (see recordTapeWithSizes). */
let bytes = 0;
/** The exact bytes of the last whole value recorded while counting. */
let lastBytes = 0;
/** `Object.prototype` has enumerable members, which for-in lists too: each member is then checked to be own. */
let polluted = false;

function recordAt(value: unknown, depth: number, exact: boolean): JsonTape | undefined {
  // Saved and restored, so a getter that itself records a value cannot upset this walk.
  const outerTape = tape;
  const outerAt = at;
  const outerBound = bound;
  const outerBytes = bytes;
  const outerPolluted = polluted;
  tape = takeTapeArray();
  at = 0;
  bound = 0;
  bytes = 0;
  polluted = inheritsEnumerableMembers();
  try {
    record(value, depth, exact);
    lastBound = bound;
    lastBytes = bytes;
    return tape.slice(0, at);
  } catch (error) {
    if (error === NOT_JSON) return undefined;
    throw error;
  } finally {
    releaseTapeArray(tape, at);
    tape = outerTape;
    at = outerAt;
    bound = outerBound;
    bytes = outerBytes;
    polluted = outerPolluted;
  }
}

/**
 * Records `value` at the end of the tape, adding its bound to `bound`, and its exact size to
 * `bytes` if `counting`: a parameter, not walk state, because it is tested for every entry and a
 * parameter costs least to test.
 */
function record(value: unknown, depth: number, counting: boolean): void {
  switch (typeof value) {
    case 'string':
      tape[at++] = value;
      bound += stringBound(value);
      if (counting) bytes += jsonStringBytes(value);
      return;
    case 'boolean':
      tape[at++] = value;
      bound += LITERAL_BOUND;
      if (counting) bytes += value ? 4 : 5;
      return;
    case 'number':
      if (!Number.isFinite(value)) throw NOT_JSON;
      tape[at++] = value;
      bound += numberBound(value);
      if (counting) bytes += numberBytes(value);
      return;
    case 'object':
      break;
    default:
      throw NOT_JSON;
  }
  if (value === null) {
    tape[at++] = null;
    bound += LITERAL_BOUND;
    if (counting) bytes += 4;
    return;
  }
  if (depth >= MAX_TAPE_DEPTH) throw NOT_JSON;
  const obj = value as Record<string, unknown>;
  if (typeof obj.toJSON === 'function') throw NOT_JSON;
  if (Array.isArray(obj)) {
    const n = obj.length;
    tape[at++] = ARRAY_MARK;
    tape[at++] = n;
    bound += arrayBound(n);
    // Brackets and commas: the bound's count is exact.
    if (counting) bytes += arrayBound(n);
    for (let i = 0; i < n; i++) {
      const item = obj[i];
      // Strings (most of a context) are settled here, without a call per item.
      if (typeof item === 'string') {
        tape[at++] = item;
        bound += stringBound(item);
        if (counting) bytes += jsonStringBytes(item);
      } else if (item === undefined) throw NOT_JSON;
      else record(item, depth + 1, counting);
    }
    return;
  }
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (proto !== Object.prototype && proto !== null) throw NOT_JSON;
  tape[at++] = OBJECT_MARK;
  const countAt = at;
  tape[at++] = 0;
  let count = 0;
  // Members JSON writes: all but those set to undefined.
  let written = 0;
  // for-in lists the own members in `Object.keys` order without allocating a list; the members it
  // lists after them from a polluted Object.prototype are not the object's and are skipped.
  for (const key in obj) {
    if (polluted && !Object.hasOwn(obj, key)) continue;
    const member = obj[key];
    count++;
    tape[at++] = key;
    bound += stringBound(key);
    // A member set to undefined is kept: JSON leaves it out, but the store's validation refuses it,
    // so a value with one must not match a tape of the value without it.
    if (member === undefined) {
      tape[at++] = undefined;
      bound += LITERAL_BOUND;
      continue;
    }
    if (counting) {
      bytes += memberNameBytes(key);
      written++;
    }
    if (typeof member === 'string') {
      tape[at++] = member;
      bound += stringBound(member);
      if (counting) bytes += jsonStringBytes(member);
    } else record(member, depth + 1, counting);
  }
  tape[countAt] = count;
  bound += objectBound(count);
  // Braces, a colon per member written and the commas between them.
  if (counting) bytes += objectBound(written);
}

/**
 * True if `value` is still exactly what {@link recordTape} recorded: the same JSON data, members
 * in the same order, nothing added (an inherited enumerable member, as from a polluted
 * `Object.prototype`, counts as added). -0 matches 0, which every consumer writes and checks alike.
 */
export function tapeMatches(value: unknown, tape: JsonTape): boolean {
  return matchFrom(value, tape, 0) === tape.length;
}

/**
 * Matches `value` against the tape from position `at`: the position after it, or -1 if it does
 * not match. The position travels as an argument and a result, so it stays in a register.
 */
function matchFrom(value: unknown, tape: JsonTape, at: number): number {
  const expected = tape[at++];
  if (typeof value !== 'object' || value === null) return value === expected ? at : -1;
  const obj = value as Record<string, unknown>;
  if (typeof obj.toJSON === 'function') return -1;
  if (expected === ARRAY_MARK) {
    if (!Array.isArray(obj)) return -1;
    const n = obj.length;
    if (tape[at++] !== n) return -1;
    for (let i = 0; i < n; i++) {
      const item = obj[i];
      // Strings and numbers (most of a context) are settled here, without a call per item; -0
      // matches 0. Any other item, undefined (refused) included, takes the call.
      if (typeof item === 'string') {
        if (item !== tape[at++]) return -1;
      } else if (typeof item === 'number') {
        if (item !== tape[at++]) return -1;
      } else if (item === undefined || (at = matchFrom(item, tape, at)) < 0) return -1;
    }
    return at;
  }
  if (expected !== OBJECT_MARK || Array.isArray(obj)) return -1;
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (proto !== Object.prototype && proto !== null) return -1;
  let left = tape[at++] as number;
  // for-in (not Object.keys) so the walk allocates nothing; it also yields inherited enumerable
  // members, which the recorded Object.keys never contained, so their presence fails the match.
  for (const key in obj) {
    if (left-- === 0 || tape[at++] !== key) return -1;
    const member = obj[key];
    // As for array items (a member set to undefined matches one recorded as undefined).
    if (typeof member === 'string') {
      if (member !== tape[at++]) return -1;
    } else if (typeof member === 'number') {
      if (member !== tape[at++]) return -1;
    } else if ((at = matchFrom(member, tape, at)) < 0) return -1;
  }
  return left === 0 ? at : -1;
}
