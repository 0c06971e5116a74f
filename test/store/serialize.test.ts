import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import { createMemoryStore } from '../../src/store/backends/memory.ts';
import { MigrationRegistry } from '../../src/store/migrations.ts';
import { CONTEXT_SCHEMA_VERSION, createAgentContext } from '../../src/store/model.ts';
import { cloneContext, deserializeContext, serializeContext } from '../../src/store/serialize.ts';
import { FORBIDDEN_KEYS } from '../../src/store/json-safety.ts';
import { sampleContext } from './contract.ts';
import { thrown } from '../fixtures/thrown.ts';

/** True if `value` holds a key the store refuses, at any depth. */
function hasForbiddenKey(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(hasForbiddenKey);
  return Object.keys(value).some((k) => FORBIDDEN_KEYS.has(k) || hasForbiddenKey((value as Record<string, unknown>)[k]));
}

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

const camel = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());
function renameKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [camel(k), v]));
}

/** The history the fixtures were written in: 0.8.0 used snake_case and had no audit; 0.9.0 named agent runs `runs`. */
function legacyMigrations(): MigrationRegistry {
  return new MigrationRegistry()
    .register('0.8.0', '0.9.0', (data) => {
      const out: Record<string, unknown> = { version: data.version };
      for (const [ns, fields] of Object.entries(data)) {
        if (ns === 'version') continue;
        // Only structural keys are renamed; user maps (entities, scores, cache, byAgent) keep theirs.
        const renamed = renameKeys(fields) as Record<string, unknown>;
        for (const [k, v] of Object.entries(renamed)) {
          if (Array.isArray(v)) renamed[k] = v.map(renameKeys);
          else if (k === 'usage') renamed[k] = renameKeys(v);
        }
        out[ns] = renamed;
      }
      out.audit = { runs: [], diffs: [] };
      return out;
    })
    .register('0.9.0', '1.0.0', (data) => {
      const audit = data.audit as { runs: Record<string, unknown>[]; diffs: unknown[] };
      const agentRuns = audit.runs.map(({ durationMS, ...run }) => ({ ...run, durationMs: durationMS }));
      return { ...data, audit: { agentRuns, diffs: audit.diffs } };
    });
}

describe('serialisation', () => {
  it('round-trips a context, version included, as canonical JSON', () => {
    const ctx = sampleContext('s');
    const text = serializeContext(ctx);
    expect(text.startsWith('{"audit":{"agentRuns":[],"diffs":[]},"diagnostics":')).toBe(true);
    expect(text).toContain('"version":"1.0.0"');
    expect(deserializeContext(text)).toEqual(ctx);
    // Key order of the input does not change the output.
    const reordered = JSON.parse(JSON.stringify(ctx, Object.keys(ctx).reverse())) as typeof ctx;
    expect(serializeContext({ ...reordered, ...ctx })).toBe(text);
  });

  it('round-trips random summaries, intents and entities (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.array(fc.record({ type: fc.string(), confidence: fc.double({ min: 0, max: 1, noNaN: true }) }), { maxLength: 5 }),
        // The store refuses these keys at any depth (tested on their own below); jsonValue makes them too.
        fc.dictionary(fc.string().filter((k) => !FORBIDDEN_KEYS.has(k)), fc.jsonValue().filter((v) => !hasForbiddenKey(v)), { maxKeys: 5 }),
        (summary, intents, entities) => {
          const ctx = createAgentContext('s', 't', { createdAt: '2026-01-01T00:00:00Z' });
          ctx.reasoning.summary = summary;
          ctx.reasoning.intents = intents;
          ctx.reasoning.entities = JSON.parse(JSON.stringify(entities)) as Record<string, unknown>;
          const back = deserializeContext(serializeContext(ctx));
          expect(canonicalize(back)).toBe(canonicalize(ctx));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('refuses bad input with INVALID_PARAMS naming the field', () => {
    expect(() => deserializeContext('{"version": ')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'context' } }));
    expect(() => deserializeContext('[1]')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'context.version' } }));
    const text = serializeContext(sampleContext('p')).replace('"entities":{', '"entities":{"__proto__":{"polluted":true},');
    expect(() => deserializeContext(text)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'context.reasoning.entities.__proto__' } }),
    );
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    const typo = serializeContext(sampleContext('p')).replace('"summary":', '"sumary":');
    expect(() => deserializeContext(typo)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
    try {
      deserializeContext(typo);
    } catch (e) {
      expect((e as { details: { field: string } }).details.field).toBe('context.reasoning.sumary');
    }
  });

  it('writes RFC 8785 text: the same as canonicalize, byte for byte', () => {
    const ctx = sampleContext('jcs');
    ctx.reasoning.confidenceScores = { b: 1e21, a: 0.1 + 0.2, c: -0 };
    ctx.reasoning.entities = { z: 1, é: 'x', A: [{ y: 2, x: 1 }] };
    const text = serializeContext(ctx);
    expect(text).toBe(canonicalize(ctx));
    expect(text).toContain('"confidenceScores":{"a":0.30000000000000004,"b":1e+21,"c":0}');
    expect(text).toContain('"entities":{"A":[{"x":1,"y":2}],"z":1,"é":"x"}');
  });

  it('refuses a lone surrogate with INVALID_PARAMS naming the field, and in a store id', async () => {
    const ctx = sampleContext('surrogate');
    ctx.reasoning.summary = 'ok \ud800 broken';
    expect(() => serializeContext(ctx)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'context.reasoning.summary' } }));
    const keyed = sampleContext('surrogate-key');
    keyed.reasoning.entities = { ['k\udc00']: 1 };
    expect(() => serializeContext(keyed)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'context.reasoning.entities' } }));
    const store = createMemoryStore();
    await expect(store.save('id-\ud83d', sampleContext('x'), { expectedVersion: 0 })).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'id' } });
    expect((await store.save('id-\ud83d\ude00', sampleContext('x'), { expectedVersion: 0 })).version).toBe(1);
  });

  it('clones deeply: changing the clone leaves the original alone', () => {
    const ctx = sampleContext('c');
    const clone = cloneContext(ctx);
    clone.reasoning.summary = 'modified';
    clone.reasoning.intents[0]!.confidence = 0.1;
    (clone.reasoning.entities.repo as { stars: number }).stars = 99;
    expect(ctx.reasoning.summary).toBe('summary c — naïve café 😀');
    expect(ctx.reasoning.intents[0]!.confidence).toBe(0.95);
    expect((ctx.reasoning.entities.repo as { stars: number }).stars).toBe(3);
  });
});

describe('migrations', () => {
  it('migrates the 0.8.0 fixture through 0.9.0 to the current version', () => {
    const registry = legacyMigrations();
    expect(registry.path('0.8.0')).toEqual(['0.8.0', '0.9.0', '1.0.0']);
    const ctx = deserializeContext(fixture('context-0.8.0.json'), { migrations: registry });
    expect(ctx.version).toBe(CONTEXT_SCHEMA_VERSION);
    expect(ctx.metadata).toEqual({ sessionId: 'session-legacy', traceId: 'trace-legacy', createdAt: '2025-06-01T10:00:00Z', locale: 'de-DE' });
    expect(ctx.reasoning.confidenceScores).toEqual({ h1: 0.7 });
    expect(ctx.reasoning.entities).toEqual({ repo_name: 'ctxgate' });
    expect(ctx.enrichment.derivedKnowledge).toEqual([{ id: 'k1', content: 'active contributor', derivedFrom: ['f1'] }]);
    expect(ctx.retrieval.queries).toEqual([{ id: 'q1', queryString: 'commits by user', source: 'gitlab' }]);
    expect(ctx.llm.usage).toEqual({ totalTokens: 30, promptTokens: 20, completionTokens: 10, costUsd: 0.002, byAgent: { inference: 0.002 } });
    expect(ctx.audit).toEqual({ agentRuns: [], diffs: [] });
  });

  it('migrates the 0.9.0 fixture in one step', () => {
    const ctx = deserializeContext(fixture('context-0.9.0.json'), { migrations: legacyMigrations() });
    expect(ctx.audit.agentRuns).toEqual([
      { timestamp: '2025-09-01T08:30:01.000Z', agentId: 'intent_detection', status: 'success', durationMs: 120, keysWritten: ['reasoning.intents'] },
    ]);
    expect(ctx.reasoning.summary).toBe('nine');
  });

  it('a missing path, a throwing step or a bad result is MIGRATION_FAILED; the input is untouched', () => {
    expect(() => deserializeContext(fixture('context-9.0.0.json'), { migrations: legacyMigrations() })).toThrow(
      expect.objectContaining({ code: 'MIGRATION_FAILED', details: { from: '9.0.0', to: '1.0.0', stuckAt: '9.0.0' } }),
    );
    expect(() => deserializeContext(fixture('context-0.9.0.json'))).toThrow(expect.objectContaining({ code: 'MIGRATION_FAILED' }));
    const half = new MigrationRegistry().register('0.8.0', '0.9.0', (d) => d);
    expect(() => half.path('0.8.0')).toThrow(expect.objectContaining({ code: 'MIGRATION_FAILED', details: { from: '0.8.0', to: '1.0.0', stuckAt: '0.9.0' } }));
    const cycle = new MigrationRegistry().register('a', 'b', (d) => d).register('b', 'a', (d) => d);
    expect(() => cycle.path('a')).toThrow(expect.objectContaining({ code: 'MIGRATION_FAILED' }));

    const input = JSON.parse(fixture('context-0.9.0.json')) as Record<string, unknown>;
    const snapshot = structuredClone(input);
    const throwing = new MigrationRegistry().register('0.9.0', '1.0.0', (d) => {
      d.audit = null;
      throw new RangeError('boom');
    });
    try {
      throwing.migrate(input);
      throw new Error('expected a throw');
    } catch (e) {
      expect(e).toMatchObject({ code: 'MIGRATION_FAILED', details: { from: '0.9.0', to: '1.0.0', stepFrom: '0.9.0', stepTo: '1.0.0' } });
      expect((e as Error).cause).toBeInstanceOf(RangeError);
    }
    expect(input).toEqual(snapshot);
    const bad = new MigrationRegistry().register('0.9.0', '1.0.0', () => JSON.parse('{"__proto__":{"x":1}}') as Record<string, unknown>);
    expect(() => bad.migrate(input)).toThrow(expect.objectContaining({ code: 'MIGRATION_FAILED' }));
  });

  it('refuses ambiguous or malformed registrations', () => {
    const r = new MigrationRegistry().register('0.8.0', '0.9.0', (d) => d);
    expect(() => r.register('0.8.0', '1.0.0', (d) => d)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'from' } }));
    expect(() => r.register('1.0.0', '1.0.0', (d) => d)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'to' } }));
  });
});

describe('MigrationRegistry.path on arguments of the wrong kind', () => {
  it('names from and to; a string without a path is still MIGRATION_FAILED', () => {
    const registry = new MigrationRegistry().register('0.9.0', CONTEXT_SCHEMA_VERSION, (d) => d);
    for (const bad of [undefined, null, 42, Symbol('v'), {}, 10n]) {
      expect(thrown(() => registry.path(bad as never))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'from' }) });
    }
    for (const bad of [null, 42, Symbol('v'), {}]) {
      expect(thrown(() => registry.path('0.9.0', bad as never))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'to' }) });
    }
    expect(thrown(() => registry.path('x'))).toMatchObject({ code: 'MIGRATION_FAILED', details: { from: 'x', to: CONTEXT_SCHEMA_VERSION, stuckAt: 'x' } });
    expect(registry.path('0.9.0')).toEqual(['0.9.0', CONTEXT_SCHEMA_VERSION]);
    expect(registry.path('0.9.0', undefined)).toEqual(['0.9.0', CONTEXT_SCHEMA_VERSION]);
  });
});

describe('migrateContext on arguments of the wrong kind', () => {

  it('names registry, to and context; data that cannot be copied is INVALID_PARAMS, not a DataCloneError', async () => {
    const { migrateContext } = await import('../../src/store/migrations.ts');
    const registry = new MigrationRegistry().register('0.9.0', CONTEXT_SCHEMA_VERSION, (d) => d);
    expect(thrown(() => migrateContext({ version: '0.9.0' }, CONTEXT_SCHEMA_VERSION, undefined as never))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'registry' }) });
    expect(thrown(() => migrateContext({ version: '0.9.0' }, CONTEXT_SCHEMA_VERSION, {} as never))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'registry' }) });
    expect(thrown(() => migrateContext({ version: '0.9.0' }, Symbol('v') as never, registry))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'to' }) });
    expect(thrown(() => migrateContext(null, CONTEXT_SCHEMA_VERSION, registry))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'context.version' }) });
    const unclonable = thrown(() => migrateContext({ version: '0.9.0', hook: () => 1 }, CONTEXT_SCHEMA_VERSION, registry));
    expect(unclonable).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'context' }) });
    expect(unclonable.cause).toMatchObject({ name: 'DataCloneError' });
    // `to` left out is the current version, as in registry.migrate.
    expect(migrateContext({ version: '0.9.0', x: 1 }, undefined as never, registry)).toEqual({ version: CONTEXT_SCHEMA_VERSION, x: 1 });
  });
});
