/**
 * The three sanitisation layers of spec 000 §6: input (`sanitizeField` for user-provided data),
 * output (strip HTML, limit lengths, escape Markdown, drop credentials) and logging (redact through
 * an injected redactor, which the secret scanner provides).
 */
import { expectOptions, expectString } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { expectInteger, expectOptionalFunction, expectOptionalInteger, expectPattern } from './checks.ts';
import { limitChars } from './text-limits.ts';

/** Turns text into text with secrets replaced (e.g. the secret scanner's `redact`). */
export type Redactor = (text: string) => string;

/** Options of {@link sanitizeField}. */
export interface SanitizeFieldOptions {
  /** Field name for error messages (default `value`). */
  field?: string;
  /** Longest result in characters (default 1,000). */
  maxLength?: number;
  /** `truncate` (default) cuts with `…`; `reject` throws INVALID_PARAMS. */
  onTooLong?: 'truncate' | 'reject';
  /** Keep line breaks and tabs (default true); otherwise they become spaces. */
  multiline?: boolean;
}

// C0 controls except tab/newline, DEL, C1 controls.
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
// Bidi overrides/isolates and zero-width characters: invisible, and used to disguise text
// ("Trojan Source") or to smuggle instructions past a reviewer.
const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Cleans one user-provided field: NFC-normalised, `\r\n` to `\n`, control, bidi and zero-width
 * characters and lone surrogates removed, trimmed, and cut to `maxLength` (or rejected). Throws
 * INVALID_PARAMS for a non-string.
 */
export function sanitizeField(value: unknown, options: SanitizeFieldOptions = {}): string {
  expectOptions(options);
  const field = options.field ?? 'value';
  expectString(field, 'options.field');
  const max = options.maxLength ?? 1000;
  if (typeof value !== 'string') throw invalidParams(field, `must be a string; got ${value === null ? 'null' : typeof value}`);
  expectInteger(max, 'maxLength', 0);
  let s = value.replace(LONE_SURROGATE, '').normalize('NFC').replace(/\r\n?/g, '\n').replace(CONTROL, '').replace(INVISIBLE, '');
  if (options.multiline === false) s = s.replace(/[\n\t]+/g, ' ');
  s = s.trim();
  const cut = limitChars(s, max);
  if (cut !== s && options.onTooLong === 'reject') {
    throw invalidParams(field, `is longer than ${max} characters; shorten it`, { maxLength: max });
  }
  return cut;
}

const BLOCK_ELEMENTS = /<(script|style|iframe|object|embed|noscript|template|svg|math)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const UNCLOSED_BLOCK = /<(script|style|iframe|object|embed|noscript|template|svg|math)\b[\s\S]*$/i;
const BREAKS = /<(br|\/p|\/div|\/li|\/tr|\/h[1-6])\b[^>]*>/gi;
const TAG = /<\/?[A-Za-z][^<>]*>|<![^<>]*>|<\?[^<>]*\?>/g;

/**
 * Removes HTML from text meant for a model: comments, and script/style (and similar) elements with
 * their content, then every other tag; line-ending tags become newlines. Entities are left as
 * written, so `&lt;script&gt;` can never turn back into a tag. A `text` that is not a string is
 * INVALID_PARAMS.
 */
export function stripHtml(text: string): string {
  expectString(text, 'text');
  let s = text.replace(/<!--[\s\S]*?(-->|$)/g, '');
  let prev: string;
  do {
    prev = s;
    s = s.replace(BLOCK_ELEMENTS, '');
  } while (s !== prev);
  s = s.replace(UNCLOSED_BLOCK, '').replace(BREAKS, '\n');
  // Repeat: removing one tag can join the halves of another (`<scr<b>ipt>`).
  do {
    prev = s;
    s = s.replace(TAG, '');
  } while (s !== prev);
  return s;
}

/** Cuts text to at most `maxChars` characters (code points), ending with `…` when cut. */
export function limitLength(text: string, maxChars: number): string {
  expectString(text, 'text');
  expectInteger(maxChars, 'maxChars', 0);
  return limitChars(text, maxChars);
}

/**
 * Escapes Markdown so data renders as the literal text: inline markers (`\ \` * _ [ ] < > | ~`)
 * everywhere, and block markers (`#`, `+`, `-`, `>`, `=`, ordered-list `1.`) only at the start of a
 * line, where they have meaning. Plain prose such as "3.5 - 4.0" is left readable. A `text` that
 * is not a string is INVALID_PARAMS.
 */
export function escapeMarkdown(text: string): string {
  expectString(text, 'text');
  return text
    .replace(/[\\`*_[\]<>|~]/g, '\\$&')
    .replace(/^([ \t]*)([#+\-=])/gm, '$1\\$2')
    .replace(/^([ \t]*\d+)([.)])/gm, '$1\\$2');
}

/** Options of {@link sanitizeOutput}. */
export interface SanitizeOutputOptions {
  /** Remove HTML (default true). */
  stripHtml?: boolean;
  /** Escape Markdown (default false: most tool text is meant to render). */
  escapeMarkdown?: boolean;
  /** Cut to this many characters after the other steps. */
  maxLength?: number;
}

/** Output sanitisation of one text field: strip HTML, escape Markdown, limit length. */
export function sanitizeOutput(text: string, options: SanitizeOutputOptions = {}): string {
  expectString(text, 'text');
  expectOptions(options);
  expectOptionalInteger(options.maxLength, 'options.maxLength', 0);
  let s = options.stripHtml === false ? text : stripHtml(text);
  if (options.escapeMarkdown) s = escapeMarkdown(s);
  return options.maxLength === undefined ? s : limitLength(s, options.maxLength);
}

/**
 * Keys whose string values are credentials: OAuth and API tokens, secrets, passwords, cookies,
 * authorization headers, private and corporation keys. Numbers under such keys (token counts)
 * are not affected.
 */
export const SENSITIVE_KEY_PATTERN = /token|secret|passw(?:or)?d|authori[sz]ation|api[-_]?key|cookie|credential|private[-_]?key|corp(?:oration)?[-_]?key|session[-_]?key/i;

/**
 * A test of one key against `pattern` that gives the same answer for every key. A `g` or `y` flag
 * makes `RegExp#test` resume at `lastIndex` from the previous key, so `/token/gi` would let every
 * other credential through; a flagless copy is made once instead, which also leaves the caller's
 * RegExp (and its `lastIndex`) untouched. A RegExp-like object that is not a RegExp (no `source`
 * and `flags`) is tested as it is.
 */
function keyTester(pattern: RegExp): (key: string) => boolean {
  const isRegExp = pattern instanceof RegExp || Object.prototype.toString.call(pattern) === '[object RegExp]';
  if (!isRegExp || typeof pattern.source !== 'string' || typeof pattern.flags !== 'string') return (key) => pattern.test(key);
  const stateless = /[gy]/.test(pattern.flags) ? new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, '')) : pattern;
  return (key) => stateless.test(key);
}

function isSensitive(key: string, value: unknown, test: (key: string) => boolean): boolean {
  return test(key) && value !== null && (typeof value === 'string' || typeof value === 'object');
}

/**
 * A copy of JSON-like data without credential fields (spec 000 §6 "OAuth tokens: never in tool
 * output"). Keys matching `pattern` with string or object values are removed at any depth.
 * Every key is tested on its own: the `g` and `y` flags are ignored and `pattern.lastIndex` is left
 * as it was. A `pattern` that is not a RegExp is INVALID_PARAMS.
 */
export function dropSensitiveFields<T>(value: T, pattern: RegExp = SENSITIVE_KEY_PATTERN): T {
  expectPattern(pattern, 'pattern');
  const test = keyTester(pattern);
  return mapJson(value, 0, (key, v) => (isSensitive(key, v, test) ? DROP : v), (s) => s) as T;
}

/** Options of {@link redactForLog}. */
export interface RedactForLogOptions {
  /** Replaces secrets inside strings (the secret scanner's redactor). */
  redact?: Redactor;
  /**
   * Keys whose values are replaced by `[REDACTED]` (default {@link SENSITIVE_KEY_PATTERN}). Each key
   * is tested on its own: `g` and `y` flags are ignored and `lastIndex` is left as it was.
   */
  sensitiveKeys?: RegExp;
  /** Longest string kept in a log record (default 200 characters). */
  maxStringLength?: number;
}

/**
 * A log-safe copy of JSON-like data: values under credential keys become `[REDACTED]`, every other
 * string passes through the injected redactor and is cut to `maxStringLength`. Without a redactor,
 * strings are replaced by `[N chars]`, because an unscanned string may hold a secret.
 */
export function redactForLog<T>(value: T, options: RedactForLogOptions = {}): unknown {
  expectOptions(options);
  const pattern = options.sensitiveKeys ?? SENSITIVE_KEY_PATTERN;
  expectPattern(pattern, 'options.sensitiveKeys');
  const max = options.maxStringLength ?? 200;
  expectOptionalInteger(max, 'options.maxStringLength', 0);
  const redact = options.redact;
  expectOptionalFunction(redact, 'options.redact');
  const test = keyTester(pattern);
  return mapJson(
    value,
    0,
    (key, v) => (isSensitive(key, v, test) ? '[REDACTED]' : v),
    (s) => (redact ? limitChars(redact(s), max) : `[${s.length} chars]`),
  );
}

const DROP = Symbol('drop');

function mapJson(
  value: unknown,
  depth: number,
  onEntry: (key: string, value: unknown) => unknown,
  onString: (s: string) => string,
): unknown {
  if (typeof value === 'string') return onString(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 32) return '[too deep]';
  if (Array.isArray(value)) return value.map((v) => mapJson(v, depth + 1, onEntry, onString));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    const mapped = onEntry(k, v);
    if (mapped === DROP) continue;
    // defineProperty: a `__proto__` key from JSON.parse must stay data, not rewrite the prototype.
    Object.defineProperty(out, k, {
      value: mapped === v ? mapJson(v, depth + 1, onEntry, onString) : mapped,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}
