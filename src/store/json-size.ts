import type { JsonTape } from './json-tape.ts';
import { TAPE_ARRAY, TAPE_OBJECT } from './json-tape.ts';

/**
 * UTF-8 byte sizes of JSON text, counted without writing the text: a value's JSON size is counted
 * from its tape (json-tape.ts), which holds every name and primitive of the value in order, so a
 * namespace recorded (or proven unchanged) once is measured by a loop over a flat array instead of
 * being written out by `JSON.stringify` only to be counted.
 *
 * Most of an exact count is reading the characters of the strings (a native scan for characters
 * JSON escapes, then the native UTF-8 encoder). A limit check only needs to know the size is not
 * over the limit, so {@link tapeMaxJsonBytes} counts an upper bound that reads no string's
 * characters; only a bound that reaches a limit needs the exact count.
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

/** Bytes of a finite number in JSON: Number#toString's form (-0 included: both write "0"). */
function numberBytes(value: number): number {
  return value >= 0 && value < 10 && Number.isInteger(value) ? 1 : String(value).length;
}

/** Most bytes JSON writes for one UTF-16 unit of a string: a `\u001f` or a lone surrogate's `\udXXX`. */
const MAX_BYTES_PER_UNIT = 6;

/** The count under way: exact, or an upper bound that reads no string's characters. */
let exact = true;
let counted = 0;

/** UTF-8 bytes of the JSON text of the value recorded as `tape`: what `jsonByteLength` returns for it. */
export function tapeJsonBytes(tape: JsonTape): number {
  return countTape(tape, true);
}

/**
 * An upper bound of {@link tapeJsonBytes}, counted without reading any string's characters: each
 * string (member names included) counts as 6 bytes per UTF-16 unit, the most JSON writes for one,
 * plus its quotes; everything else is counted exactly. At most 6 times the exact size, and several
 * times cheaper to count.
 */
export function tapeMaxJsonBytes(tape: JsonTape): number {
  return countTape(tape, false);
}

function countTape(tape: JsonTape, exactly: boolean): number {
  // Nothing here runs code of the caller's (the tape holds only primitives), so no count can start
  // inside another and the state needs no saving.
  exact = exactly;
  counted = 0;
  if (countFrom(tape, 0) !== tape.length) throw new Error('json-size: not a whole tape');
  return counted;
}

function stringBytes(s: string): number {
  return exact ? jsonStringBytes(s) : MAX_BYTES_PER_UNIT * s.length + 2;
}

/** Adds the bytes of the value recorded at `at` to `counted`; returns the position after it. */
function countFrom(tape: JsonTape, at: number): number {
  const entry = tape[at++];
  if (entry === TAPE_ARRAY) {
    const n = tape[at++] as number;
    // Brackets and the commas between items.
    counted += n === 0 ? 2 : n + 1;
    for (let i = 0; i < n; i++) {
      const item = tape[at];
      // Strings (most of a context) are settled here, without a call per item.
      if (typeof item === 'string') {
        counted += stringBytes(item);
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
      counted += exact ? memberNameBytes(name) : stringBytes(name);
      if (typeof member === 'string') {
        counted += stringBytes(member);
        at++;
      } else at = countFrom(tape, at);
    }
    // Braces, a colon per member written and the commas between them.
    counted += written === 0 ? 2 : 2 * written + 1;
    return at;
  }
  switch (typeof entry) {
    case 'string':
      counted += stringBytes(entry);
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
