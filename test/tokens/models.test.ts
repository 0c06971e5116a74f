import { describe, expect, it } from 'vitest';
import { BUILTIN_MODELS, getModel, modelEstimator, modelRegistry } from '../../src/tokens/models.ts';
import { estimator } from '../../src/tokens/estimator.ts';
import { countTokens, exactCounter } from '../../src/tokens/exact.ts';
import { initCore } from '../../src/core/core.ts';
import { estimateTokens } from '../../src/core/tokens.ts';
import { isCtxgateError } from '../../src/errors.ts';
import { thrown } from '../fixtures/thrown.ts';


describe('model registry', () => {
  it('covers the common families with consistent limits', () => {
    for (const id of ['gpt-4o', 'gpt-4.1', 'gpt-5', 'o3', 'o4-mini', 'claude-sonnet-4-5', 'gemini-2.5-pro', 'llama-3.1-70b', 'mistral-large', 'qwen2.5-72b']) {
      expect(getModel(id).id).toBe(id);
    }
    expect(new Set(BUILTIN_MODELS.map((m) => m.id)).size).toBe(BUILTIN_MODELS.length);
    for (const m of BUILTIN_MODELS) {
      expect(m.responseReserve).toBeLessThanOrEqual(m.maxOutputTokens);
      expect(m.responseReserve).toBeLessThan(m.maxInputTokens);
      if (m.provider === 'openai') expect(m.tokenizer.kind).toBe('exact');
      else {
        expect(m.tokenizer.kind).toBe('estimated');
        if (m.tokenizer.kind === 'estimated') {
          expect(m.tokenizer.factor).toBeGreaterThanOrEqual(1);
          expect(m.tokenizer.calibration).toMatch(/ctxgate-est\/1/);
        }
      }
    }
    expect(getModel('gpt-4o').tokenizer).toEqual({ kind: 'exact', encoding: 'o200k_base' });
    expect(getModel('gpt-4').tokenizer).toEqual({ kind: 'exact', encoding: 'cl100k_base' });
  });

  it('unknown ids are INVALID_PARAMS listing the known ids', () => {
    const e = thrown(() => getModel('gpt-17'));
    expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
    expect((e as { details: { known: string[] } }).details.known).toContain('gpt-4o');
    expect((e as Error).message).toMatch(/unknown model "gpt-17"/);
  });

  it('user entries add and override by id, and are validated', () => {
    const reg = modelRegistry([
      { id: 'gpt-4o', provider: 'openai', maxInputTokens: 64_000, maxOutputTokens: 4096, responseReserve: 2000, tokenizer: { kind: 'exact', encoding: 'o200k_base' } },
      { id: 'in-house', provider: 'acme', maxInputTokens: 32_000, maxOutputTokens: 2000, responseReserve: 1000, tokenizer: { kind: 'estimated', encoding: 'cl100k_base', factor: 1.1, calibration: 'measured on our corpus' } },
    ]);
    expect(reg.get('gpt-4o').maxInputTokens).toBe(64_000);
    expect(reg.has('in-house')).toBe(true);
    expect(reg.ids()).toContain('claude-opus-4');
    expect(getModel('gpt-4o').maxInputTokens).toBe(128_000);
    const bad = thrown(() => modelRegistry([{ ...getModel('gpt-4o'), id: 'x', tokenizer: { kind: 'estimated', encoding: 'o200k_base', factor: 0.5, calibration: 'c' } }]));
    expect(isCtxgateError(bad, 'INVALID_PARAMS')).toBe(true);
    expect((bad as Error).message).toMatch(/models\[0\]\.tokenizer\.factor/);
    const badEnc = thrown(() => modelRegistry([{ ...getModel('gpt-4o'), id: 'y', tokenizer: { kind: 'exact', encoding: 'p50k' as never } }]));
    expect(isCtxgateError(badEnc, 'INVALID_PARAMS')).toBe(true);
  });

  it('arguments of the wrong kind are INVALID_PARAMS naming the parameter', () => {
    const field = (e: unknown) => (isCtxgateError(e, 'INVALID_PARAMS') ? e.details.field : e);
    expect(field(thrown(() => getModel(42 as never)))).toBe('id');
    // A BigInt or a cycle used to break the message itself (JSON.stringify).
    expect(field(thrown(() => getModel(10n as never)))).toBe('id');
    expect(field(thrown(() => modelRegistry().get({} as never)))).toBe('id');
    expect(field(thrown(() => modelRegistry('x' as never)))).toBe('entries');
    expect(field(thrown(() => modelRegistry([null as never])))).toBe('models[0].id');
    expect(field(thrown(() => modelEstimator({} as never)))).toBe('model.tokenizer');
    expect(field(thrown(() => modelEstimator({ tokenizer: { kind: 'fast' } } as never)))).toBe('model.tokenizer.kind');
    expect(field(thrown(() => modelEstimator({ tokenizer: { kind: 'exact', encoding: 10n } } as never)))).toBe('model.tokenizer.encoding');
    expect(field(thrown(() => modelEstimator({ tokenizer: { kind: 'estimated', encoding: 'cl100k_base', factor: '2' } } as never)))).toBe('model.tokenizer.factor');
    expect(field(thrown(() => estimator(null as never)))).toBe('options');
    expect(field(thrown(() => estimator({ encoding: 10n } as never)))).toBe('options.encoding');
  });

  it('count functions check their options, also the async ones', async () => {
    await expect(countTokens('x', null as never)).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'options' } });
    await expect(countTokens('x', { encoding: 'p50k_base' as never })).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'options.encoding' } });
    await expect(exactCounter([] as never)).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'options' } });
  });

  it('model estimators apply the safety factor and say so', async () => {
    await initCore();
    const text = 'A paragraph of ordinary English prose for the estimate. '.repeat(8);
    const claude = modelEstimator(getModel('claude-sonnet-4-5'))(text);
    const base = estimateTokens(text, { encoding: 'cl100k_base' }).tokens;
    expect(claude).toEqual({ tokens: Math.ceil((base * 1250) / 1000), exact: false, encoder: 'ctxgate-est/1:cl100k_base*1.25' });
    expect(modelEstimator(getModel('gpt-4o'))(text)).toEqual(estimateTokens(text));
  });
});
