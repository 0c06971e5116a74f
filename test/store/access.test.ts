import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextSizeError, ContextViolationError, deserializeError, serializeError } from '../../src/errors.ts';
import { ContextSizeChecker } from '../../src/store/limits.ts';
import { thrown } from '../fixtures/thrown.ts';
import { ContextValidator, DEFAULT_AGENT_PERMISSIONS } from '../../src/store/access.ts';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import type { Namespace } from '../../src/store/model.ts';
import { NAMESPACES, createAgentContext, namespaceKeys } from '../../src/store/model.ts';
import { sampleContext } from './contract.ts';

/** A value valid for each namespace key, to probe permissions independently of validation. */
const validValue: Record<string, unknown> = {
  'metadata.sessionId': 's2', 'metadata.traceId': 't2', 'metadata.createdAt': '2026-02-02T00:00:00Z', 'metadata.locale': 'fr-FR',
  'reasoning.intents': [{ type: 'q', confidence: 0.5 }], 'reasoning.entities': { a: 1 }, 'reasoning.hypotheses': [],
  'reasoning.conclusions': [], 'reasoning.dependencyMap': { a: ['b'] }, 'reasoning.confidenceScores': { a: 0.2 }, 'reasoning.summary': 'x',
  'enrichment.facts': [], 'enrichment.derivedKnowledge': [], 'enrichment.relationships': [{ from: 'a', to: 'b', type: 'uses' }], 'enrichment.contextLinks': ['l'],
  'retrieval.plans': [], 'retrieval.queries': [], 'retrieval.artifacts': [{ id: 'a', type: 't', content: 'c', source: 's' }],
  'llm.provider': 'p', 'llm.model': 'm', 'llm.usage': { totalTokens: 1, promptTokens: 1, completionTokens: 0, costUsd: 0, byAgent: {} },
  'llm.decisions': [], 'llm.cache': {},
  'diagnostics.errors': [], 'diagnostics.warnings': [{ timestamp: '2026-02-02T00:00:00Z', agentId: 'x', message: 'w' }],
  'diagnostics.performance': { totalDurationMs: 5, agentMetrics: { x: { durationMs: 5, llmCalls: 1, status: 'ok' } } },
  'diagnostics.validationReports': [], 'audit.agentRuns': [], 'audit.diffs': [],
};

describe('access control', () => {
  it('safeSet into a frozen context (Object.freeze, Immer) is INVALID_PARAMS naming the namespace, and writes nothing', () => {
    const v = new ContextValidator();
    v.registerAgent('planner', ['reasoning']);
    const ctx = createAgentContext('s', 't');
    Object.freeze(ctx.reasoning);
    const before = canonicalize(ctx);
    let error: unknown;
    try {
      v.safeSet(ctx, 'planner', 'reasoning', 'summary', 'next step');
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'context.reasoning' } });
    expect(canonicalize(ctx)).toBe(before);
  });

  it('has the spec default table', () => {
    expect(DEFAULT_AGENT_PERMISSIONS).toEqual({
      intent_detection: ['reasoning', 'diagnostics', 'audit'],
      reasoning_structure: ['reasoning', 'diagnostics', 'audit'],
      retrieval_planner: ['retrieval', 'diagnostics', 'audit'],
      context_synthesizer: ['enrichment', 'diagnostics', 'audit'],
      inference: ['reasoning', 'enrichment', 'llm', 'diagnostics', 'audit'],
      validation: ['diagnostics', 'audit'],
      summarization: ['reasoning', 'diagnostics', 'audit'],
      orchestrator: '*',
    });
    expect(Object.keys(validValue).sort()).toEqual(NAMESPACES.flatMap((ns) => namespaceKeys(ns).map((k) => `${ns}.${k}`)).sort());
  });

  it('follows the spec examples for validateWrite', () => {
    const v = new ContextValidator({ agents: {} });
    v.registerAgent('intent_detection', ['reasoning', 'diagnostics', 'audit']);
    expect(() => v.validateWrite('intent_detection', 'reasoning', 'intents')).not.toThrow();
    expect(() => v.validateWrite('intent_detection', 'llm', 'provider')).toThrow(ContextViolationError);
    try {
      v.validateWrite('intent_detection', 'llm', 'provider');
    } catch (e) {
      expect(e).toMatchObject({ name: 'ContextViolationError', code: 'CONTEXT_VIOLATION', details: { agentId: 'intent_detection', namespace: 'llm', key: 'provider', registered: true } });
    }
    expect(() => v.validateWrite('ghost', 'reasoning', 'intents')).toThrow(expect.objectContaining({ code: 'CONTEXT_VIOLATION', details: expect.objectContaining({ registered: false }) }));
    expect(() => v.validateWrite('intent_detection', 'nope' as Namespace, 'x')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'namespace' } }));
  });

  it('safeSet writes exactly what the table allows, and a refusal changes nothing (every agent × key)', () => {
    const v = new ContextValidator();
    for (const [agent, grant] of Object.entries(DEFAULT_AGENT_PERMISSIONS)) {
      for (const ns of NAMESPACES) {
        for (const key of namespaceKeys(ns)) {
          const ctx = sampleContext('acl');
          const before = canonicalize(ctx);
          const allowed = grant === '*' || (ns === 'metadata' ? key === 'locale' : grant.includes(ns));
          const write = () => v.safeSet(ctx, agent, ns, key, validValue[`${ns}.${key}`]);
          if (allowed) {
            write();
            expect(canonicalize((ctx[ns] as unknown as Record<string, unknown>)[key])).toBe(canonicalize(validValue[`${ns}.${key}`]));
          } else {
            expect(write).toThrow(ContextViolationError);
            expect(canonicalize(ctx)).toBe(before);
          }
          expect(v.canRead(agent, ns)).toBe(true);
        }
      }
    }
  });

  it("the audit trail is append-only through safeSet: recorded runs and diffs cannot be dropped or changed, new ones can be added", () => {
    const v = new ContextValidator();
    const ctx = createAgentContext('s', 't');
    const run = (agentId: string) => ({ timestamp: '2026-01-02T03:04:05.000Z', agentId, status: 'success', durationMs: 5, keysWritten: ['reasoning.intents'] });
    v.safeSet(ctx, 'intent_detection', 'audit', 'agentRuns', [run('intent_detection')]);
    const before = canonicalize(ctx);
    for (const [label, value] of [
      ['emptied', []],
      ['rewritten', [{ ...run('intent_detection'), status: 'failed' }]],
      ['replaced by another run', [run('validation')]],
    ] as const) {
      const error = thrown(() => v.safeSet(ctx, 'validation', 'audit', 'agentRuns', value));
      expect([label, error]).toEqual([label, expect.objectContaining({ code: 'CONTEXT_VIOLATION', details: { agentId: 'validation', namespace: 'audit', key: 'agentRuns', registered: true, appendOnly: true } })]);
      expect((error as Error).message).toContain('append-only');
      expect(canonicalize(ctx)).toBe(before);
    }
    // The orchestrator, allowed every namespace, is held to it too.
    expect(thrown(() => v.safeSet(ctx, 'orchestrator', 'audit', 'agentRuns', []))).toMatchObject({ code: 'CONTEXT_VIOLATION' });
    // Adding after the recorded entries (a copy of them, equal as JSON) is allowed.
    v.safeSet(ctx, 'validation', 'audit', 'agentRuns', [JSON.parse(JSON.stringify(ctx.audit.agentRuns[0])), run('validation')]);
    expect(ctx.audit.agentRuns.map((r) => r.agentId)).toEqual(['intent_detection', 'validation']);
    const diff = { timestamp: '2026-01-02T03:04:06.000Z', agentId: 'intent_detection', changes: { reasoning: { intents_added: 1 } } };
    v.safeSet(ctx, 'intent_detection', 'audit', 'diffs', [diff]);
    expect(thrown(() => v.safeSet(ctx, 'intent_detection', 'audit', 'diffs', []))).toMatchObject({ code: 'CONTEXT_VIOLATION', details: { key: 'diffs', appendOnly: true } });
    expect(ctx.audit.diffs).toEqual([diff]);
    // Other namespaces are not append-only.
    v.safeSet(ctx, 'intent_detection', 'reasoning', 'intents', []);
  });

  it('safeSet follows the spec example and stores a copy', () => {
    const v = new ContextValidator({ agents: {} });
    v.registerAgent('intent_detection', ['reasoning']);
    const ctx = createAgentContext('session-1', 'trace-1');
    const intents = [{ type: 'query', confidence: 0.95 }];
    v.safeSet(ctx, 'intent_detection', 'reasoning', 'intents', intents);
    intents[0]!.confidence = 5;
    expect(ctx.reasoning.intents).toEqual([{ type: 'query', confidence: 0.95 }]);
    v.safeSet(ctx, 'intent_detection', 'reasoning', 'dependencyMap', undefined);
    expect('dependencyMap' in ctx.reasoning).toBe(false);
    expect(v.allowedNamespaces('intent_detection')).toEqual(['reasoning']);
    expect(v.unregisterAgent('intent_detection')).toBe(true);
    expect(() => v.safeSet(ctx, 'intent_detection', 'reasoning', 'summary', 's')).toThrow(ContextViolationError);
  });

  it('refuses invalid values with INVALID_PARAMS naming the field, leaving the context unchanged', () => {
    const v = new ContextValidator();
    const ctx = sampleContext('inv');
    const before = canonicalize(ctx);
    const cases: [Namespace, string, unknown, string][] = [
      ['reasoning', 'intents', [{ type: 'q', confidence: 1.5 }], 'reasoning.intents[0].confidence'],
      ['reasoning', 'intents', [{ type: 'q', confidence: 0.5, extra: 1 }], 'reasoning.intents[0].extra'],
      ['reasoning', 'summary', 42, 'reasoning.summary'],
      ['reasoning', 'nope', 1, 'reasoning.nope'],
      ['enrichment', 'facts', [{ id: 'f', content: 'c', source: 's', timestamp: 'yesterday', confidence: 1 }], 'enrichment.facts[0].timestamp'],
      ['reasoning', 'entities', { when: new Date(0) }, 'reasoning.entities.when'],
      ['reasoning', 'entities', { n: Number.NaN }, 'reasoning.entities.n'],
      ['retrieval', 'artifacts', [{ id: 'a', type: 't', source: 's', content: 1, ref: { sha256: 'a'.repeat(64), size: 1 } }], 'retrieval.artifacts[0].ref'],
      ['retrieval', 'artifacts', [{ id: 'a', type: 't', source: 's', ref: { sha256: 'ABC', size: 1 } }], 'retrieval.artifacts[0].ref.sha256'],
    ];
    for (const [ns, key, value, field] of cases) {
      expect(() => v.safeSet(ctx, 'orchestrator', ns, key, value)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field }) }));
    }
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => v.safeSet(ctx, 'orchestrator', 'reasoning', 'entities', cyclic)).toThrow(expect.objectContaining({ details: { field: 'reasoning.entities.self' } }));
    expect(canonicalize(ctx)).toBe(before);
  });

  it('rejects __proto__, constructor and prototype keys at any depth of JSON.parse payloads', () => {
    const v = new ContextValidator();
    const ctx = sampleContext('proto');
    const before = canonicalize(ctx);
    const payloads: [string, string][] = [
      ['{"__proto__": {"polluted": "yes"}}', 'reasoning.entities.__proto__'],
      ['{"a": {"b": [{"constructor": {"prototype": {"polluted": "yes"}}}]}}', 'reasoning.entities.a.b[0].constructor'],
      ['{"x": [[{"prototype": 1}]]}', 'reasoning.entities.x[0][0].prototype'],
    ];
    for (const [text, field] of payloads) {
      expect(() => v.safeSet(ctx, 'orchestrator', 'reasoning', 'entities', JSON.parse(text))).toThrow(
        expect.objectContaining({ code: 'INVALID_PARAMS', details: { field } }),
      );
    }
    expect(() => v.safeSet(ctx, 'orchestrator', 'llm', 'cache', JSON.parse('{"k":{"__proto__":{"isAdmin":true}}}'))).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'llm.cache.k.__proto__' } }),
    );
    expect(canonicalize(ctx)).toBe(before);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it('a forbidden key anywhere in random data is refused (property)', () => {
    const v = new ContextValidator();
    const forbidden = fc.constantFrom('__proto__', 'constructor', 'prototype');
    const path = fc.array(fc.oneof(fc.string({ maxLength: 4 }).filter((k) => !['__proto__', 'constructor', 'prototype'].includes(k)), fc.nat(3)), { maxLength: 5 });
    fc.assert(
      fc.property(path, forbidden, fc.jsonValue(), (segments, bad, leaf) => {
        // Build the payload as JSON text so __proto__ becomes an own key, as it would from the network.
        let text = `{${JSON.stringify(bad)}:${JSON.stringify(leaf) ?? 'null'}}`;
        for (const seg of [...segments].reverse()) text = typeof seg === 'number' ? `[${'0,'.repeat(seg)}${text}]` : `{${JSON.stringify(seg)}:${text}}`;
        const ctx = createAgentContext('s', 't');
        expect(() => v.safeSet(ctx, 'orchestrator', 'reasoning', 'entities', { root: JSON.parse(text) })).toThrow(
          expect.objectContaining({ code: 'INVALID_PARAMS' }),
        );
        expect(ctx.reasoning.entities).toEqual({});
      }),
      { numRuns: 200 },
    );
  });

  it('checks size before writing: ContextSizeError with limit, current and maximum; context unchanged', () => {
    const v = new ContextValidator({ limits: { maxNamespaceSize: 1000, maxTotalSize: 2900, maxArrayItems: 3 } });
    const ctx = createAgentContext('s', 't', { createdAt: '2026-01-01T00:00:00.000Z' });
    const before = canonicalize(ctx);
    expect(() => v.safeSet(ctx, 'inference', 'reasoning', 'summary', 'x'.repeat(2000))).toThrow(
      expect.objectContaining({ name: 'ContextSizeError', code: 'CONTEXT_SIZE', details: expect.objectContaining({ limit: 'maxNamespaceSize', maximum: 1000 }) }),
    );
    const four = Array.from({ length: 4 }, () => ({ type: 'q', confidence: 0.1 }));
    expect(() => v.safeSet(ctx, 'inference', 'reasoning', 'intents', four)).toThrow(
      expect.objectContaining({ code: 'CONTEXT_SIZE', details: { limit: 'maxArrayItems', current: 4, maximum: 3, namespace: 'reasoning', key: 'intents' } }),
    );
    v.safeSet(ctx, 'inference', 'reasoning', 'summary', 'x'.repeat(800));
    v.safeSet(ctx, 'inference', 'enrichment', 'contextLinks', ['y'.repeat(800)]);
    const afterTwo = canonicalize(ctx);
    expect(() => v.safeSet(ctx, 'inference', 'llm', 'cache', { z: 'z'.repeat(900) })).toThrow(
      expect.objectContaining({ code: 'CONTEXT_SIZE', details: expect.objectContaining({ limit: 'maxTotalSize', current: 2991, maximum: 2900 }) }),
    );
    expect(canonicalize(ctx)).toBe(afterTwo);
    expect(afterTwo).not.toBe(before);
  });
});

describe("the spec's error fields (Error Handling: err.AgentID, err.Namespace, err.Key; err.Limit, err.Current, err.Maximum)", () => {
  /** The error after the worker hop: serialised, structured-cloned as postMessage does, rebuilt. */
  const hop = (error: unknown) => deserializeError(structuredClone(serializeError(error)));

  it('ContextViolationError has read-only agentId, namespace and key, read from details, and keeps them across the worker hop', () => {
    const v = new ContextValidator({ agents: {} });
    v.registerAgent('intent_detection', ['reasoning']);
    const e = thrown(() => v.validateWrite('intent_detection', 'llm', 'provider')) as ContextViolationError;
    expect(e).toBeInstanceOf(ContextViolationError);
    expect({ agentId: e.agentId, namespace: e.namespace, key: e.key }).toEqual({ agentId: 'intent_detection', namespace: 'llm', key: 'provider' });
    expect(() => {
      (e as unknown as { agentId: string }).agentId = 'other';
    }).toThrow(TypeError);
    expect(e.agentId).toBe('intent_detection');
    // The wire form is what it was: the getters add no members of their own.
    expect(Object.keys(e.toJSON()).sort()).toEqual(['code', 'details', 'message', 'name', 'stack']);
    expect(e.toJSON().details).toEqual({ agentId: 'intent_detection', namespace: 'llm', key: 'provider', registered: true });
    const rebuilt = hop(e) as ContextViolationError;
    expect(rebuilt).toBeInstanceOf(ContextViolationError);
    expect({ agentId: rebuilt.agentId, namespace: rebuilt.namespace, key: rebuilt.key }).toEqual({ agentId: 'intent_detection', namespace: 'llm', key: 'provider' });
    // Structured clone of the error itself still works (it keeps what it keeps of any Error).
    expect(structuredClone(e)).toBeInstanceOf(Error);
    // Details without a fact (a message from an older version): undefined, not a throw.
    const bare = new ContextViolationError('no write', { details: { agentId: 7 } });
    expect([bare.agentId, bare.namespace, bare.key]).toEqual([undefined, undefined, undefined]);
  });

  it('ContextSizeError has read-only limit, current and maximum, read from details, and keeps them across the worker hop', () => {
    const checker = new ContextSizeChecker({ maxNamespaceSize: 1000 });
    const ctx = createAgentContext('s', 't', { createdAt: '2026-01-01T00:00:00.000Z' });
    ctx.reasoning.summary = 'x'.repeat(1000);
    const e = thrown(() => checker.check(ctx)) as ContextSizeError;
    expect(e).toBeInstanceOf(ContextSizeError);
    const size = new TextEncoder().encode(JSON.stringify(ctx.reasoning)).length;
    expect({ limit: e.limit, current: e.current, maximum: e.maximum }).toEqual({ limit: 'maxNamespaceSize', current: size, maximum: 1000 });
    expect(e.details).toMatchObject({ limit: 'maxNamespaceSize', current: size, maximum: 1000, namespace: 'reasoning' });
    expect(() => {
      (e as unknown as { maximum: number }).maximum = 1;
    }).toThrow(TypeError);
    expect(Object.keys(e.toJSON()).sort()).toEqual(['code', 'details', 'message', 'name', 'stack']);
    const rebuilt = hop(e) as ContextSizeError;
    expect(rebuilt).toBeInstanceOf(ContextSizeError);
    expect({ limit: rebuilt.limit, current: rebuilt.current, maximum: rebuilt.maximum }).toEqual({ limit: 'maxNamespaceSize', current: size, maximum: 1000 });
    expect(structuredClone(e)).toBeInstanceOf(Error);
    const bare = new ContextSizeError('too big', { details: { limit: 5, current: '3' } });
    expect([bare.limit, bare.current, bare.maximum]).toEqual([undefined, undefined, undefined]);
  });
});
