import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { decideBudget } from '../../src/tokens/limits.ts';
import { isCtxgateError } from '../../src/errors.ts';
import { thrown } from '../fixtures/thrown.ts';


describe('decideBudget (spec 001 soft/hard limits)', () => {
  const base = { maxInputTokens: 100_000, responseTokenReserve: 4000, softLimitThresholdPct: 80 };

  it('exact boundaries', () => {
    const at = (n: number) => decideBudget({ ...base, estimatedInputTokens: n }).decision;
    expect(at(0)).toBe('ok');
    expect(at(76_800)).toBe('ok');
    expect(at(76_801)).toBe('warn_soft_limit');
    expect(at(96_000)).toBe('warn_soft_limit');
    expect(at(96_001)).toBe('refuse_hard_limit');
  });

  it('floors the soft limit', () => {
    expect(decideBudget({ estimatedInputTokens: 0, maxInputTokens: 1003, responseTokenReserve: 0, softLimitThresholdPct: 33 })).toEqual({
      hardLimitTokens: 1003,
      softLimitTokens: 330,
      decision: 'ok',
    });
    expect(decideBudget({ estimatedInputTokens: 331, maxInputTokens: 1003, responseTokenReserve: 0, softLimitThresholdPct: 33 }).decision).toBe('warn_soft_limit');
  });

  it('0% and 100% thresholds', () => {
    expect(decideBudget({ ...base, softLimitThresholdPct: 0, estimatedInputTokens: 0 }).decision).toBe('ok');
    expect(decideBudget({ ...base, softLimitThresholdPct: 0, estimatedInputTokens: 1 }).decision).toBe('warn_soft_limit');
    expect(decideBudget({ ...base, softLimitThresholdPct: 100, estimatedInputTokens: 96_000 }).decision).toBe('ok');
  });

  it('invalid inputs are INVALID_PARAMS naming the field', () => {
    const cases: [Partial<typeof base & { estimatedInputTokens: number }>, string][] = [
      [{ estimatedInputTokens: -1 }, 'estimatedInputTokens'],
      [{ estimatedInputTokens: 1.5 }, 'estimatedInputTokens'],
      [{ softLimitThresholdPct: 101 }, 'softLimitThresholdPct'],
      [{ responseTokenReserve: 100_001 }, 'responseTokenReserve'],
    ];
    for (const [patch, field] of cases) {
      const e = thrown(() => decideBudget({ ...base, estimatedInputTokens: 1, ...patch }));
      expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
      expect((e as { details: { field: string } }).details.field).toBe(field);
    }
  });

  it('an input of the wrong kind is INVALID_PARAMS, and a value in the wrong place is never quoted', () => {
    const missing = thrown(() => decideBudget(undefined as never));
    expect(isCtxgateError(missing, 'INVALID_PARAMS')).toBe(true);
    expect((missing as { details: { field: string } }).details.field).toBe('input');
    const secret = thrown(() => decideBudget({ ...base, estimatedInputTokens: 'sk-secret-value' as never }));
    expect((secret as { details: { field: string } }).details.field).toBe('estimatedInputTokens');
    expect((secret as Error).message).not.toContain('sk-secret-value');
    expect((secret as Error).message).toContain('got a string');
    // Numbers are still shown: they help and are no secret.
    expect((thrown(() => decideBudget({ ...base, estimatedInputTokens: -1 })) as Error).message).toContain('got -1');
  });

  it('property: the decision matches the definitions', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 2_000_000 }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 3_000_000 }), (a, b, pct, est) => {
        const maxIn = Math.max(a, b);
        const reserve = Math.min(a, b);
        const r = decideBudget({ estimatedInputTokens: est, maxInputTokens: maxIn, responseTokenReserve: reserve, softLimitThresholdPct: pct });
        expect(r.hardLimitTokens).toBe(maxIn - reserve);
        expect(r.softLimitTokens).toBe(Math.floor(((maxIn - reserve) * pct) / 100));
        expect(r.softLimitTokens).toBeLessThanOrEqual(r.hardLimitTokens);
        expect(r.decision).toBe(est <= r.softLimitTokens ? 'ok' : est <= r.hardLimitTokens ? 'warn_soft_limit' : 'refuse_hard_limit');
      }),
    );
  });
});
