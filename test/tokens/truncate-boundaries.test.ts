import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { estimateTokens } from '../../src/core/tokens.ts';
import { TRUNCATE_LOOKAHEAD, truncateToTokenBudget } from '../../src/tokens/truncate.ts';
import type { TokenCounter } from '../../src/tokens/counter.ts';

beforeAll(async () => {
  await initCore();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The real default counter (ctxgate-est/1, o200k_base), as truncateToTokenBudget uses it. */
const est: TokenCounter = (text) => estimateTokens(text);
/** One token per 4 UTF-16 units, rounded up (the spec's char/4). */
const quarter: TokenCounter = (text) => ({ tokens: Math.ceil(text.length / 4), exact: false, encoder: 'test/char4' });
/** One token per UTF-16 unit: a budget is exactly a length. */
const units: TokenCounter = (text) => ({ tokens: text.length, exact: false, encoder: 'test/units' });
/** Words plus a bonus for every 'x' (budget.test.ts's counter); the `...` counts as a word after a space. */
const words: TokenCounter = (text) => ({
  tokens: (text.match(/\S+/g) ?? []).length + (text.match(/x/g) ?? []).length,
  exact: false,
  encoder: 'test/words',
});

/** `counter`, counting its calls and the characters it was given. */
function metered(counter: TokenCounter): { counter: TokenCounter; calls: number; chars: number } {
  const m = {
    calls: 0,
    chars: 0,
    counter: (text: string) => {
      m.calls++;
      m.chars += text.length;
      return counter(text);
    },
  };
  return m;
}

// Reference definitions, written independently of the implementation, for brute force.
const isBreakingSpace = (c: string): boolean => /\s/.test(c) && !/[\u00a0\u2007\u202f\ufeff]/.test(c);
function refSentenceCuts(text: string): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const rest = text.slice(i + 1);
    if (text[i] === '.' && (rest.startsWith(' ') || rest.startsWith('\n') || rest.startsWith('\r\n'))) cuts.push(i + 1);
  }
  return cuts.filter((c) => c + 3 <= text.length);
}
function refWordCuts(text: string): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < text.length; i++) if (isBreakingSpace(text[i] as string) && !isBreakingSpace(text[i - 1] as string)) cuts.push(i);
  return cuts.filter((c) => c + 3 <= text.length);
}
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
function graphemeStarts(text: string): Set<number> {
  const starts = new Set<number>([text.length]);
  for (const s of segmenter.segment(text)) starts.add(s.index);
  return starts;
}

/** Pieces with tricky counts and boundaries; each adds at most one sentence end and one word cut. */
const piece = fc.constantFrom(
  'word',
  'configuration',
  'configurati',
  'e.g.',
  'Mr.',
  '日本語',
  'x',
  ' ',
  '\n',
  '\t',
  '\r\n',
  '\u00a0',
  '. ',
  '.\n',
  '.\r\n',
  '.',
  'é',
  'e\u0301',
  '😀',
  '👨‍👩‍👧',
  '🇫🇷',
  'const x = 1;',
);
// At most 16 pieces: at most TRUNCATE_LOOKAHEAD cuts of each kind, where the choice is exact.
const shortText = fc.array(piece, { maxLength: TRUNCATE_LOOKAHEAD }).map((a) => a.join(''));

describe('truncateToTokenBudget: the boundary it cuts at', () => {
  it('cuts at a sentence end whose prefix plus ... is exactly the budget (the period is the last kept character)', () => {
    expect(truncateToTokenBudget('First sentence here. Second sentence is here. Third one ends.', 4)).toBe('First sentence here....');
    expect(estimateTokens('First sentence here....').tokens).toBe(4);
    expect(truncateToTokenBudget('Alpha beta gamma.\nDelta epsilon zeta eta theta.', 4)).toBe('Alpha beta gamma....');
    // With a counter where the budget is a length: 20 characters + '...' = 23.
    expect(truncateToTokenBudget('First sentence here. Second sentence follows.', 23, units)).toBe('First sentence here....');
  });

  it('counts .\\r\\n as a sentence end and never keeps the \\r of a CRLF', () => {
    expect(truncateToTokenBudget('One two.\r\nThree four five six seven', 4, quarter)).toBe('One two....');
    expect(truncateToTokenBudget('One two three\r\nfour five six seven eight', 4, quarter)).toBe('One two three...');
  });

  it('finds the longest word boundary that fits though counts are not monotone in the prefix', () => {
    // ctxgate-est/1 counts `configurati...` as 4 tokens and `configuration...` as 2.
    expect(estimateTokens('configurati...').tokens).toBeGreaterThan(2);
    expect(estimateTokens('configuration...').tokens).toBe(2);
    expect(truncateToTokenBudget('configuration e.g. 日本語 Mr..', 2)).toBe('configuration...');
    // A counter that finds one long prefix cheap: the binary search settles on 'a...', the
    // lookahead past it finds the longer cut that fits.
    const ragged: TokenCounter = (t) => ({ tokens: t.endsWith('long...') ? 1 : t.length, exact: false, encoder: 'test/ragged' });
    expect(truncateToTokenBudget('a b c d e f g long h i j', 5, ragged)).toBe('a b c d e f g long...');
  });

  it('never splits a grapheme cluster when it has to cut inside a word', () => {
    const family = '👨‍👩‍👧‍👦'; // 11 UTF-16 units, one cluster
    expect(truncateToTokenBudget(family.repeat(3), 4, quarter)).toBe(`${family}...`);
    expect(truncateToTokenBudget('cafe\u0301cafe\u0301cafe\u0301', 3, quarter)).toBe('cafe\u0301caf...');
    expect(truncateToTokenBudget('🇫🇷🇩🇪🇯🇵🇮🇹', 2, quarter)).toBe('🇫🇷...');
    expect(truncateToTokenBudget('👍🏽👍🏽👍🏽👍🏽', 2, quarter)).toBe('👍🏽...');
  });

  it('keeps clusters whole without Intl.Segmenter too (the fallback)', () => {
    const family = '👨‍👩‍👧‍👦';
    vi.stubGlobal('Intl', Object.create(Intl, { Segmenter: { value: undefined } }));
    expect(truncateToTokenBudget(family.repeat(3), 4, quarter)).toBe(`${family}...`);
    expect(truncateToTokenBudget('cafe\u0301cafe\u0301cafe\u0301', 3, quarter)).toBe('cafe\u0301caf...');
    expect(truncateToTokenBudget('🇫🇷🇩🇪🇯🇵🇮🇹', 2, quarter)).toBe('🇫🇷...');
    const cluster = fc.constantFrom('a', '字', 'e\u0301', 'a\u0301\u0302', family, '👍🏽', '🇫🇷', '❤️', '🏴\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f}', '😀');
    fc.assert(
      fc.property(fc.array(cluster, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 30 }), (parts, budget) => {
        const text = parts.join('');
        const out = truncateToTokenBudget(text, budget, quarter);
        if (out === text || out === '') return;
        expect(graphemeStarts(text).has(out.length - 3)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });
});

describe('truncateToTokenBudget: properties', () => {
  it('brute force on short texts: the longest fitting sentence end, else the longest fitting word end, else a cluster boundary', () => {
    for (const counter of [est, words]) {
      fc.assert(
        fc.property(shortText, fc.integer({ min: 1, max: 12 }), (text, budget) => {
          const out = truncateToTokenBudget(text, budget, counter);
          const fits = (s: string): boolean => counter(s).tokens <= budget;
          if (fits(text)) return void expect(out).toBe(text);
          if (text.length < 3 || !fits('...')) return void expect(out).toBe('');
          const cut = (c: number): string => text.slice(0, c) + '...';
          const sentence = refSentenceCuts(text).filter((c) => fits(cut(c)));
          if (sentence.length > 0) return void expect(out).toBe(cut(Math.max(...sentence)));
          const word = refWordCuts(text).filter((c) => fits(cut(c)));
          if (word.length > 0) return void expect(out).toBe(cut(Math.max(...word)));
          expect(out.endsWith('...')).toBe(true);
          expect(text.startsWith(out.slice(0, -3))).toBe(true);
          expect(graphemeStarts(text).has(out.length - 3)).toBe(true);
          expect(fits(out)).toBe(true);
        }),
        { numRuns: 1500 },
      );
    }
  });

  it('with the real estimator: fits the budget, a prefix plus ..., never longer, budget 0 unchanged', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.array(piece, { maxLength: 80 }).map((a) => a.join('')),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 0, max: 40 }), (t, budget) => {
        const out = truncateToTokenBudget(t, budget);
        expect(out.length).toBeLessThanOrEqual(t.length);
        if (budget === 0) expect(out).toBe(t);
        if (out === t) return;
        expect(estimateTokens(out).tokens).toBeLessThanOrEqual(budget);
        if (out === '') return;
        expect(out.endsWith('...')).toBe(true);
        expect(t.startsWith(out.slice(0, -3))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('truncateToTokenBudget: work', () => {
  // Deterministic measures, not time: counter calls, and characters handed to the counter, must
  // stay O(log n) calls of at most n characters each (a scan of every cut would be ~n calls).
  const bound = (n: number): number => 3 * (Math.ceil(Math.log2(n)) + TRUNCATE_LOOKAHEAD) + 3;

  it('cuts a text of 60,000 sentences with O(log n) counter calls', () => {
    const text = 'This is sentence number forty-two here. '.repeat(60_000);
    const m = metered(quarter);
    const out = truncateToTokenBudget(text, 1000, m.counter);
    expect(out).toBe('This is sentence number forty-two here. '.repeat(98) + 'This is sentence number forty-two here....');
    expect(m.calls).toBeLessThanOrEqual(bound(60_000));
    expect(m.chars).toBeLessThanOrEqual(m.calls * text.length);
  });

  it('falls back to words, then to characters, with O(log n) calls each (no sentence end, no space)', () => {
    const wordsOnly = 'lorem ipsum dolor sit amet '.repeat(40_000);
    const m = metered(words);
    expect(truncateToTokenBudget(wordsOnly, 7, m.counter)).toBe('lorem ipsum dolor sit amet lorem ipsum...');
    expect(m.calls).toBeLessThanOrEqual(2 * bound(wordsOnly.length));
    const blob = '👍🏽abc'.repeat(200_000);
    const n = metered(quarter);
    expect(truncateToTokenBudget(blob, 3, n.counter)).toBe('👍🏽abc...');
    expect(n.calls).toBeLessThanOrEqual(3 * bound(blob.length));
  });
});
