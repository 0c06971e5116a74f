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

/** An opaque record of one JSON value; see {@link recordTape}. */
export type JsonTape = readonly unknown[];

// Markers are private objects, so no JSON value stored on the tape can be mistaken for one.
const ARRAY_MARK: object = Object.freeze({ mark: 'array' });
const OBJECT_MARK: object = Object.freeze({ mark: 'object' });

/** Deeper than this nothing is recorded: validated contexts stop at 100 levels anyway. */
const MAX_TAPE_DEPTH = 128;

class NotJson {}
const NOT_JSON = new NotJson();

/**
 * Records `value` if it is plain JSON data (null, booleans, finite numbers, strings, arrays and
 * plain objects without `toJSON`; a member whose value is `undefined` is recorded as such), or
 * returns undefined for anything else (a Date, a Map, a function, NaN, an `undefined` array item,
 * data nested deeper than 128 levels or cyclic), which callers then simply do not cache.
 */
export function recordTape(value: unknown): JsonTape | undefined {
  const tape: unknown[] = [];
  try {
    record(value, tape, 0);
  } catch (error) {
    if (error === NOT_JSON) return undefined;
    throw error;
  }
  return tape;
}

function record(value: unknown, tape: unknown[], depth: number): void {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      tape.push(value);
      return;
    case 'number':
      if (!Number.isFinite(value)) throw NOT_JSON;
      tape.push(value);
      return;
    case 'object':
      break;
    default:
      throw NOT_JSON;
  }
  if (value === null) {
    tape.push(null);
    return;
  }
  if (depth >= MAX_TAPE_DEPTH) throw NOT_JSON;
  const obj = value as Record<string, unknown>;
  if (typeof obj.toJSON === 'function') throw NOT_JSON;
  if (Array.isArray(obj)) {
    tape.push(ARRAY_MARK, obj.length);
    for (let i = 0; i < obj.length; i++) {
      if (obj[i] === undefined) throw NOT_JSON;
      record(obj[i], tape, depth + 1);
    }
    return;
  }
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (proto !== Object.prototype && proto !== null) throw NOT_JSON;
  tape.push(OBJECT_MARK);
  const countAt = tape.length;
  tape.push(0);
  let count = 0;
  for (const key of Object.keys(obj)) {
    const member = obj[key];
    count++;
    tape.push(key);
    // A member set to undefined is kept: JSON leaves it out, but the store's validation refuses it,
    // so a value with one must not match a tape of the value without it.
    if (member === undefined) tape.push(undefined);
    else record(member, tape, depth + 1);
  }
  tape[countAt] = count;
}

/**
 * True if `value` is still exactly what {@link recordTape} recorded: the same JSON data, members
 * in the same order, nothing added (an inherited enumerable member, as from a polluted
 * `Object.prototype`, counts as added). -0 matches 0, which every consumer writes and checks alike.
 */
export function tapeMatches(value: unknown, tape: JsonTape): boolean {
  // The read position is module state (a plain variable is measurably faster than an object field
  // in this hot walk); saved and restored so a getter that itself compares a tape cannot upset it.
  const outer = at;
  at = 0;
  try {
    return matches(value, tape) && at === tape.length;
  } finally {
    at = outer;
  }
}

/** Read position in the tape being matched; see {@link tapeMatches}. */
let at = 0;

function matches(value: unknown, tape: JsonTape): boolean {
  const expected = tape[at++];
  if (value === expected) return typeof value !== 'object' || value === null;
  if (value === null || typeof value !== 'object') return false;
  const obj = value as Record<string, unknown>;
  if (typeof obj.toJSON === 'function') return false;
  if (expected === ARRAY_MARK) {
    if (!Array.isArray(obj)) return false;
    const n = obj.length;
    if (tape[at++] !== n) return false;
    for (let i = 0; i < n; i++) {
      const item = obj[i];
      // Primitive leaves (most of a context) are settled here, without a call per item.
      if (item === tape[at] && (typeof item !== 'object' || item === null)) {
        if (item === undefined) return false;
        at++;
      } else if (item === undefined || !matches(item, tape)) return false;
    }
    return true;
  }
  if (expected !== OBJECT_MARK || Array.isArray(obj)) return false;
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  let left = tape[at++] as number;
  // for-in (not Object.keys) so the walk allocates nothing; it also yields inherited enumerable
  // members, which the recorded Object.keys never contained, so their presence fails the match.
  for (const key in obj) {
    if (left-- === 0 || tape[at++] !== key) return false;
    const member = obj[key];
    // As for array items: a primitive member equal to the recorded one needs no call.
    if (member === tape[at] && (typeof member !== 'object' || member === null)) at++;
    else if (!matches(member, tape)) return false;
  }
  return left === 0;
}
