import { safeCutIndex } from '../encoding/utf16.ts';
import { described, expectFunction } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { checkedCounter } from './counter.ts';
import type { TokenCounter } from './counter.ts';
import { estimator } from './estimator.ts';

const ELLIPSIS = '...';

/** Throws INVALID_PARAMS unless `v` is a safe integer. */
export function requireInt(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalidParams(field, `expected an integer, got ${described(v)}.`);
  return v;
}

/**
 * Truncates `text` to fit `budget` tokens (spec 003): cuts after the last `. ` or `.\n` that fits,
 * else at the last word boundary, else mid-word, and appends `...`. A budget of 0 means
 * unlimited. The result never exceeds the budget (counted with `counter`, ellipsis included) and is
 * never longer than the input; when not even `...` fits, the result is empty. A `counter` that
 * returns anything but a TokenCount (`undefined`, a bare number, `{ tokens: NaN }`) is
 * INVALID_PARAMS naming `counter`.
 *
 * @param counter Token counter; default the core's estimator for o200k_base (needs `await init()`).
 */
export function truncateToTokenBudget(text: string, budget: number, counter: TokenCounter = estimator()): string {
  if (typeof text !== 'string') throw invalidParams('text', 'expected a string.');
  requireInt('budget', budget);
  if (budget < 0) throw invalidParams('budget', `expected 0 (unlimited) or a positive token count, got ${budget}.`);
  expectFunction(counter, 'counter');
  // A NaN or missing count would fail every `<=` and cut the text to nothing without a word.
  counter = checkedCounter(counter, 'counter');
  if (budget === 0 || counter(text).tokens <= budget) return text;

  const fits = (s: string): boolean => counter(s).tokens <= budget;
  // Longest prefix that fits with the ellipsis, by binary search over the cut (counts grow with
  // the prefix; the final candidate is checked again below, so a non-monotone counter stays safe).
  const maxCut = text.length - ELLIPSIS.length;
  if (maxCut < 0 || !fits(ELLIPSIS)) return '';
  let lo = 0;
  let hi = maxCut;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(text.slice(0, safeCutIndex(text, mid)) + ELLIPSIS)) lo = mid;
    else hi = mid - 1;
  }
  const cut = safeCutIndex(text, lo);
  const window = text.slice(0, cut);

  const sentence = Math.max(window.lastIndexOf('. '), window.lastIndexOf('.\n'));
  let end: number;
  if (sentence > 0) end = sentence + 1;
  else {
    const space = Math.max(window.lastIndexOf(' '), window.lastIndexOf('\n'), window.lastIndexOf('\t'));
    end = space > 0 ? space : cut;
  }
  const candidate = text.slice(0, end) + ELLIPSIS;
  if (fits(candidate)) return candidate;
  const hard = window + ELLIPSIS;
  return fits(hard) ? hard : '';
}
