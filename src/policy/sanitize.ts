/**
 * The three sanitisation layers of spec 000 §6: input (`sanitizeField` for user-provided data),
 * output (strip HTML, limit lengths, escape Markdown, drop credentials) and logging (redact through
 * an injected redactor, which the secret scanner provides).
 */
import { expectOptions, expectString, kindOf } from '../args.ts';
import { CtxgateError, invalidParams } from '../errors.ts';
import { formatPath } from '../store/json-safety.ts';
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
// ("Trojan Source") or to smuggle instructions past a reviewer. The joiners (U+200C, U+200D) are
// handled apart: see JOINER.
const INVISIBLE = /[\u061C\u200B\u200E\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;
// Zero-width non-joiner and joiner where writing needs them: between letters of the scripts whose
// letters join or form conjuncts (Persian's `می‌خواهم`, Hindi's half forms), and the joiner inside
// an emoji sequence (👨‍👩‍👧, 🏳️‍🌈). Anywhere else (between Latin letters, `pass\u200Dword`)
// they only hide text, and are removed.
const JOINING_LETTER = /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Myanmar}\p{Script=Khmer}\p{Script=Tibetan}]/u;
const JOINER = /(?<=([\p{L}\p{M}\p{Extended_Pictographic}\u{FE0F}\u{1F3FB}-\u{1F3FF}])?)[\u200C\u200D](?=(\p{L}|\p{Extended_Pictographic})?)/gu;
const EMOJI_BEFORE = /[\p{Extended_Pictographic}\u{FE0F}\u{1F3FB}-\u{1F3FF}]/u;
const EMOJI = /\p{Extended_Pictographic}/u;
const MARK = /\p{M}/u;

/** A joiner kept or removed by what stands on either side of it (see JOINER). */
function joinerInContext(joiner: string, before: string | undefined, after: string | undefined): string {
  if (before === undefined || after === undefined) return '';
  if (joiner === '\u200D' && EMOJI_BEFORE.test(before) && EMOJI.test(after)) return joiner;
  return (JOINING_LETTER.test(before) || MARK.test(before)) && JOINING_LETTER.test(after) ? joiner : '';
}
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Cleans one user-provided field: NFC-normalised, `\r\n` to `\n`, control, bidi and zero-width
 * characters and lone surrogates removed (the zero-width joiners kept where a script or an emoji
 * sequence needs them), trimmed, and cut to `maxLength` (or rejected). Throws INVALID_PARAMS for a
 * non-string.
 */
export function sanitizeField(value: unknown, options: SanitizeFieldOptions = {}): string {
  expectOptions(options);
  const field = options.field ?? 'value';
  expectString(field, 'options.field');
  const max = options.maxLength ?? 1000;
  if (typeof value !== 'string') throw invalidParams(field, `must be a string; got ${value === null ? 'null' : typeof value}`);
  expectInteger(max, 'maxLength', 0);
  let s = value.replace(LONE_SURROGATE, '').normalize('NFC').replace(/\r\n?/g, '\n').replace(CONTROL, '').replace(INVISIBLE, '');
  if (s.includes('\u200C') || s.includes('\u200D')) s = s.replace(JOINER, joinerInContext);
  if (options.multiline === false) s = s.replace(/[\n\t]+/g, ' ');
  s = s.trim();
  const cut = limitChars(s, max);
  if (cut !== s && options.onTooLong === 'reject') {
    throw invalidParams(field, `is longer than ${max} characters; shorten it`, { maxLength: max });
  }
  return cut;
}

// Elements dropped with their content: what they hold is code or markup, never prose.
const BLOCK_NAMES = new Set(['script', 'style', 'iframe', 'object', 'embed', 'noscript', 'template', 'svg', 'math']);
// Tags that end a line of text; each becomes a newline.
const BREAK_NAMES = new Set(['br', '/p', '/div', '/li', '/tr', '/h1', '/h2', '/h3', '/h4', '/h5', '/h6']);
// Longest name in either set (`noscript`, `template`): a longer tag name is neither.
const LONGEST_NAME = 8;
// First characters of those names, lower-cased (`| 0x20`: `/` is 0x2f already).
const NAME_STARTS = new Set([...BLOCK_NAMES, ...BREAK_NAMES].map((name) => name.charCodeAt(0)));
// The end tag of each block element. Module-level and `g` (searched from a lastIndex): stripHtml
// is synchronous, so no two calls share one at the same time.
const END_TAGS = new Map([...BLOCK_NAMES].map((name) => [name, new RegExp(`</${name}\\s*>`, 'gi')]));

const LT = 0x3c;
const GT = 0x3e;
const BANG = 0x21;
const DASH = 0x2d;
const SLASH = 0x2f;
const QUESTION = 0x3f;
const NEWLINE = 0x0a;

/** A character of a tag name as a regex `\b` sees it: ASCII letter, digit or `_`. */
function isWordCode(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39) || c === 0x5f;
}

function isLetterCode(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/**
 * `out[from, to)` with ASCII letters lower-cased (as a case-insensitive RegExp matches names; no
 * other character may stand for one) when it may be a block or break name, by its length and
 * first character, else ''. Called for every `<…` followed by a non-name character, so it rejects
 * cheaply.
 */
function shortName(out: Uint16Array, from: number, to: number): string {
  if (to - from < 2 || to - from > LONGEST_NAME || !NAME_STARTS.has(out[from]! | 0x20)) return '';
  let name = '';
  for (let i = from; i < to; i++) {
    const c = out[i]!;
    name += String.fromCharCode(c >= 0x41 && c <= 0x5a ? c | 0x20 : c);
  }
  return name;
}

/**
 * True when `<` + `out[from, to)` + `>` is a tag: `</?letter…>`, `<!…>` or `<?…?>`. The range never
 * holds `<` or `>` (see stripHtml).
 */
function isTagBody(out: Uint16Array, from: number, to: number): boolean {
  if (to === from) return false;
  const first = out[from]!;
  if (first === BANG) return true;
  if (first === QUESTION) return to - from >= 2 && out[to - 1] === QUESTION;
  return first === SLASH ? to - from >= 2 && isLetterCode(out[from + 1]!) : isLetterCode(first);
}

/**
 * Where the text resumes after a block element whose name ended at `at`: past its end tag, or the
 * end of the text when the opening tag or the element is never closed (it is dropped to the end,
 * as a browser would treat the rest as its content).
 */
function skipBlock(text: string, at: number, name: string): number {
  const gt = text.charCodeAt(at) === GT ? at : text.indexOf('>', at);
  if (gt < 0) return text.length;
  const end = END_TAGS.get(name)!;
  end.lastIndex = gt + 1;
  const m = end.exec(text);
  return m === null ? text.length : m.index + m[0].length;
}

function decodeUnits(out: Uint16Array, length: number): string {
  let s = '';
  // In chunks: one call with the whole array would exceed the engine's argument limit.
  for (let i = 0; i < length; i += 8192) s += String.fromCharCode.apply(null, out.subarray(i, Math.min(length, i + 8192)) as unknown as number[]);
  return s;
}

/**
 * Removes HTML from text meant for a model: comments (`<!--` to `-->`, or to the end), script,
 * style and similar elements (`iframe`, `object`, `embed`, `noscript`, `template`, `svg`, `math`)
 * with their content (an unclosed one to the end of the text), and every other tag (`</?name…>`,
 * `<!…>`, `<?…?>`); line-ending tags (`<br>`, `</p>`, `</div>`, `</li>`, `</tr>`, `</h1>`…) become
 * newlines. A tag that only appears once another tag is removed (`<scr<b>ipt>`) is removed as a
 * tag, without newline and with what follows it kept; one that is never closed is dropped to the
 * end. So the result holds none of this markup, and stripping it again changes nothing. Entities
 * are left as written, so `&lt;script&gt;` can never turn back into a tag. One pass, linear in the
 * length of the text. A `text` that is not a string is INVALID_PARAMS.
 */
export function stripHtml(text: string): string {
  expectString(text, 'text');
  if (!text.includes('<')) return text;
  const n = text.length;
  // The output so far (never longer than the input). Every `<` in it after its last `>` may still
  // start a tag, whatever comes next: `opens` holds their offsets, innermost last. A `>` closes
  // the innermost one when what lies between is a tag; removing it joins the text on both sides,
  // which is how `<scr<b>ipt>` becomes a tag, in one pass instead of removing until nothing changes.
  const out = new Uint16Array(n);
  let length = 0;
  const opens = new Int32Array(n);
  // 1 for a `<` whose text was joined by removing a tag after it: a name it forms from then on is a
  // tag, never the start of an element whose content is dropped (removed comments and elements do
  // not count: they are removed before any tag, as in a browser).
  const joined = new Uint8Array(n);
  let depth = 0;
  // Index in `opens` of the outermost `<br`, `</p`… or joined block element name since the last
  // `>`: the next `>` ends that tag whatever lies between, `<` included (`<br <x>` is one line
  // break, as `<br\b[^>]*>` reads it); `newline` says whether it was a line-ending tag.
  let pending = -1;
  let newline = false;
  // Index in `opens` of the outermost joined block element name: dropped to the end if no `>` comes.
  let unclosed = -1;
  const popTo = (index: number): void => {
    length = opens[index]!;
    depth = index;
    if (depth > 0) joined[depth - 1] = 1;
  };
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (isWordCode(c)) {
      out[length++] = c;
      i++;
      continue;
    }
    if (depth > 0) {
      // Any other character ends the name of the innermost tag.
      const top = depth - 1;
      const name = shortName(out, opens[top]! + 1, length);
      const block = BLOCK_NAMES.has(name);
      if (block && joined[top] === 0) {
        length = opens[top]!;
        depth = top;
        i = skipBlock(text, i, name);
        continue;
      }
      if (block && unclosed < 0) unclosed = top;
      if (pending < 0 && (block || BREAK_NAMES.has(name))) {
        pending = top;
        newline = !block && joined[top] === 0;
      }
    }
    if (c === LT) {
      joined[depth] = 0;
      opens[depth++] = length;
      out[length++] = c;
    } else if (c === GT) {
      if (pending >= 0) {
        popTo(pending);
        if (newline) out[length++] = NEWLINE;
        pending = -1;
        unclosed = -1;
      } else if (depth > 0 && isTagBody(out, opens[depth - 1]! + 1, length)) {
        popTo(depth - 1);
      } else {
        // Not a tag: this `>` stays, and no `<` before it can start one any more.
        out[length++] = c;
        depth = 0;
      }
    } else if (c === DASH && depth > 0 && length - opens[depth - 1]! === 3 && out[length - 2] === BANG && out[length - 1] === DASH) {
      // `<!--`: a comment, to the next `-->` or the end of the text.
      length = opens[--depth]!;
      const end = text.indexOf('-->', i + 1);
      i = end < 0 ? n : end + 3;
      continue;
    } else {
      out[length++] = c;
    }
    i++;
  }
  // A block element still open at the end (`a<script`, or a joined `a<scr<b>ipt x`): dropped to the end.
  if (unclosed >= 0) length = opens[unclosed]!;
  else if (depth > 0 && BLOCK_NAMES.has(shortName(out, opens[depth - 1]! + 1, length))) length = opens[depth - 1]!;
  return decodeUnits(out, length);
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
 * are not affected. `token` is a credential's name but not in a pagination cursor (`nextPageToken`,
 * `NextToken`, `continuationToken`, `syncToken`: an agent needs them to read the next page), a key
 * that is just `tokens` (a model's usage counts, a tokenizer's output) or a tokenizer
 * (`tokenizer`, `tokenization`). Plurals of credentials (`access_tokens`, `apiTokens`) are
 * credentials; a plural after a word of a model's usage report is a count or a breakdown of
 * counts (`prompt_tokens_details`, `completion_tokens_details`, `inputTokens`, `max_tokens`).
 */
export const SENSITIVE_KEY_PATTERN =
  /(?<!(?:page|next|continuation|sync|resume|cursor)[-_]?)(?<=.)token(?!iz|is)(?!s(?<=(?:prompt|completion|input|output|total|cached|cache|reasoning|audio|text|image|max|remaining|used)[-_]?tokens))|^token(?!s$|iz|is)|secret|passw(?:or)?d|authori[sz]ation|api[-_]?key|cookie|credential|private[-_]?key|corp(?:oration)?[-_]?key|session[-_]?key/i;

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

const defaultKeyTest = keyTester(SENSITIVE_KEY_PATTERN);

/**
 * Whether {@link dropSensitiveFields} (with its default pattern) drops the member `key: value`: a
 * credential's name holding a string or an object. For callers that copy data their own way and
 * decide member by member (the MCP adapter).
 */
export function isCredentialField(key: string, value: unknown): boolean {
  return isSensitive(key, value, defaultKeyTest);
}

/**
 * A copy of JSON-like data without credential fields (spec 000 §6 "OAuth tokens: never in tool
 * output"). Keys matching `pattern` with string or object values are removed at any depth.
 * Every key is tested on its own: the `g` and `y` flags are ignored and `pattern.lastIndex` is left
 * as it was. An object shared by several parents is copied once, and stays shared in the copy; an
 * object that contains itself (a cycle) is UNSUPPORTED_VALUE naming the path where it recurs
 * (`details.path`), since no copy of it is finite. A `pattern` that is not a RegExp is
 * INVALID_PARAMS.
 */
export function dropSensitiveFields<T>(value: T, pattern: RegExp = SENSITIVE_KEY_PATTERN): T {
  expectPattern(pattern, 'pattern');
  const test = keyTester(pattern);
  return mapJson(value, (key, v) => (isSensitive(key, v, test) ? DROP : v), (s) => s) as T;
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
 * strings are replaced by `[N chars]`, because an unscanned string may hold a secret. Nesting past
 * 32 levels becomes `[too deep]`, and a reference back to an object being copied (a cycle)
 * becomes `[cycle]`: a log record describes a call and must not fail it. Shared objects are
 * copied once, as by {@link dropSensitiveFields}. A redactor that returns
 * something other than a string is INVALID_PARAMS naming `options.redact`.
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
    (key, v) => (isSensitive(key, v, test) ? '[REDACTED]' : v),
    (s) => logText(s, redact, max),
    // A log record must not fail the call it describes: a back-reference is shown, not followed.
    'mark',
  );
}

/**
 * A string as a log record shows it: through the redactor, whole and then cut to `max` characters
 * (a cut secret no longer matches a rule), or `[N chars]` without one, since an unscanned string
 * may hold a secret.
 */
export function logText(s: string, redact: Redactor | undefined, max: number): string {
  return redact ? limitChars(redactedText(redact, s), max) : `[${s.length} chars]`;
}

/**
 * `redact(s)`, which must be a string: INVALID_PARAMS naming `options.redact` and the kind it
 * returned otherwise (never the value).
 */
export function redactedText(redact: Redactor, s: string): string {
  const out: unknown = redact(s);
  if (typeof out !== 'string') throw invalidParams('options.redact', `must return a string (returned ${kindOf(out)}).`, { expected: 'a string', got: kindOf(out) });
  return out;
}

const DROP = Symbol('drop');

/** What a log record shows where the logged value refers back to itself. */
const CYCLE_MARK = '[cycle]';

/** Deepest nesting copied; below it a value becomes `[too deep]` (log records stay small). */
const MAX_COPY_DEPTH = 32;

/**
 * A copy of JSON-like data with `onEntry` applied to every member (returning {@link DROP} removes
 * it) and `onString` to every other string. Linear in the size of the data: an object shared by
 * several parents (a DAG) is copied once per depth it is met at, and the copies share it too.
 * An object inside itself (a cycle) is UNSUPPORTED_VALUE naming the path where it recurs, as
 * toJsonText reports one (no copy of it would be finite), or with `cycle: 'mark'` (log records)
 * becomes `[cycle]` there.
 */
function mapJson(root: unknown, onEntry: (key: string, value: unknown) => unknown, onString: (s: string) => string, cycle: 'throw' | 'mark' = 'throw'): unknown {
  // The ancestors of the value being copied, and the path to it (for the error only).
  const open = new Set<object>();
  const path: (string | number)[] = [];
  // Copies by depth: below the depth cap the copy of one object differs with the depth it is met
  // at, so a copy is reused only at the same depth (at most MAX_COPY_DEPTH + 1 copies per object).
  const copies: Map<object, unknown>[] = [];
  const visit = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return onString(value);
    if (value === null || typeof value !== 'object') return value;
    if (open.has(value)) {
      if (cycle === 'mark') return CYCLE_MARK;
      throw cycleAt(formatPath('$', path));
    }
    if (depth > MAX_COPY_DEPTH) return '[too deep]';
    const known = (copies[depth] ??= new Map()).get(value);
    if (known !== undefined) return known;
    open.add(value);
    let out: unknown;
    if (Array.isArray(value)) {
      out = value.map((v: unknown, i) => {
        path.push(i);
        const mapped = visit(v, depth + 1);
        path.pop();
        return mapped;
      });
    } else {
      const copy: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) {
        const mapped = onEntry(k, v);
        if (mapped === DROP) continue;
        path.push(k);
        // defineProperty: a `__proto__` key from JSON.parse must stay data, not rewrite the prototype.
        Object.defineProperty(copy, k, {
          value: mapped === v ? visit(v, depth + 1) : mapped,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        path.pop();
      }
      out = copy;
    }
    open.delete(value);
    copies[depth]!.set(value, out);
    return out;
  };
  return visit(root, 0);
}

/** UNSUPPORTED_VALUE: the data holds itself at `path` (details `{ path, what: 'a cycle' }`, as toJsonText). */
function cycleAt(path: string): CtxgateError {
  const shown = path.length > 120 ? `${path.slice(0, 120)}…` : path;
  return new CtxgateError(
    'UNSUPPORTED_VALUE',
    `Cannot copy a cycle at ${shown}: the value refers to itself, and only JSON data can be filtered or logged; remove the back-reference.`,
    { details: { path: path.slice(0, 120), what: 'a cycle' } },
  );
}
