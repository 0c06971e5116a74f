import { describe, expect, it } from 'vitest';
import { CONTEXT_SCHEMA_VERSION, NAMESPACES, createAgentContext, isNamespace, validateAgentContext } from '../../src/store/model.ts';
import { thrown } from '../fixtures/thrown.ts';

describe('AgentContext model', () => {
  it('creates an empty context with the seven namespaces at the current version', () => {
    expect(CONTEXT_SCHEMA_VERSION).toBe('1.0.0');
    expect(NAMESPACES).toEqual(['metadata', 'reasoning', 'enrichment', 'retrieval', 'llm', 'diagnostics', 'audit']);
    expect(createAgentContext('session-1', 'trace-1', { createdAt: new Date(Date.UTC(2026, 0, 2)) })).toEqual({
      version: '1.0.0',
      metadata: { sessionId: 'session-1', traceId: 'trace-1', createdAt: '2026-01-02T00:00:00.000Z' },
      reasoning: { intents: [], entities: {}, hypotheses: [], conclusions: [], confidenceScores: {}, summary: '' },
      enrichment: { facts: [], derivedKnowledge: [], relationships: [], contextLinks: [] },
      retrieval: { plans: [], queries: [], artifacts: [] },
      llm: { decisions: [], cache: {} },
      diagnostics: { errors: [], warnings: [], validationReports: [] },
      audit: { agentRuns: [], diffs: [] },
    });
    expect(Date.parse(createAgentContext('s', 't').metadata.createdAt)).not.toBeNaN();
  });

  it('refuses bad construction input and bad contexts, naming the field', () => {
    expect(() => createAgentContext('', 't')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'metadata.sessionId' }) }));
    expect(() => createAgentContext('s', 't', { createdAt: 'soon' })).toThrow(expect.objectContaining({ details: expect.objectContaining({ field: 'metadata.createdAt' }) }));
    const ctx = createAgentContext('s', 't') as unknown as Record<string, unknown>;
    delete ctx.audit;
    expect(() => validateAgentContext(ctx)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'context.audit' }) }));
    expect(() => validateAgentContext(null)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
    expect(isNamespace('llm')).toBe(true);
    expect(isNamespace('toString')).toBe(false);
  });
});

describe('validateField and validateAgentContext on arguments of the wrong kind', () => {

  it('validateField names namespace and key, never echoing them', async () => {
    const { validateField } = await import('../../src/store/model.ts');
    const ns = thrown(() => validateField('SECRET-namespace' as never, 'x', 1));
    expect(ns).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'namespace' }) });
    expect(ns.message).not.toContain('SECRET');
    expect(thrown(() => validateField(undefined as never, 'x', 1))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'namespace' }) });
    expect(thrown(() => validateField('reasoning', Symbol('k') as never, 1))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'key' }) });
    expect(thrown(() => validateField('reasoning', 'summary', 10n))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'reasoning.summary' }) });
    expect(validateField('reasoning', 'summary', 'ok')).toBe('ok');
  });

  it('validateAgentContext reports any value as INVALID_PARAMS, and names field when it is not a string', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const value of [undefined, null, 42, Number.NaN, 'x', {}, [], () => 1, Symbol('s'), 10n, cyclic]) {
      expect(thrown(() => validateAgentContext(value))).toMatchObject({ code: 'INVALID_PARAMS' });
    }
    expect(thrown(() => validateAgentContext(createAgentContext('s', 't'), Symbol('f') as never))).toMatchObject({
      code: 'INVALID_PARAMS',
      details: expect.objectContaining({ field: 'field' }),
    });
    const ctx = createAgentContext('s', 't');
    expect(validateAgentContext(ctx)).toBe(ctx);
  });
});
