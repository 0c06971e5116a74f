import { createCtxgate, isCtxgateError } from '../../src/index.ts';
import { initCore, resetCore } from '../../src/core/core.ts';
import { estimateTokens, ESTIMATOR_ID } from '../../src/core/tokens.ts';
import { countTokens, exactCounter } from '../../src/tokens/exact.ts';
import { estimator } from '../../src/tokens/estimator.ts';
import { truncateToTokenBudget } from '../../src/tokens/truncate.ts';
import { applyContextBudget } from '../../src/tokens/budget.ts';
import { decideBudget } from '../../src/tokens/limits.ts';
import type { Harness } from './harness.ts';

/** Exact counts from js-tiktoken 1.0.21 (checked against gpt-tokenizer and tiktoken). */
export const EXACT_KNOWN: readonly [string, number, number][] = [
  // text, o200k_base, cl100k_base
  ['hello world', 2, 2],
  ['The quick brown fox jumps over the lazy dog.', 10, 10],
  ['function add(a, b) {\n  return a + b;\n}\n', 14, 14],
  ['{"name":"ctxgate","version":"0.1.0","tags":["a","b"]}', 21, 20],
  ['日本語のテキストです。', 8, 10],
  ['Привет, мир! Как дела?', 8, 12],
  ['مرحبا بالعالم', 4, 10],
  ['नमस्ते दुनिया', 5, 13],
  ['<|endoftext|>', 7, 7],
];

/** ctxgate-est/1 golden values: any change to the model or its tables must show up here. */
export const ESTIMATE_GOLDEN: readonly [string, number, number][] = [
  ['hello', 1, 1],
  ['hello world', 2, 2],
  ['The quick brown fox jumps over the lazy dog.', 10, 10],
  ['function add(a, b) {\n  return a + b;\n}\n', 14, 14],
  ['{"name":"ctxgate","version":"0.1.0","tags":["a","b"]}', 21, 20],
  ['日本語のテキストです。', 8, 10],
  ['Привет, мир! Как дела?', 8, 12],
  ['12345678901234567890', 7, 7],
  ['مرحبا بالعالم', 4, 10],
  ['नमस्ते दुनिया', 5, 13],
];

/** Token counting and the budget API, the same in every runtime. */
export function tokensContract({ describe, it, expect, runtime }: Harness): void {
  // The first exact count parses a rank file of megabytes (about a second per encoding in workerd,
  // several on a loaded machine): Vitest's 5 s default cut it short. Deno's runner has no limit
  // and ignores the argument.
  const itLoadingRanks = it as (name: string, fn: () => unknown, timeoutMs?: number) => void;
  const RANKS_TIMEOUT_MS = 60_000;
  describe(`tokens (${runtime})`, () => {
    it('estimator golden values, versioned encoder, empty is 0', async () => {
      await initCore();
      for (const [text, o200k, cl100k] of ESTIMATE_GOLDEN) {
        expect([text, estimateTokens(text, { encoding: 'o200k_base' }).tokens]).toEqual([text, o200k]);
        expect([text, estimateTokens(text, { encoding: 'cl100k_base' }).tokens]).toEqual([text, cl100k]);
      }
      expect(estimateTokens('')).toEqual({ tokens: 0, exact: false, encoder: `${ESTIMATOR_ID}:o200k_base` });
      expect(estimateTokens('x', { encoding: 'cl100k_base' }).encoder).toBe('ctxgate-est/1:cl100k_base');
      expect(estimator({ encoding: 'cl100k_base' })('hello world')).toEqual({ tokens: 2, exact: false, encoder: 'ctxgate-est/1:cl100k_base' });
    });

    itLoadingRanks('exact counts: known answers, offline, through the engine too', async () => {
      for (const [text, o200k, cl100k] of EXACT_KNOWN) {
        expect(await countTokens(text, { encoding: 'o200k_base' })).toEqual({ tokens: o200k, exact: true, encoder: 'o200k_base' });
        expect((await countTokens(text, { encoding: 'cl100k_base' })).tokens).toBe(cl100k);
      }
      const counter = await exactCounter({ encoding: 'cl100k_base' });
      expect(counter('')).toEqual({ tokens: 0, exact: true, encoder: 'cl100k_base' });
      await using cg = await createCtxgate();
      expect(await cg.countTokens('hello world')).toEqual({ tokens: 2, exact: true, encoder: 'o200k_base' });
      expect(await cg.estimateTokens('hello world', { encoding: 'cl100k_base' })).toEqual({ tokens: 2, exact: false, encoder: 'ctxgate-est/1:cl100k_base' });
    }, RANKS_TIMEOUT_MS);

    it('unknown encodings are INVALID_PARAMS, across the engine too', async () => {
      await using cg = await createCtxgate();
      const e = await cg.estimateTokens('x', { encoding: 'p50k_base' as never }).then(
        () => undefined,
        (err: unknown) => err,
      );
      expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
      expect((e as Error).message).toMatch(/o200k_base, cl100k_base/);
    });

    itLoadingRanks('estimates lean high against exact counts on mixed text', async () => {
      await initCore();
      const text = 'ctxgate decides what an agent sees.\n'.repeat(20) + 'const x = [1, 2, 3].map((n) => n * 2);\n'.repeat(20);
      for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
        const exact = (await countTokens(text, { encoding })).tokens;
        const est = estimateTokens(text, { encoding }).tokens;
        expect(est).toBeGreaterThanOrEqual(Math.floor(exact * 0.97));
        expect(est).toBeLessThanOrEqual(Math.ceil(exact * 1.15));
      }
    }, RANKS_TIMEOUT_MS);

    it('truncation and the budget keep the spec invariants with the estimator', async () => {
      await initCore();
      const text = 'First sentence here. Second sentence is a bit longer. Third one closes the paragraph.\nAnother line follows with more words.';
      const out = truncateToTokenBudget(text, 12);
      expect(out).toBe('First sentence here. Second sentence is a bit longer....');
      expect(estimateTokens(out).tokens).toBeLessThanOrEqual(12);
      expect(truncateToTokenBudget(text, 0)).toBe(text);
      const r = applyContextBudget(text, 12);
      expect(r).toMatchObject({ originalTokens: estimateTokens(text).tokens, budgetTokens: 12, wasTruncated: true, context: out });
      expect(r.truncatedTokens).toBeLessThanOrEqual(12);
      const same = applyContextBudget(text, 0);
      expect(same.truncatedTokens).toBe(same.originalTokens);
      expect(same.wasTruncated).toBe(false);
    });

    it('soft and hard limits at their exact boundaries', () => {
      const base = { maxInputTokens: 100_000, responseTokenReserve: 4000, softLimitThresholdPct: 80 };
      expect(decideBudget({ ...base, estimatedInputTokens: 76_800 })).toEqual({ hardLimitTokens: 96_000, softLimitTokens: 76_800, decision: 'ok' });
      expect(decideBudget({ ...base, estimatedInputTokens: 76_801 }).decision).toBe('warn_soft_limit');
      expect(decideBudget({ ...base, estimatedInputTokens: 96_000 }).decision).toBe('warn_soft_limit');
      expect(decideBudget({ ...base, estimatedInputTokens: 96_001 }).decision).toBe('refuse_hard_limit');
    });

    it('the sync estimator fails loudly before the core is loaded', async () => {
      resetCore();
      let thrown: unknown;
      try {
        estimateTokens('hello');
      } catch (e) {
        thrown = e;
      }
      expect(isCtxgateError(thrown, 'NOT_INITIALIZED')).toBe(true);
      expect(estimateTokens('').tokens).toBe(0);
      await initCore();
      expect(estimateTokens('hello').tokens).toBe(1);
    });
  });
}
