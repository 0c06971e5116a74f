import { described, expectFunction } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { checkedCounter } from './counter.ts';
import type { TokenCounter } from './counter.ts';
import { estimator } from './estimator.ts';

const ELLIPSIS = '...';

/**
 * Cuts checked past the binary search's answer. Counts are not monotone in the prefix (the
 * estimator counts `configurati...` as 4 tokens and `configuration...` as 2), so the search alone
 * can stop short of a longer cut that fits; checking a fixed number more keeps the work at
 * O(log n) counts while making the answer exact whenever at most this many cuts lie past it.
 */
export const TRUNCATE_LOOKAHEAD = 16;

/** Throws INVALID_PARAMS unless `v` is a safe integer. */
export function requireInt(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalidParams(field, `expected an integer, got ${described(v)}.`);
  return v;
}

/**
 * Truncates `text` to fit `budget` tokens (spec 003): cuts after the longest sentence end (`. `,
 * `.\n` or `.\r\n`, keeping the `.`) whose prefix plus `...` fits, else before the longest word
 * boundary that fits, else at the longest grapheme cluster boundary that fits (an emoji, a flag or
 * a letter with its accents is never split), and appends `...`. A budget of 0 means unlimited.
 * The result never exceeds the budget (counted with `counter`, ellipsis included) and is never
 * longer than the input; when not even `...` fits, the result is empty.
 *
 * Counts need not grow with the prefix (the estimator's do not always): each kind of cut is found
 * by a binary search over its positions followed by a check of the next
 * {@link TRUNCATE_LOOKAHEAD} positions, so the choice is exact when at most that many cuts of the
 * kind lie past the search's answer, and the counter is called O(log n) times, never O(n).
 *
 * A `counter` that returns anything but a TokenCount (`undefined`, a bare number,
 * `{ tokens: NaN }`) is INVALID_PARAMS naming `counter`.
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

  // A cut keeps text.slice(0, cut); the ellipsis must not make the result longer than the input.
  const maxCut = text.length - ELLIPSIS.length;
  if (maxCut < 0 || counter(ELLIPSIS).tokens > budget) return '';
  // The binary search and the lookahead may ask about the same cut twice.
  const known = new Map<number, boolean>();
  const fits = (cut: number): boolean => {
    let ok = known.get(cut);
    if (ok === undefined) known.set(cut, (ok = counter(text.slice(0, cut) + ELLIPSIS).tokens <= budget));
    return ok;
  };

  const longestIn = (cuts: readonly number[]): number | undefined =>
    longestFitting(cuts.length, (k) => cuts[k] as number, (k, n) => cuts.slice(k + 1, k + 1 + n), fits);
  const sentence = longestIn(sentenceCuts(text, maxCut));
  if (sentence !== undefined) return text.slice(0, sentence) + ELLIPSIS;
  const word = longestIn(wordCuts(text, maxCut));
  if (word !== undefined) return text.slice(0, word) + ELLIPSIS;

  // Every code unit position, moved back to the start of its grapheme cluster; cut 0 (just the
  // ellipsis) fits, as checked above.
  const clusters = graphemeBoundaries(text);
  const atUnit = (k: number): number => clusters.atOrBefore(k + 1);
  const next = (k: number, n: number): number[] => {
    const out: number[] = [];
    for (let cut = atUnit(k); out.length < n; ) {
      cut = clusters.after(cut);
      if (cut > maxCut) break;
      out.push(cut);
    }
    return out;
  };
  return text.slice(0, longestFitting(maxCut, atUnit, next, fits) ?? 0) + ELLIPSIS;
}

/**
 * The longest cut that fits among `count` ascending cuts (`at(k)`, duplicates allowed): a binary
 * search, as if counts grew with the cut, then the {@link TRUNCATE_LOOKAHEAD} cuts after its
 * answer (`further(k, n)`: up to n cuts after the k-th, ascending; k = -1 for "from the start"),
 * longest first. Undefined when none of the cuts looked at fits.
 */
function longestFitting(
  count: number,
  at: (k: number) => number,
  further: (k: number, n: number) => number[],
  fits: (cut: number) => boolean,
): number | undefined {
  let lo = -1; // the longest cut found to fit so far (-1: none)
  let hi = count - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(at(mid))) lo = mid;
    else hi = mid - 1;
  }
  const more = further(lo, TRUNCATE_LOOKAHEAD);
  for (let i = more.length - 1; i >= 0; i--) if (fits(more[i] as number)) return more[i];
  return lo >= 0 ? at(lo) : undefined;
}

/** Ends of sentences (just after the `.` of `. `, `.\n`, `.\r\n`) up to `maxCut`; a lone leading `.` is not one. */
function sentenceCuts(text: string, maxCut: number): number[] {
  const cuts: number[] = [];
  for (let i = text.indexOf('.', 1); i !== -1 && i + 1 <= maxCut; i = text.indexOf('.', i + 1)) {
    const after = text.charCodeAt(i + 1);
    // CRLF files end their sentences in `.\r\n`; a bare `\r` is not a line end here.
    if (after === 0x20 || after === 0x0a || (after === 0x0d && text.charCodeAt(i + 2) === 0x0a)) cuts.push(i + 1);
  }
  return cuts;
}

// Whitespace a line may break at: no-break spaces (U+00A0, U+2007, U+202F) and the BOM join what
// they separate (`10 km`, `Mr. Smith` typeset with NBSP), so a cut there would split a unit.
const BREAKING_SPACE = /[^\S\u00a0\u2007\u202f\ufeff]/;

/** Starts of whitespace runs after a word (cuts that keep the word, not its trailing space), up to `maxCut`. */
function wordCuts(text: string, maxCut: number): number[] {
  const cuts: number[] = [];
  let prevSpace = true; // nothing before the text: a cut at 0 keeps no word
  for (let i = 0; i <= maxCut && i < text.length; i++) {
    const c = text.charCodeAt(i);
    // ASCII settles most characters without a regex test.
    const space = c < 0x80 ? c === 0x20 || (c >= 0x09 && c <= 0x0d) : BREAKING_SPACE.test(text[i] as string);
    if (space && !prevSpace) cuts.push(i);
    prevSpace = space;
  }
  return cuts;
}

/** Grapheme cluster boundaries of a text, found around a position on demand. */
interface GraphemeBoundaries {
  /** The boundary at or before `index` (`text.length` at or past the end). */
  atOrBefore(index: number): number;
  /** The first boundary after the boundary `cut` (`text.length` at the end). */
  after(cut: number): number;
}

let graphemeSegmenter: Intl.Segmenter | undefined;

/**
 * Grapheme boundaries by `Intl.Segmenter` (Node, Deno, Chromium and workerd all have it), looked
 * up at each call so an engine without it gets {@link approximateBoundaries}. The text is handed to
 * the segmenter once and asked only around the positions the search tries, so a long text costs
 * O(log n) lookups, not a pass over every cluster.
 */
function graphemeBoundaries(text: string): GraphemeBoundaries {
  if (typeof Intl === 'undefined' || typeof Intl.Segmenter !== 'function') return approximateBoundaries(text);
  graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const segments = graphemeSegmenter.segment(text);
  return {
    atOrBefore: (index) => (index >= text.length ? text.length : (segments.containing(Math.max(0, index))?.index ?? 0)),
    after(cut) {
      const s = segments.containing(cut);
      return s === undefined ? text.length : s.index + s.segment.length;
    },
  };
}

// Code points that attach to the one before: combining marks (variation selectors among them),
// the zero-width joiner, emoji skin tones and the tag characters of subdivision flags.
const EXTENDS = /[\p{M}\u200d\u{1f3fb}-\u{1f3ff}\u{e0020}-\u{e007f}]/uy;
const isRegional = (cp: number | undefined): boolean => cp !== undefined && cp >= 0x1f1e6 && cp <= 0x1f1ff;

/**
 * Without `Intl.Segmenter`: the common clusters kept whole (surrogate pairs, CR LF, combining
 * marks, ZWJ emoji sequences, skin tones, tag flags and regional-indicator flag pairs). Hangul
 * jamo and Indic conjunct clusters may still be split here; every supported runtime has the
 * segmenter, so this only guards an engine built without Intl.
 */
function approximateBoundaries(text: string): GraphemeBoundaries {
  /** True when no cluster boundary lies just before `i` (0 < i < length). */
  const joins = (i: number): boolean => {
    const c = text.charCodeAt(i);
    const before = text.charCodeAt(i - 1);
    if (c >= 0xdc00 && c <= 0xdfff && before >= 0xd800 && before <= 0xdbff) return true;
    if (c === 0x0a && before === 0x0d) return true;
    if (before === 0x200d) return true;
    EXTENDS.lastIndex = i;
    if (EXTENDS.test(text)) return true;
    if (!isRegional(text.codePointAt(i))) return false;
    // A flag is a pair of regional indicators: joined to the one before when an odd number precede it.
    let n = 0;
    for (let j = i; j >= 2 && isRegional(text.codePointAt(j - 2)); j -= 2) n++;
    return n % 2 === 1;
  };
  return {
    atOrBefore(index) {
      if (index >= text.length) return text.length;
      let i = Math.max(0, index);
      while (i > 0 && joins(i)) i--;
      return i;
    },
    after(cut) {
      let i = cut + 1;
      while (i < text.length && joins(i)) i++;
      return Math.min(i, text.length);
    },
  };
}
