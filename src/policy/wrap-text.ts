/**
 * The text counterpart of `wrapOutput`: a log or command output becomes `{ output, _meta }` whose
 * whole JSON (escapes and `_meta` included) fits the byte limit, with the text's head and tail kept.
 */
import { expectObject, expectOptions, expectString } from '../args.ts';
import { expectInteger } from './checks.ts';
import { invalidParams } from '../errors.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { toJsonText, utf8ByteLength } from './bytes.ts';
import { isoTimestamp, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { DEFAULT_TOOL_LIMITS } from './limits.ts';
import type { ToolLimits } from './limits.ts';
import type { OutputMeta } from './meta.ts';
import { prepareText, truncatePrepared } from './truncate-text.ts';
import type { TextTruncationMeta } from './truncate-text.ts';

/** Options of {@link wrapTextOutput}. */
export interface WrapTextOptions {
  /** Key of the text in the output (default `output`). */
  key?: string;
  /** The tool's declared limits; only `maxBytes` is used. */
  limits?: ToolLimits;
  /** Most bytes of the serialised output (default `limits.maxBytes`, else 10 KB). */
  maxBytes?: number;
  /** Most lines of the text, marker included. */
  maxLines?: number;
  /** Most tokens of the text, marker included (needs `counter`). */
  maxTokens?: number;
  /**
   * Token counter for `maxTokens` and `_meta.omittedTokens`. Default with `maxTokens`: ctxgate's
   * estimator (`estimator()`, needs `await loadCore()`); otherwise no tokens are counted.
   */
  counter?: TokenCounter;
  /** Share of kept text from the head (default 0.5). */
  headRatio?: number;
  /** Clock for `_meta.timestamp`. */
  clock?: Clock;
}

/** `_meta` of a text output: `count` is lines kept, `truncatedFrom` the original line count. */
export type TextOutputMeta = OutputMeta & Partial<Omit<TextTruncationMeta, 'truncated'>>;

/**
 * Wraps a text output as `{ [key]: text, _meta }`, cutting the text (head and tail kept) so the
 * serialised JSON fits `maxBytes`, and to `maxLines`/`maxTokens` when given. `_meta.count` is the
 * number of whole lines shown and, when cut, `truncatedFrom` the original line count, with
 * `omittedLines`, `omittedChars` (and `omittedTokens` with a counter).
 */
export function wrapTextOutput(text: string, options: WrapTextOptions = {}): { [key: string]: unknown; _meta: TextOutputMeta } {
  if (typeof text !== 'string') throw invalidParams('text', `must be a string; got ${text === null ? 'null' : typeof text}`);
  expectOptions(options);
  if (options.limits !== undefined && options.limits !== null) expectObject(options.limits, 'options.limits');
  const key = options.key ?? 'output';
  expectString(key, 'options.key');
  const maxBytes = options.maxBytes ?? options.limits?.maxBytes ?? DEFAULT_TOOL_LIMITS.maxBytes;
  expectInteger(maxBytes, 'maxBytes', 1);
  const timestamp = isoTimestamp(options.clock ?? systemClock);
  const prepared = prepareText(text);
  const build = (budget: number) => {
    const cut = truncatePrepared(prepared, {
      maxBytes: Math.max(0, budget),
      measure: 'json',
      ...(options.maxLines !== undefined ? { maxLines: options.maxLines } : {}),
      ...(options.maxTokens !== undefined ? { maxTokens: options.maxTokens } : {}),
      ...(options.counter ? { counter: options.counter } : {}),
      ...(options.headRatio !== undefined ? { headRatio: options.headRatio } : {}),
    });
    const m = cut.meta;
    const meta: TextOutputMeta = m.truncated
      ? { count: m.keptLines, truncated: true, truncatedFrom: m.totalLines, timestamp, ...withoutTruncated(m) }
      : { count: m.totalLines, timestamp };
    return { [key]: cut.text, _meta: meta };
  };
  // The envelope is what an (almost) empty text costs; the rest of the limit goes to the text.
  const zero = build(0);
  const zeroText = zero[key] as string;
  let budget = maxBytes - (utf8ByteLength(toJsonText(zero)) - (utf8ByteLength(JSON.stringify(zeroText)) - 2));
  for (let i = 0; i < 8; i++) {
    const out = build(budget);
    const size = utf8ByteLength(toJsonText(out));
    if (size <= maxBytes) return out;
    budget -= size - maxBytes;
  }
  if (utf8ByteLength(toJsonText(zero)) <= maxBytes) return zero;
  throw invalidParams('maxBytes', `${maxBytes} bytes cannot hold even an empty text output with its _meta; use at least 256`);
}

function withoutTruncated(m: TextTruncationMeta): Omit<TextTruncationMeta, 'truncated'> {
  const { truncated: _t, ...rest } = m;
  return rest;
}
