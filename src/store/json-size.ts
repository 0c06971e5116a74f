import { inheritsEnumerableMembers } from './json-safety.ts';
import type { JsonTape } from './json-tape.ts';
import { MAX_TAPE_DEPTH, TAPE_ARRAY, TAPE_OBJECT, recordTape, tapeMatches } from './json-tape.ts';

/**
 * UTF-8 byte sizes of JSON text, counted without writing the text: a walk that measures a value's
 * JSON size while it records the value's tape (json-tape.ts), and one that measures it while it
 * proves the value still matches a tape, so a namespace is walked once for both instead of being
 * walked and then written out by `JSON.stringify` only to be counted.
 */

const encoder = new TextEncoder();
/** Reused output window for {@link utf8ByteLength}: only the count of bytes written is kept. */
const scratch = new Uint8Array(64 * 1024);

/**
 * Byte length of a string once UTF-8 encoded (a lone surrogate counts as U+FFFD, 3 bytes),
 * without allocating the encoding: the native encoder writes into a small reused window, which is
 * many times faster than counting code units in JavaScript.
 */
export function utf8ByteLength(text: string): number {
  let n = 0;
  let rest = text;
  while (rest.length > 0) {
    // encodeInto stops before a character that does not fit, so a surrogate pair is never split.
    const { read, written } = encoder.encodeInto(rest, scratch);
    n += written;
    rest = rest.slice(read);
  }
  return n;
}

/** Bytes of `value` as UTF-8 JSON; 0 for `undefined`, which JSON omits. */
export function jsonByteLength(value: unknown): number {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? 0 : utf8ByteLength(text);
}

/** A value's tape and the UTF-8 bytes of its `JSON.stringify` text. */
export interface MeasuredTape {
  readonly tape: JsonTape;
  readonly jsonBytes: number;
}

class NotJson {}
const NOT_JSON = new NotJson();

/** Printable ASCII but `"` and `\`: a string JSON writes as it is, one byte per character. */
const PLAIN_ASCII = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/;
/** Nothing JSON escapes and no surrogate: the string's JSON text is its UTF-8 bytes and two quotes. */
const PLAIN = /^[^"\\\u0000-\u001f\uD800-\uDFFF]*$/;
/** Up to this many characters, a loop in JavaScript settles a string sooner than a native call. */
const SHORT = 24;

/** UTF-8 bytes of `s` as a JSON string, quotes included: what `jsonByteLength(s)` returns. */
export function jsonStringBytes(s: string): number {
  const n = s.length;
  if (n <= SHORT) {
    let bytes = n + 2;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x20 && c < 0x7f) {
        if (c === 0x22 || c === 0x5c) bytes++;
      } else if (c >= 0x80 && (c < 0xd800 || c > 0xdfff)) bytes += c < 0x800 ? 1 : 2;
      else if (c !== 0x7f) return jsonByteLength(s);
    }
    return bytes;
  }
  if (PLAIN_ASCII.test(s)) return n + 2;
  if (PLAIN.test(s)) return utf8ByteLength(s) + 2;
  // Escapes or surrogates (paired or not): the exact answer from JSON's own text.
  return jsonByteLength(s);
}

/**
 * JSON bytes of member names, by name. Names repeat in every object of a kind (`id`, `content`,
 * ...), so a lookup usually replaces a scan. Keyed by the name itself (content, not identity), so
 * an entry is always right; bounded, cleared when full.
 */
const nameBytes = new Map<string, number>();
const MAX_NAMES = 2048;

function memberNameBytes(name: string): number {
  let known = nameBytes.get(name);
  if (known === undefined) {
    if (nameBytes.size >= MAX_NAMES) nameBytes.clear();
    nameBytes.set(name, (known = jsonStringBytes(name)));
  }
  return known;
}

// Walk state, as module variables (faster than fields in this hot walk). The tape is written into
// a reused array and copied out at its exact size at the end, so recording leaves no garbage of a
// growing array and the memo keeps no spare capacity.
let spareTape: unknown[] = [];
/** A spare tape longer than this (a huge value) is dropped after use rather than kept. */
const MAX_SPARE = 1 << 16;
let tape: unknown[] = spareTape;
let at = 0;
let bytes = 0;
/** A walk is under way (a getter inside the data started another): the inner one gets its own tape. */
let busy = false;

/**
 * Records `value` exactly as `recordTape` does and measures the UTF-8 bytes of its JSON text
 * (what `jsonByteLength` returns) in the same walk; undefined where `recordTape` returns undefined.
 */
export function recordTapeWithJsonBytes(value: unknown): MeasuredTape | undefined {
  // The walk lists members with for-in (no allocation); with a polluted Object.prototype it would
  // also list inherited ones, so then the value is recorded and measured the plain way.
  if (inheritsEnumerableMembers()) {
    const recorded = recordTape(value);
    return recorded === undefined ? undefined : { tape: recorded, jsonBytes: jsonByteLength(value) };
  }
  // Saved and restored, so a getter that itself measures a value cannot upset this walk.
  const outerTape = tape;
  const outerAt = at;
  const outerBytes = bytes;
  const outerBusy = busy;
  tape = busy ? [] : spareTape;
  at = 0;
  bytes = 0;
  busy = true;
  try {
    walk(value, 0);
    return { tape: tape.slice(0, at), jsonBytes: bytes };
  } catch (error) {
    if (error === NOT_JSON) return undefined;
    throw error;
  } finally {
    if (tape === spareTape && tape.length > MAX_SPARE) spareTape = [];
    else tape.fill(undefined, 0, at);
    tape = outerTape;
    at = outerAt;
    bytes = outerBytes;
    busy = outerBusy;
  }
}

/** Bytes of a finite number in JSON: Number#toString's form (-0 included: both write "0"). */
function numberBytes(value: number): number {
  return value >= 0 && value < 10 && Number.isInteger(value) ? 1 : String(value).length;
}

function walk(value: unknown, depth: number): void {
  switch (typeof value) {
    case 'string':
      tape[at++] = value;
      bytes += jsonStringBytes(value);
      return;
    case 'boolean':
      tape[at++] = value;
      bytes += value ? 4 : 5;
      return;
    case 'number':
      if (!Number.isFinite(value)) throw NOT_JSON;
      tape[at++] = value;
      bytes += numberBytes(value);
      return;
    case 'object':
      break;
    default:
      throw NOT_JSON;
  }
  if (value === null) {
    tape[at++] = null;
    bytes += 4;
    return;
  }
  if (depth >= MAX_TAPE_DEPTH) throw NOT_JSON;
  const obj = value as Record<string, unknown>;
  if (typeof obj.toJSON === 'function') throw NOT_JSON;
  if (Array.isArray(obj)) {
    const n = obj.length;
    tape[at++] = TAPE_ARRAY;
    tape[at++] = n;
    // Brackets and the commas between items.
    bytes += n === 0 ? 2 : n + 1;
    for (let i = 0; i < n; i++) {
      const item = obj[i];
      // Strings (most of a context) are settled here, without a call per item.
      if (typeof item === 'string') {
        tape[at++] = item;
        bytes += jsonStringBytes(item);
      } else if (item === undefined) throw NOT_JSON;
      else walk(item, depth + 1);
    }
    return;
  }
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (proto !== Object.prototype && proto !== null) throw NOT_JSON;
  tape[at++] = TAPE_OBJECT;
  const countAt = at;
  tape[at++] = 0;
  let count = 0;
  let written = 0;
  // for-in lists the own members in Object.keys order (the caller checked nothing is inherited).
  for (const key in obj) {
    const member = obj[key];
    count++;
    tape[at++] = key;
    // JSON leaves a member set to undefined out; the tape keeps it (see recordTape).
    if (member === undefined) {
      tape[at++] = undefined;
      continue;
    }
    written++;
    bytes += memberNameBytes(key);
    if (typeof member === 'string') {
      tape[at++] = member;
      bytes += jsonStringBytes(member);
    } else walk(member, depth + 1);
  }
  tape[countAt] = count;
  // Braces, a colon per member written and the commas between them.
  bytes += written === 0 ? 2 : 2 * written + 1;
}

/**
 * For a value recorded as `tape`: the UTF-8 bytes of its JSON text if it still matches the tape
 * (exactly when `tapeMatches` answers true), measured in the same walk; undefined if it does not.
 */
export function matchTapeWithJsonBytes(value: unknown, tape: JsonTape): number | undefined {
  if (inheritsEnumerableMembers()) return tapeMatches(value, tape) ? jsonByteLength(value) : undefined;
  const outerBytes = bytes;
  bytes = 0;
  try {
    return measureFrom(value, tape, 0) === tape.length ? bytes : undefined;
  } finally {
    bytes = outerBytes;
  }
}

/** `matchFrom` of json-tape.ts (the same checks in the same order), adding up the JSON bytes as it goes. */
function measureFrom(value: unknown, tape: JsonTape, at: number): number {
  const expected = tape[at++];
  if (typeof value !== 'object' || value === null) {
    if (value !== expected) return -1;
    bytes += primitiveBytes(value);
    return at;
  }
  const obj = value as Record<string, unknown>;
  if (typeof obj.toJSON === 'function') return -1;
  if (expected === TAPE_ARRAY) {
    if (!Array.isArray(obj)) return -1;
    const n = obj.length;
    if (tape[at++] !== n) return -1;
    bytes += n === 0 ? 2 : n + 1;
    for (let i = 0; i < n; i++) {
      const item = obj[i];
      if (typeof item === 'string') {
        if (item !== tape[at++]) return -1;
        bytes += jsonStringBytes(item);
      } else if (typeof item === 'number') {
        if (item !== tape[at++]) return -1;
        bytes += numberBytes(item);
      } else if (item === undefined || (at = measureFrom(item, tape, at)) < 0) return -1;
    }
    return at;
  }
  if (expected !== TAPE_OBJECT || Array.isArray(obj)) return -1;
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (proto !== Object.prototype && proto !== null) return -1;
  let left = tape[at++] as number;
  let written = 0;
  for (const key in obj) {
    if (left-- === 0 || tape[at++] !== key) return -1;
    const member = obj[key];
    if (member === undefined) {
      // JSON leaves it out; the tape has it as undefined.
      if (tape[at++] !== undefined) return -1;
      continue;
    }
    written++;
    bytes += memberNameBytes(key);
    if (typeof member === 'string') {
      if (member !== tape[at++]) return -1;
      bytes += jsonStringBytes(member);
    } else if (typeof member === 'number') {
      if (member !== tape[at++]) return -1;
      bytes += numberBytes(member);
    } else if ((at = measureFrom(member, tape, at)) < 0) return -1;
  }
  if (left !== 0) return -1;
  bytes += written === 0 ? 2 : 2 * written + 1;
  return at;
}

/** JSON bytes of a primitive JSON value (the tape holds only those, and undefined for omitted members). */
function primitiveBytes(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return jsonStringBytes(value);
    case 'number':
      return numberBytes(value);
    case 'boolean':
      return value ? 4 : 5;
    default:
      return value === null ? 4 : 0;
  }
}
