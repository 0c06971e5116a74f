/**
 * UTF-8 sizes of strings and of their JSON text, counted without keeping an encoded copy. Limits
 * in this product are about bytes that travel or are stored (a tool output's "3 KB", a context's
 * 2 MB namespace), so they are counted on UTF-8, not on string length: 1,000 CJK characters are
 * 3,000 bytes. The tool-output policy and the context store both count here.
 *
 * Short strings are counted by a loop in JavaScript; longer ones by the native encoder writing
 * into a small reused window, several times faster than a loop over code units. For JSON, what the
 * escapes add is then counted on the window's bytes by a small WebAssembly kernel sixteen bytes at
 * a time (src/core/json-escapes.ts), or, where the runtime does not compile WebAssembly at run
 * time, in JavaScript four bytes at a time (only a word holding an escape is looked at byte by
 * byte). In Node, which copies a string's UTF-16 code units at memory speed, the kernel counts
 * the whole JSON size from those instead of the encoder's bytes. All give the same answers; the
 * tests hold them to it.
 */

import { jsonEscapeKernel, type JsonEscapeKernel } from '../core/json-escapes.ts';
import { invalidParams } from '../errors.ts';
import { isWellFormed, safeCutIndex } from './utf16.ts';

const encoder = new TextEncoder();
/** Reused output window: only the count of bytes written is kept (and, for JSON, what they hold). */
const windowBuffer = new ArrayBuffer(64 * 1024);
const windowBytes = new Uint8Array(windowBuffer);
/** The same window as 32-bit words, for checking four bytes at a time. */
const windowWords = new Int32Array(windowBuffer);

/** Up to this many code units, a loop in JavaScript settles a string sooner than a native call. */
const SHORT = 24;

/**
 * Byte length of `text` once UTF-8 encoded, without allocating the encoding. A lone surrogate
 * counts as U+FFFD (3 bytes), as `TextEncoder` writes it. Anything but a string is INVALID_PARAMS.
 */
export function utf8ByteLength(text: string): number {
  // Public (the package root exports it): a number or undefined would otherwise count as 0 bytes.
  if (typeof text !== 'string') throw invalidParams('text', `must be a string, got ${text === null ? 'null' : typeof text}.`);
  const n = text.length;
  if (n <= SHORT) {
    let bytes = n;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c < 0x80) continue;
      if (c < 0x800) bytes += 1;
      else if (c >= 0xd800 && c <= 0xdbff && i + 1 < n && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
        // A surrogate pair: two units, four bytes.
        bytes += 2;
        i++;
      } else bytes += 2;
    }
    return bytes;
  }
  let bytes = 0;
  let rest = text;
  while (rest.length > 0) {
    // encodeInto stops before a character that does not fit, so a surrogate pair is never split.
    const { read, written } = encoder.encodeInto(rest, windowBytes);
    bytes += written;
    rest = rest.slice(read);
  }
  return bytes;
}

/** Printable ASCII but `"` and `\`: a string JSON writes as it is, one byte per character. */
const PLAIN_ASCII = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/;

// Word masks for finding a byte of one kind among four at once: for a word w, (w - LOW) & ~w & HIGH
// is non-zero exactly when some byte of w is below LOW's byte (borrows only pass upwards from a
// byte that is itself a hit, so "any" is exact). Bytes 0x80 and up never hit (~w clears them).
const HIGH = 0x80808080 | 0;
const ONES = 0x01010101;
const BELOW_SPACE = 0x20202020;
const QUOTES = 0x22222222;
const BACKSLASHES = 0x5c5c5c5c;
/** 0xEF leads the UTF-8 of U+F000..U+FFFF, U+FFFD among them: what the encoder writes for a lone surrogate. */
const EFS = 0xefefefef | 0;

/**
 * Bytes JSON's escape of an ASCII character adds to it: 1 for `"` and `\` and for the control
 * characters with a short escape (`\b \t \n \f \r`), 5 for the other control characters
 * (`\u00XX`), else 0. A table, because a count reads it once per character.
 */
const ESCAPE_EXTRA = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) ESCAPE_EXTRA[c] = c >= 0x08 && c <= 0x0d && c !== 0x0b ? 1 : 5;
ESCAPE_EXTRA[0x22] = 1;
ESCAPE_EXTRA[0x5c] = 1;

/** {@link ESCAPE_EXTRA} for any byte: 0 from 0x80 up. */
function escapeExtra(c: number): number {
  return c < 0x80 ? ESCAPE_EXTRA[c]! : 0;
}

/** Set by {@link windowEscapeBytes} when the bytes it read held an 0xEF. */
let sawEF = false;

/** Bytes JSON's escapes add to the first `length` bytes of the window (see {@link escapeExtra}). */
function windowEscapeBytes(length: number): number {
  const words = length >>> 2;
  let extra = 0;
  let ef = 0;
  for (let i = 0; i < words; i++) {
    const w = windowWords[i]!;
    const q = w ^ QUOTES;
    const b = w ^ BACKSLASHES;
    const e = w ^ EFS;
    ef |= (e - ONES) & ~e;
    // Most words hold nothing JSON escapes; only a word that does has its bytes looked at.
    if (((((w - BELOW_SPACE) & ~w) | ((q - ONES) & ~q) | ((b - ONES) & ~b)) & HIGH) !== 0) {
      const at = i << 2;
      extra += escapeExtra(windowBytes[at]!) + escapeExtra(windowBytes[at + 1]!) + escapeExtra(windowBytes[at + 2]!) + escapeExtra(windowBytes[at + 3]!);
    }
  }
  if ((ef & HIGH) !== 0) sawEF = true;
  for (let i = words << 2; i < length; i++) {
    const c = windowBytes[i]!;
    extra += escapeExtra(c);
    if (c === 0xef) sawEF = true;
  }
  return extra;
}

/**
 * UTF-8 bytes of `s` as a JSON string, quotes included: the byte length of `JSON.stringify(s)`'s
 * text (`"` and `\` and the short escapes take 2 bytes, other control characters and lone
 * surrogates 6).
 */
export function jsonStringBytes(s: string): number {
  if (s.length <= SHORT) return shortJsonBytes(s);
  const kernel = jsonEscapeKernel();
  return kernel !== null ? kernelJsonBytes(s, kernel) : portableJsonBytes(s);
}

/**
 * {@link jsonStringBytes} counted in JavaScript only: what runs where the runtime does not compile
 * WebAssembly at run time (workerd).
 * @internal Exported for the tests that hold every way of counting to the same answers.
 */
export function jsonStringBytesPortable(s: string): number {
  return s.length <= SHORT ? shortJsonBytes(s) : portableJsonBytes(s);
}

/** A short string, by a loop over its code units. */
function shortJsonBytes(s: string): number {
  const n = s.length;
  let bytes = n + 2;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) bytes += ESCAPE_EXTRA[c]!;
    else if (c < 0x800) bytes += 1;
    else if (c < 0xd800 || c > 0xdfff) bytes += 2;
    else if (c <= 0xdbff && i + 1 < n && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair: two units, four bytes.
      bytes += 2;
      i++;
    } else bytes += 5; // a lone surrogate: `\udXXX`
  }
  return bytes;
}

/**
 * A long string: where the runtime copies UTF-16 natively (Node), its code units are copied into
 * the kernel's window and the kernel counts their whole JSON size; elsewhere the native encoder
 * writes it into the window, 64 KiB at a time, and the kernel counts what JSON's escapes add to
 * those bytes, sixteen at a time.
 */
function kernelJsonBytes(s: string, k: JsonEscapeKernel): number {
  return k.utf16 !== null ? utf16JsonBytes(s, k.utf16, k.maxUnits) : encodedJsonBytes(s, k);
}

/**
 * {@link jsonStringBytes} as it runs where the runtime has the kernel but no native UTF-16 copy
 * (browsers, Deno): the encoder's bytes, escapes counted by the kernel.
 * @internal Exported for the tests that hold every way of counting to the same answers in Node.
 */
export function jsonStringBytesEncoded(s: string): number {
  if (s.length <= SHORT) return shortJsonBytes(s);
  const kernel = jsonEscapeKernel();
  return kernel !== null ? encodedJsonBytes(s, kernel) : portableJsonBytes(s);
}

/** A long string from the encoder's bytes: see {@link kernelJsonBytes}. */
function encodedJsonBytes(s: string, k: JsonEscapeKernel): number {
  let { read, written } = encoder.encodeInto(s, k.window);
  let counted = k.count(written);
  let bytes = 2 + written + (counted >>> 1);
  let leads = counted & 1;
  // Longer than one window (encodeInto stops before a character that does not fit, so a surrogate
  // pair is never split).
  for (let rest = s.slice(read); rest.length > 0; rest = rest.slice(read)) {
    ({ read, written } = encoder.encodeInto(rest, k.window));
    counted = k.count(written);
    bytes += written + (counted >>> 1);
    leads |= counted & 1;
  }
  return leads !== 0 && !isWellFormed(s) ? escapedJsonBytes(s) : bytes;
}

/** {@link kernelJsonBytes} from UTF-16, a window's worth of code units at a time. */
function utf16JsonBytes(s: string, utf16: NonNullable<JsonEscapeKernel['utf16']>, maxUnits: number): number {
  const n = s.length;
  if (n <= maxUnits) {
    utf16.write(s);
    return 2 + utf16.count(n);
  }
  let bytes = 2;
  for (let from = 0; from < n; ) {
    // Never between the halves of a pair: a high surrogate at the end of a part waits for the next.
    const to = safeCutIndex(s, Math.min(n, from + maxUnits));
    utf16.write(s.slice(from, to));
    bytes += utf16.count(to - from);
    from = to;
  }
  return bytes;
}

/** A long string without the kernel: the encoder's bytes checked four at a time in JavaScript. */
function portableJsonBytes(s: string): number {
  // One-byte text usually passes this native check at once; other text fails it at its first
  // non-ASCII character, cheaply, and is encoded instead.
  if (PLAIN_ASCII.test(s)) return s.length + 2;
  let bytes = 2;
  let rest = s;
  sawEF = false;
  while (rest.length > 0) {
    const { read, written } = encoder.encodeInto(rest, windowBytes);
    bytes += written + windowEscapeBytes(written);
    rest = rest.slice(read);
  }
  // The encoder wrote U+FFFD for any lone surrogate (3 bytes) where JSON writes `\udXXX` (6): only
  // text holding an 0xEF byte can have one, and it is settled natively.
  if (sawEF && !isWellFormed(s)) return escapedJsonBytes(s);
  return bytes;
}

/** A string with a lone surrogate: counted from JSON's own text (its escapes are plain ASCII). */
function escapedJsonBytes(s: string): number {
  return utf8ByteLength(JSON.stringify(s));
}
