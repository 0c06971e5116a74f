/**
 * Text outputs (logs, command output) cut by lines, bytes and tokens, keeping the head and the
 * tail (where a command's errors usually are) around a marker that says exactly what was left out.
 * Works on whole lines when it can and falls back to characters when a single line is too long
 * (minified files, base64 blobs). With a byte limit only the first and last few kilobytes are
 * examined line by line, so a multi-megabyte output costs little more than one scan.
 */
import { described, expectObject, expectString } from '../args.ts';
import { expectOptionalInteger } from './checks.ts';
import { invalidParams } from '../errors.ts';
import { checkedCounter } from '../tokens/counter.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { estimator } from '../tokens/estimator.ts';
import { jsonStringByteLength, utf8ByteLength } from './bytes.ts';
import { codePointLength, safeCutIndex, safeCutIndexForward } from '../encoding/utf16.ts';

/** Options of {@link truncateText}. At least one limit should be given. */
export interface TruncateTextOptions {
  /** Most lines in the result, the marker line included. */
  maxLines?: number;
  /** Most UTF-8 bytes in the result, the marker included. */
  maxBytes?: number;
  /** Most tokens in the result, as counted by `counter`, the marker included. */
  maxTokens?: number;
  /**
   * Token counter for `maxTokens` and `_meta.omittedTokens`. Default with `maxTokens`: ctxgate's
   * estimator for `o200k_base` (`estimator()`, needs the core loaded with `await loadCore()`); without
   * `maxTokens` and without a counter, no tokens are counted.
   */
  counter?: TokenCounter;
  /** Share of the kept text taken from the head, 0..1 (default 0.5). */
  headRatio?: number;
  /** `utf8` (default), or bytes as the text appears inside a JSON string (escapes included). */
  measure?: 'utf8' | 'json';
}

/** What {@link truncateText} left out. Counts are exact. */
export interface TextTruncationMeta {
  /** Present (and true) only when something was cut. */
  readonly truncated?: true;
  /** `lines` when whole lines were dropped, `chars` when a line had to be cut inside. */
  readonly mode?: 'lines' | 'chars';
  /** Lines in the original (a final newline does not start a new line). */
  readonly totalLines: number;
  /** Original lines present in full in the result. */
  readonly keptLines: number;
  /** Original lines dropped or cut: `totalLines - keptLines`. */
  readonly omittedLines: number;
  /** Code points of the original left out. */
  readonly omittedChars: number;
  /** Tokens of the left-out text, when a counter was given. */
  readonly omittedTokens?: number;
  /** Encoder of `omittedTokens`. */
  readonly tokenEncoder?: string;
}

/** Result of {@link truncateText}. */
export interface TruncatedText {
  readonly text: string;
  readonly meta: TextTruncationMeta;
}

/**
 * Splits into lines, each with its `\n`, so that joining gives back the original exactly. A `text`
 * that is not a string is INVALID_PARAMS.
 */
export function splitLines(text: string): string[] {
  expectString(text, 'text');
  const units: string[] = [];
  let start = 0;
  for (;;) {
    const i = text.indexOf('\n', start);
    if (i === -1) {
      if (start < text.length) units.push(text.slice(start));
      return units;
    }
    units.push(text.slice(start, i + 1));
    start = i + 1;
  }
}

function countNewlines(text: string, from = 0, to = text.length): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Lines of `text[from, to)`, a final newline not starting a new line. */
function countLines(text: string, from = 0, to = text.length): number {
  if (to <= from) return 0;
  return countNewlines(text, from, to) + (text.charCodeAt(to - 1) === 10 ? 0 : 1);
}

/** A text with the whole-text facts computed once, for repeated cuts of the same output. */
export interface PreparedText {
  readonly text: string;
  readonly totalLines: number;
  readonly codePoints: number;
}

/** Computes the facts {@link truncatePrepared} needs about a text. */
export function prepareText(text: string): PreparedText {
  return { text, totalLines: countLines(text), codePoints: codePointLength(text) };
}

/**
 * Cuts `text` to the given limits, keeping head and tail around `… [N lines omitted] …` (or
 * `…[N chars omitted]…` inside a line). Returns the text unchanged, with `truncated` absent, when it
 * already fits. `keptLines + omittedLines === totalLines` always holds. A `text` that is not a
 * string, `options` that is not an object, a limit that is not an integer, or a `counter` that
 * returns anything but a TokenCount is INVALID_PARAMS.
 */
export function truncateText(text: string, options: TruncateTextOptions): TruncatedText {
  expectString(text, 'text');
  expectObject(options, 'options');
  return truncatePrepared(prepareText(text), options);
}

/** {@link truncateText} on a {@link PreparedText}. */
export function truncatePrepared(prepared: PreparedText, options: TruncateTextOptions): TruncatedText {
  const { text, totalLines: n } = prepared;
  const { maxLines, maxBytes, maxTokens } = options;
  const ratio = options.headRatio ?? 0.5;
  expectOptionalInteger(maxLines, 'maxLines', 1);
  expectOptionalInteger(maxBytes, 'maxBytes', 0);
  expectOptionalInteger(maxTokens, 'maxTokens', 0);
  if (options.counter !== undefined && typeof options.counter !== 'function') throw invalidParams('counter', 'must be a TokenCounter function; leave it out to use the built-in estimator');
  const counter = options.counter !== undefined ? checkedCounter(options.counter, 'counter') : maxTokens !== undefined ? estimator() : undefined;
  if (typeof ratio !== 'number' || !(ratio >= 0 && ratio <= 1)) throw invalidParams('headRatio', `must be between 0 and 1; got ${described(ratio)}`);
  const byteSize = options.measure === 'json' ? jsonStringByteLength : utf8ByteLength;
  const fitsSize = (s: string): boolean =>
    (maxBytes === undefined || byteSize(s) <= maxBytes) && (maxTokens === undefined || (counter as TokenCounter)(s).tokens <= maxTokens);

  // Whole text fits? (A byte check can stop early: a text longer than maxBytes code units cannot fit.)
  const maybeFits = maxBytes === undefined || text.length <= maxBytes;
  if ((maxLines === undefined || n <= maxLines) && maybeFits && fitsSize(text)) {
    return { text, meta: { totalLines: n, keptLines: n, omittedLines: 0, omittedChars: 0 } };
  }

  const kHi = Math.min(n - 1, maxLines === undefined ? n - 1 : maxLines - 1);
  const split = (k: number): [number, number] => {
    const h = Math.min(k, Math.ceil(k * ratio));
    return [h, k - h];
  };
  // Lines from each end, only as many as could fit: with a byte limit, scanning stops past it.
  const head = collect(text, kHi, maxBytes, byteSize, 'head');
  const tail = collect(text, kHi, maxBytes, byteSize, 'tail');
  const marker = (omitted: number, t: number) => `… [${omitted} lines omitted] …${t > 0 ? '\n' : ''}`;
  const fitsLines = (k: number): boolean => {
    const [h, t] = split(k);
    if (h > head.units.length || t > tail.units.length) return false;
    if (maxBytes !== undefined && (head.sizes[h] as number) + (tail.sizes[t] as number) + byteSize(marker(n - k, t)) > maxBytes) return false;
    return maxTokens === undefined || fitsSize(assemble(head.units, h, tail.units, t, marker(n - k, t)));
  };
  if (!fitsLines(0)) {
    // Not even the marker fits: return an empty text, still saying what was dropped.
    return finish(prepared, '', 0, text.length, 'lines', counter);
  }
  let lo = 0;
  let hi = Math.max(0, kHi);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fitsLines(mid)) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) {
    const chars = truncateChars(prepared, ratio, maxBytes, (s) => fitsSize(s) && (maxLines === undefined || countLines(s) <= maxLines));
    if (chars) return finish(prepared, chars.text, chars.headEnd, chars.tailStart, 'chars', counter);
  }
  const [h, t] = split(lo);
  return finish(prepared, assemble(head.units, h, tail.units, t, marker(n - lo, t)), head.offsets[h] as number, text.length - (tail.offsets[t] as number), 'lines', counter);
}

interface Collected {
  /** Units in order of distance from the end they were taken from. */
  readonly units: string[];
  /** `sizes[k]`: bytes of the first k units. */
  readonly sizes: number[];
  /** `offsets[k]`: code units of the first k units. */
  readonly offsets: number[];
}

function collect(text: string, max: number, maxBytes: number | undefined, size: (s: string) => number, from: 'head' | 'tail'): Collected {
  const units: string[] = [];
  const sizes = [0];
  const offsets = [0];
  let pos = from === 'head' ? 0 : text.length;
  while (units.length < max && (from === 'head' ? pos < text.length : pos > 0)) {
    let unit: string;
    if (from === 'head') {
      const i = text.indexOf('\n', pos);
      const end = i === -1 ? text.length : i + 1;
      unit = text.slice(pos, end);
      pos = end;
    } else {
      const searchFrom = text.charCodeAt(pos - 1) === 10 ? pos - 2 : pos - 1;
      const start = searchFrom < 0 ? 0 : text.lastIndexOf('\n', searchFrom) + 1;
      unit = text.slice(start, pos);
      pos = start;
    }
    units.push(unit);
    sizes.push((sizes[sizes.length - 1] as number) + size(unit));
    offsets.push((offsets[offsets.length - 1] as number) + unit.length);
    if (maxBytes !== undefined && (sizes[sizes.length - 1] as number) > maxBytes) break;
  }
  return { units, sizes, offsets };
}

function assemble(head: readonly string[], h: number, tail: readonly string[], t: number, marker: string): string {
  let out = head.slice(0, h).join('') + marker;
  for (let i = t - 1; i >= 0; i--) out += tail[i];
  return out;
}

/** Largest head+tail cut inside the text that fits, or undefined when only the marker fits. */
function truncateChars(
  prepared: PreparedText,
  ratio: number,
  maxBytes: number | undefined,
  fits: (s: string) => boolean,
): { text: string; headEnd: number; tailStart: number } | undefined {
  const { text } = prepared;
  const build = (keep: number) => {
    const headEnd = safeCutIndex(text, Math.ceil(keep * ratio));
    const tailStart = safeCutIndexForward(text, text.length - (keep - headEnd));
    const headText = text.slice(0, headEnd);
    const tailText = text.slice(tailStart);
    const omitted = prepared.codePoints - codePointLength(headText) - codePointLength(tailText);
    return { text: `${headText}…[${omitted} chars omitted]…${tailText}`, headEnd, tailStart };
  };
  let lo = 0;
  // Every code unit costs at least one byte, so more than maxBytes of them never fit.
  let hi = Math.min(text.length - 1, maxBytes ?? text.length);
  if (!fits(build(0).text)) return undefined;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(build(mid).text)) lo = mid;
    else hi = mid - 1;
  }
  return lo > 0 ? build(lo) : undefined;
}

function finish(
  prepared: PreparedText,
  text: string,
  headEnd: number,
  tailStart: number,
  mode: 'lines' | 'chars',
  counter: TokenCounter | undefined,
): TruncatedText {
  const original = prepared.text;
  // A line is kept when it lies wholly in the head or wholly in the tail.
  const headLines = countNewlines(original, 0, headEnd);
  let tailLines = 0;
  if (tailStart < original.length) {
    if (tailStart === 0 || original.charCodeAt(tailStart - 1) === 10) tailLines = countLines(original, tailStart);
    else {
      const nl = original.indexOf('\n', tailStart);
      tailLines = nl === -1 ? 0 : countLines(original, nl + 1);
    }
  }
  const kept = headLines + tailLines;
  const omittedChars = prepared.codePoints - codePointLength(original.slice(0, headEnd)) - codePointLength(original.slice(tailStart));
  let tokens: { omittedTokens: number; tokenEncoder: string } | undefined;
  if (counter) {
    const c = counter(original.slice(headEnd, tailStart));
    tokens = { omittedTokens: c.tokens, tokenEncoder: c.encoder };
  }
  return {
    text,
    meta: {
      truncated: true,
      mode,
      totalLines: prepared.totalLines,
      keptLines: kept,
      omittedLines: prepared.totalLines - kept,
      omittedChars,
      ...tokens,
    },
  };
}
