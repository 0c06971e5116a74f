import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import { DiffTracker } from '../../src/store/diff.ts';
import { jsonEqual } from '../../src/store/json-data.ts';
import { assertSafeJsonMember, isPlainObject, parseSafeJson } from '../../src/store/json-safety.ts';
import { jsonByteLength, tapeJsonBytes, tapeMaxJsonBytes } from '../../src/store/json-size.ts';
import { TAPE_ARRAY, TAPE_OBJECT, recordItemTape, recordTape, recordTapeWithSizes, tapeMatches } from '../../src/store/json-tape.ts';
import type { ContextLimits } from '../../src/store/limits.ts';
import { ContextSizeChecker, getStats } from '../../src/store/limits.ts';
import type { AgentContext, ContextChanges } from '../../src/store/model.ts';
import { NAMESPACES, namespaceSchema, validateAgentContext, validateAgentContextSchema } from '../../src/store/model.ts';
import { passNamespace } from '../../src/store/namespace-pass.ts';
import type { Plan } from '../../src/store/schema-plan.ts';
import { PLAN_ZOD, planOf } from '../../src/store/schema-plan.ts';
import { sealRecord } from '../../src/store/record.ts';
import { canonicalContextText, deserializeContext, serializeContext } from '../../src/store/serialize.ts';
import { sampleContext } from './contract.ts';

// The fast paths of the store (one-walk serialisation and measuring, zod schemas compiled to
// plans, diff capture reusing tapes and item copies) are checked here against the straightforward
// paths they replace, on random contexts full of edge cases: -0, unicode, lone surrogates,
// forbidden keys, undefined members, array-index member names, toJSON, non-plain objects, deep and
// cyclic data. Every context is a fresh object, so every call is a first call.

const TS = '2026-01-02T03:04:05.000Z';

/** A context with every namespace and most optional fields filled, small enough to mutate a lot. */
function richContext(): AgentContext {
  const ctx = sampleContext('rich');
  ctx.reasoning.intents.push({ type: 'analysis', confidence: 0, entities: [] });
  ctx.reasoning.entities.owner = { name: 'Zoë', tags: ['a', 'b'], nested: { deep: [1, [2, [3]]] } };
  ctx.reasoning.hypotheses = [
    { id: 'h1', description: 'first', dependencies: [] },
    { id: 'h2', description: 'second 構成', dependencies: ['h1'] },
  ];
  ctx.reasoning.conclusions = [{ id: 'c1', content: 'done', confidence: 1, basedOn: ['h1', 'f1'] }];
  ctx.reasoning.dependencyMap = { h2: ['h1'], weights: [0.5, -0] };
  ctx.reasoning.confidenceScores = { h1: 0.25, h2: 1 };
  ctx.enrichment.facts.push({ id: 'f2', content: 'tab\tquote" back\\slash', source: 'web', timestamp: TS, confidence: 0.5 });
  ctx.enrichment.derivedKnowledge = [{ id: 'k1', content: 'derived', derivedFrom: ['f1', 'f2'] }];
  ctx.enrichment.relationships = [{ from: 'a', to: 'b', type: 'depends-on' }];
  ctx.enrichment.contextLinks = ['https://example.test/1', 'https://example.test/ü'];
  ctx.retrieval.plans = [{ id: 'p1', description: 'plan', sources: ['gitlab'], filters: { state: 'open' }, priority: 2 }];
  ctx.retrieval.queries = [{ id: 'q1', queryString: 'q', source: 'gitlab', filters: {}, results: { hits: [1, 2], total: 2 } }];
  ctx.retrieval.artifacts = [
    { id: 'a1', type: 'text', content: { body: 'x', lines: ['1', '2'] }, source: 'web' },
    { id: 'a2', type: 'text', ref: { sha256: 'a'.repeat(64), size: 12 }, source: 'store' },
  ];
  ctx.llm.provider = 'anthropic';
  ctx.llm.model = 'model-x';
  ctx.llm.decisions = [{ timestamp: TS, agentId: 'inference', taskType: 'reasoning', selected: 'model-x', reason: 'why', complexity: 'high' }];
  ctx.llm.cache = { k: { hit: true } };
  ctx.diagnostics.errors = [{ timestamp: TS, agentId: 'a', message: 'boom', severity: 'high', details: { code: 7, stack: ['x'] } }];
  ctx.diagnostics.warnings = [{ timestamp: TS, agentId: 'a', message: 'careful' }];
  ctx.diagnostics.performance = { totalDurationMs: 12, agentMetrics: { a: { durationMs: 3, llmCalls: 1, status: 'ok', tokens: 10, cost: 0.5 } } };
  ctx.diagnostics.validationReports = [{ timestamp: TS, agentId: 'v', passed: true, issues: [], autoFixes: ['x'] }];
  ctx.audit.agentRuns = [{ timestamp: TS, agentId: 'a', status: 'success', durationMs: 3, keysWritten: ['reasoning.intents'] }];
  ctx.audit.diffs = [{ timestamp: TS, agentId: 'a', changes: { reasoning: { intents_added: 1 } } }];
  return ctx;
}

class Thing {
  constructor(readonly a = 1) {}
}

function nested(depth: number): unknown {
  let v: unknown = 'leaf';
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/** Edge values, each made fresh (some are mutable or must not be shared). */
const EDGE_MAKERS: readonly (() => unknown)[] = [
  () => -0,
  () => 0,
  () => 1.5,
  () => 2 ** 53,
  () => 2 ** 53 + 2,
  () => 1e21,
  () => 5e-324,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => '',
  () => 'plain',
  () => 'naïve café 構成 😀',
  () => '\ud800',
  () => 'a\udc00b',
  () => 'x\ud83d',
  () => '\u2028\u2029',
  () => 'tab\tnew\nline\r',
  () => 'quote" back\\slash',
  () => '\u0000\u0007\u001f\u007f',
  () => 'looks like an escape: \\ud800',
  () => '2026-01-02T03:04:05Z',
  () => '2026-13-02T03:04:05Z',
  () => true,
  () => null,
  () => undefined,
  () => [],
  () => [1, [2, [3, []]]],
  () => [undefined],
  () => new Array(2),
  () => Object.assign([1, 2], { extra: 'ignored' }),
  () => ({}),
  () => ({ b: 1, a: [2, { d: 3, c: 4 }] }),
  () => JSON.parse('{"__proto__": {"polluted": true}}') as unknown,
  () => ({ constructor: 1 }),
  () => ({ prototype: 1 }),
  () => ({ 1: 'one', 10: 'ten', 2: 'two', b: 'b' }),
  () => ({ '\ud800': 1 }),
  () => ({ 'é': 1, e: 2, 'E': 3, '😀': 4, '\uffff': 5 }),
  () => Object.assign(Object.create(null) as object, { z: 1, a: 2 }),
  () => ({ toJSON: () => 'replaced' }),
  () => Object.defineProperty({ a: 1 }, 'toJSON', { value: () => 'hidden', enumerable: false }),
  () => Object.defineProperty({ b: 1, a: 2 }, 'toJSON', { value: () => 'hidden', enumerable: false }),
  () => Object.defineProperty(['x', { b: 1, a: 2 }], 'toJSON', { value: () => 'hidden array', enumerable: false }),
  () => new Date(0),
  () => new Map([['a', 1]]),
  () => new Thing(),
  () => ({ [Symbol('s')]: 1, a: 1 }),
  () => nested(97),
  () => nested(99),
  () => nested(130),
  () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    return cyclic;
  },
  () => 1n,
  () => () => 1,
  () => Symbol('x'),
  () => ({ id: 'x', content: 'y', source: 'z', timestamp: TS, confidence: 0.5 }),
  () => ({ type: 'query', confidence: 0.5 }),
  // The one-walk writer's placeholders start with U+E000: data that holds one must not confuse it.
  () => 'y'.repeat(150),
  () => '\uE000',
  () => '\uE0000',
  () => ({ long: 'z'.repeat(140), fake: '\uE0000', other: '\uE0001"' }),
  () => ['w'.repeat(200), '\uE0000', 'v'.repeat(130)],
  () => ({ sha256: 'b'.repeat(64), size: 3 }),
];

const valueArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.nat(EDGE_MAKERS.length - 1).map((i) => EDGE_MAKERS[i]!()) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
);

type Mutation = { ns: number; path: number[]; action: number; key: string; value: unknown };
const mutationArb: fc.Arbitrary<Mutation> = fc.record({
  ns: fc.nat(NAMESPACES.length - 1),
  path: fc.array(fc.nat(50), { maxLength: 4 }),
  action: fc.nat(9),
  key: fc.oneof(fc.constantFrom('id', 'content', 'extra', '__proto__', 'constructor', '0', '12', 'toJSON', 'é'), fc.string({ maxLength: 4 })),
  value: valueArb,
});

/** Follows `path` (indices into each container's members) from namespace `ns`, then replaces, deletes or adds a member. */
function mutate(ctx: AgentContext, { ns, path, action, key, value }: Mutation): void {
  const root = ctx as unknown as Record<string, unknown>;
  let parent: Record<string, unknown> = root;
  let name: string = NAMESPACES[ns]!;
  for (const step of path) {
    const node = parent[name];
    if (node === null || typeof node !== 'object' || !(Array.isArray(node) || isPlainObject(node))) break;
    const names = Object.keys(node);
    if (names.length === 0) break;
    parent = node as Record<string, unknown>;
    name = names[step % names.length]!;
  }
  const target = parent[name];
  const container = target !== null && typeof target === 'object' && (Array.isArray(target) || isPlainObject(target)) ? (target as Record<string, unknown>) : undefined;
  if (action <= 4 || container === undefined) parent[name] = value;
  else if (action <= 6) {
    const names = Object.keys(container);
    if (names.length > 0) delete container[names[key.length % names.length]!];
  } else if (Array.isArray(container)) container.push(value);
  else if (Object.getOwnPropertyDescriptor(container, key)?.configurable !== false) {
    // A member that cannot be redefined (the hidden toJSON of an edge value, defined with
    // defineProperty's defaults) stays as it is: no caller could replace it either.
    Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
  }
}

/** What the straightforward path does: validate the whole context, then write its RFC 8785 text. */
function fullSerialise(ctx: AgentContext): { text: string } | { code: unknown; details: unknown } {
  try {
    validateAgentContext(ctx);
    return { text: canonicalContextText(ctx) };
  } catch (error) {
    const e = error as { code?: unknown; details?: unknown };
    return { code: e.code, details: e.details };
  }
}

function fastSerialise(ctx: AgentContext): { text: string } | { code: unknown; details: unknown } {
  try {
    return { text: serializeContext(ctx) };
  } catch (error) {
    const e = error as { code?: unknown; details?: unknown };
    return { code: e.code, details: e.details };
  }
}

/** The namespace's verdict the straightforward way: the JSON-safety walk and the namespace schema. */
function schemaAccepts(ctx: AgentContext, ns: (typeof NAMESPACES)[number]): boolean {
  try {
    assertSafeJsonMember(ctx, ctx[ns], `context.${ns}`);
  } catch {
    return false;
  }
  return namespaceSchema(ns).safeParse(ctx[ns]).success;
}

/**
 * True if `value` holds something the one-walk path leaves to the full path even when the
 * schema accepts it: an array-index member name (JSON.stringify would move it), a lone surrogate
 * or the text `\ud` (RFC 8785 refuses the first; both look alike in JSON text), a toJSON function,
 * the private-use character U+E000 (which starts the walk's placeholders for long strings).
 */
function leftToFullPath(value: unknown, seen = new Set<unknown>()): boolean {
  if (typeof value === 'string') return !value.isWellFormed() || value.includes('\\ud') || value.includes('\uE000');
  if (value === null || typeof value !== 'object' || seen.has(value)) return false;
  seen.add(value);
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return true;
  for (const key of Object.keys(value)) {
    if (!Array.isArray(value) && (/^(?:0|[1-9][0-9]*)$/.test(key) || leftToFullPath(key))) return true;
    if (leftToFullPath((value as Record<string, unknown>)[key], seen)) return true;
  }
  return false;
}

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

describe('one-walk serialisation against validation + canonicalize', () => {
  it('serializeContext on a never-serialised context equals the full path, text or error (property)', () => {
    fc.assert(
      fc.property(fc.array(mutationArb, { maxLength: 4 }), (mutations) => {
        const ctx = richContext();
        for (const m of mutations) mutate(ctx, m);
        const expected = fullSerialise(ctx);
        expect(fastSerialise(ctx)).toEqual(expected);
        // Second call: namespaces proven unchanged reuse what the first one computed.
        expect(fastSerialise(ctx)).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('a namespace passes the walk only if the schema and the JSON-safety walk accept it, with the same tape and text (property)', () => {
    fc.assert(
      fc.property(fc.array(mutationArb, { maxLength: 3 }), (mutations) => {
        const ctx = richContext();
        for (const m of mutations) mutate(ctx, m);
        for (const ns of NAMESPACES) {
          const accepted = schemaAccepts(ctx, ns);
          const passed = passNamespace(planOf(namespaceSchema(ns)), ctx[ns]);
          if (passed !== undefined) {
            expect(accepted).toBe(true);
            expect(passed.tape).toEqual(recordTape(ctx[ns]));
            expect(passed.canonical).toBe(canonicalize(ctx[ns]));
          } else if (accepted) {
            // The only valid namespaces the walk may leave to the full path.
            expect(leftToFullPath(ctx[ns])).toBe(true);
          }
        }
      }),
      { numRuns: 400 },
    );
  });

  it('every namespace schema compiles to a plan that never hands a value back to zod', () => {
    const zodPlans = (plan: Plan, seen = new Set<Plan>()): number => {
      if (seen.has(plan)) return 0;
      seen.add(plan);
      let n = plan.kind === PLAN_ZOD ? 1 : 0;
      if (plan.element !== undefined) n += zodPlans(plan.element, seen);
      for (const field of plan.fields) n += zodPlans(field, seen);
      return n;
    };
    for (const ns of NAMESPACES) expect(zodPlans(planOf(namespaceSchema(ns)))).toBe(0);
  });

  it('refuses with exactly the errors of validation, naming the same field', () => {
    const cases: [(ctx: AgentContext) => void, string][] = [
      [(ctx) => (ctx.reasoning.intents[0]!.confidence = -0.5), 'context.reasoning.intents[0].confidence'],
      [(ctx) => ((ctx.enrichment.facts[0] as unknown as Record<string, unknown>).timestamp = '2026-02-30T00:00:00Z'), 'context.enrichment.facts[0].timestamp'],
      [(ctx) => ((ctx.reasoning.entities as Record<string, unknown>).x = { prototype: 1 }), 'context.reasoning.entities.x.prototype'],
      [(ctx) => ((ctx.llm as unknown as Record<string, unknown>).extra = 1), 'context.llm.extra'],
      [(ctx) => ((ctx.metadata as unknown as Record<string, unknown>).locale = undefined), 'context.metadata.locale'],
      [(ctx) => ((ctx.retrieval.artifacts[0] as unknown as Record<string, unknown>).ref = { sha256: 'a'.repeat(64), size: 1 }), 'context.retrieval.artifacts[0].ref'],
      [(ctx) => ((ctx.reasoning.entities as Record<string, unknown>).deep = nested(120)), 'context.reasoning.entities.deep'],
      [(ctx) => (ctx.reasoning.summary = 'half \udc00'), 'context.reasoning.summary'],
      [(ctx) => (ctx.reasoning.entities = { [Symbol('s')]: 1, a: 1 } as Record<string, unknown>), 'context.reasoning.entities'],
      [(ctx) => (ctx.reasoning.entities = Object.assign(Object.create({ inherited: true }) as object, { a: 1 }) as Record<string, unknown>), 'context.reasoning.entities'],
    ];
    for (const [breakIt, field] of cases) {
      const ctx = richContext();
      breakIt(ctx);
      const expected = fullSerialise(ctx);
      expect(expected).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: expect.stringContaining(field) }) });
      expect(fastSerialise(ctx)).toEqual(expected);
    }
  });

  it('sees a change of prototype that keeps the data, after the context was serialised', () => {
    const ctx = richContext();
    const text = serializeContext(ctx);
    const owner = ctx.reasoning.entities.owner as Record<string, unknown>;
    ctx.reasoning.entities.owner = Object.assign(Object.create({}) as object, owner);
    expect(fastSerialise(ctx)).toEqual(fullSerialise(ctx));
    expect(fullSerialise(ctx)).toMatchObject({ code: 'INVALID_PARAMS' });
    ctx.reasoning.entities.owner = owner;
    expect(serializeContext(ctx)).toBe(text);
  });

  it('writes byte-identical text for member names and strings JSON must escape or move', () => {
    const ctx = richContext();
    ctx.reasoning.entities = { 10: 'ten', 9: 'nine', b: 'b', '\u007f': 'del', 'é': 'e-acute', '': 'empty' };
    ctx.reasoning.summary = 'control \u0001 quote " backslash \\ line \u2028 astral 😀 -0 below';
    ctx.reasoning.dependencyMap = { weights: [-0, 1e21, 5e-324, 0.1 + 0.2] };
    expect(serializeContext(ctx)).toBe(canonicalize(ctx));
    const again = richContext();
    again.reasoning.summary = 'not an escape: \\ud800';
    expect(serializeContext(again)).toBe(canonicalize(again));
  });

  it('honours a hidden toJSON as the full path does, and is not fooled by data that looks like its placeholders', () => {
    const hidden = richContext();
    hidden.reasoning.entities.owner = Object.defineProperty({ b: 1, a: 2 }, 'toJSON', { value: () => 'hidden' });
    hidden.reasoning.entities.list = Object.defineProperty(['x'], 'toJSON', { value: () => 'hidden list' });
    expect(fastSerialise(hidden)).toEqual(fullSerialise(hidden));
    expect(serializeContext(hidden)).toContain('"owner":"hidden"');
    for (const fake of ['\uE0000', '\uE0001', '\uE000', '\uE0000x', '\uE00099']) {
      const ctx = richContext();
      ctx.reasoning.summary = 'y'.repeat(200);
      ctx.reasoning.conclusions[0]!.content = 'z'.repeat(300);
      ctx.reasoning.entities.fake = fake;
      expect(fastSerialise(ctx)).toEqual(fullSerialise(ctx));
    }
  });
});

/** What loading did before the one-walk check: parse, the JSON-safety walk, then the whole schema. */
function fullDeserialise(text: string): { value: unknown } | { code: unknown; message: unknown; details: unknown } {
  try {
    const value = parseSafeJson(text, 'context');
    return { value: validateAgentContextSchema(value) };
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown; details?: unknown };
    return { code: e.code, message: e.message, details: e.details };
  }
}

function fastDeserialise(text: string): { value: unknown } | { code: unknown; message: unknown; details: unknown } {
  try {
    return { value: deserializeContext(text) };
  } catch (error) {
    const e = error as { code?: unknown; message?: unknown; details?: unknown };
    return { code: e.code, message: e.message, details: e.details };
  }
}

/** JSON text of `ctx` as a person or another program might write it: members in their own order. */
function plainText(ctx: AgentContext): string | undefined {
  try {
    return JSON.stringify(ctx);
  } catch {
    return undefined;
  }
}

describe('one-walk loading against parse + JSON-safety walk + schema', () => {
  it('deserializeContext accepts exactly what the full path accepts, with the same data or the same error (property)', () => {
    fc.assert(
      fc.property(fc.array(mutationArb, { maxLength: 4 }), fc.boolean(), (mutations, canonical) => {
        const ctx = richContext();
        for (const m of mutations) mutate(ctx, m);
        let text = plainText(ctx);
        if (text === undefined) return;
        if (canonical) {
          try {
            text = serializeContext(ctx);
          } catch {
            // Not serialisable: load the plain text instead.
          }
        }
        const expected = fullDeserialise(text);
        const got = fastDeserialise(text);
        expect(got).toEqual(expected);
        if ('value' in got) {
          // Same members in the same order, and serialising the loaded context writes what the full path would.
          expect(JSON.stringify(got.value)).toBe(JSON.stringify(JSON.parse(text)));
          expect(fastSerialise(got.value as AgentContext)).toEqual(fullSerialise(JSON.parse(text) as AgentContext));
        }
      }),
      { numRuns: 400 },
    );
  });

  it('refuses bad text with the errors it always reported', () => {
    const good = serializeContext(richContext());
    const cases: [string, string][] = [
      ['{"version": ', 'context'],
      [good.replace('"audit":{', '"audit":{"__proto__":{"x":1},'), 'context.audit.__proto__'],
      [good.replace('"reasoning":{"conclusions"', '"reasoning":{"extra":1,"conclusions"'), 'context.reasoning.extra'],
      [good.replace(/("intents":\[\{"confidence":)[0-9.]+/, '$17'), 'context.reasoning.intents[0].confidence'],
    ];
    for (const [text, field] of cases) {
      expect(text).not.toBe(good);
      const got = fastDeserialise(text);
      expect(got).toMatchObject({ details: expect.objectContaining({ field: expect.stringContaining(field) }) });
      expect(got).toEqual(fullDeserialise(text));
    }
    // An older version is not checked by the walk; it goes to the migrations.
    expect(fastDeserialise(good.replace('"version":"', '"version":"0.'))).toMatchObject({ code: 'MIGRATION_FAILED', details: { from: '0.1.0.0', to: '1.0.0' } });
  });

  it('remembers what it checked: a save right after a load writes the same text, and sees edits made in between', () => {
    const text = serializeContext(richContext());
    const loaded = deserializeContext(text);
    expect(serializeContext(loaded)).toBe(text);
    const again = deserializeContext(text);
    again.reasoning.summary = 'changed after loading';
    expect(serializeContext(again)).toBe(canonicalContextText(again));
    expect(serializeContext(again)).not.toBe(text);
    const broken = deserializeContext(text);
    (broken.reasoning.intents[0] as unknown as Record<string, unknown>).confidence = 'high';
    expect(fastSerialise(broken)).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'context.reasoning.intents[0].confidence' }) });
  });
});

describe('plans compiled from zod schemas against zod', () => {
  // Constructs the compiler knows, and ones it hands back to zod; the walk's verdict must equal
  // zod's (plus the JSON-safety walk) on any value, but for the cases it may leave to the full path.
  const schemas = {
    strict: z.strictObject({
      s: z.string().min(2),
      n: z.number().int().min(-3).max(3),
      b: z.boolean().optional(),
      at: z.iso.datetime({ offset: true }).optional(),
      hex: z.string().regex(/^[0-9a-f]+$/).optional(),
      list: z.array(z.number().positive()).optional(),
      map: z.record(z.string(), z.unknown()).optional(),
    }),
    refined: z.strictObject({ a: z.number().optional(), b: z.number().optional() }).refine((v) => !(v.a !== undefined && v.b !== undefined)),
    handedBack: z.strictObject({
      stripped: z.object({ a: z.string() }).optional(),
      union: z.union([z.string(), z.number()]).optional(),
      defaulted: z.string().default('x').optional(),
      email: z.email().optional(),
      multiple: z.number().multipleOf(0.5).optional(),
      short: z.array(z.string()).min(1).optional(),
      keyed: z.record(z.enum(['x', 'y']), z.number()).optional(),
      literal: z.literal('on').optional(),
      nullable: z.string().nullable().optional(),
    }),
  };
  const fieldValue = fc.oneof(valueArb, fc.string({ maxLength: 4 }), fc.integer({ min: -5, max: 5 }), fc.constantFrom('2026-01-02T03:04:05Z', 'ab', 'a@b.test', 'on', 'x'));
  const objectArb = fc.dictionary(
    fc.constantFrom('s', 'n', 'b', 'at', 'hex', 'list', 'map', 'a', 'stripped', 'union', 'defaulted', 'email', 'multiple', 'short', 'keyed', 'literal', 'nullable', 'other'),
    fc.oneof(fieldValue, fc.array(fieldValue, { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'x', 'y', '1'), fieldValue, { maxKeys: 3 })),
    { maxKeys: 6 },
  );

  it('agrees with zod at the edges of every check it compiles', () => {
    const checks = {
      positive: z.number().positive(),
      nonnegative: z.number().nonnegative(),
      unitInterval: z.number().min(0).max(1),
      below: z.number().lt(3),
      int: z.number().int(),
      int32: z.int32(),
      finite: z.number(),
      min2: z.string().min(2),
      hex: z.string().regex(/^[0-9a-f]{2}$/),
      datetime: z.iso.datetime({ offset: true }),
      email: z.email(),
      trimmedMax: z.string().trim().max(2),
      tags: z.array(z.string()).max(1),
      flag: z.boolean(),
    };
    const values: unknown[] = [0, -0, 1e-300, -1e-300, 0.5, 1, 1 + 1e-15, 3, 3 - 1e-15, 2.5, 2 ** 31, 2 ** 53 - 1, 2 ** 53, Number.NaN, Number.POSITIVE_INFINITY, -1,
      '', 'a', 'ab', '😀', '😀😀', '\ud800', '\ud800\ud800', 'AB', 'ff', ' ab ', '2026-01-02T03:04:05Z', '2026-01-02T03:04:05.123+01:00', '2026-02-30T00:00:00Z', '2026-01-02 03:04:05Z',
      'a@b.test', 'not an email', [], ['x'], ['x', 'y'], [1], true, null, undefined, {}];
    for (const [name, check] of Object.entries(checks)) {
      const schema = z.strictObject({ v: check });
      for (const v of values) {
        const value = { v };
        let safe = true;
        try {
          assertSafeJsonMember({}, value, 'v');
        } catch {
          safe = false;
        }
        const accepted = safe && schema.safeParse(value).success;
        const passed = passNamespace(planOf(schema), value) !== undefined;
        expect({ name, v, passed }).toEqual({ name, v, passed: accepted && !leftToFullPath(value) });
      }
    }
  });

  it('accepts exactly what zod and the JSON-safety walk accept (property)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...(Object.keys(schemas) as (keyof typeof schemas)[])), objectArb, (name, value) => {
        const schema = schemas[name];
        let safe = true;
        try {
          assertSafeJsonMember({}, value, 'v');
        } catch {
          safe = false;
        }
        const accepted = safe && schema.safeParse(value).success;
        const passed = passNamespace(planOf(schema), value);
        if (passed !== undefined) {
          expect(accepted).toBe(true);
          expect(passed.canonical).toBe(canonicalize(value));
        } else if (accepted) expect(leftToFullPath(value)).toBe(true);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('measuring while recording', () => {
  const codeUnits = fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength: 40 }).map((units) => String.fromCharCode(...units));

  it('recordTape records what a plain Object.keys walk records, with or without a polluted Object.prototype (property)', () => {
    const arb = fc.oneof(valueArb, fc.dictionary(fc.oneof(fc.string(), codeUnits), fc.oneof(valueArb, codeUnits), { maxKeys: 5 }));
    fc.assert(
      fc.property(arb, (value) => {
        expect(recordTape(value)).toEqual(referenceTape(value, 0));
        expect(recordItemTape(value)).toEqual(referenceTape(value, 1));
      }),
      { numRuns: 1500 },
    );
    const proto = Object.prototype as Record<string, unknown>;
    proto.polluted = 'yes';
    try {
      fc.assert(
        fc.property(arb, (value) => {
          expect(recordTape(value)).toEqual(referenceTape(value, 0));
        }),
        { numRuns: 300 },
      );
      expect(recordTape({ a: 1 })).toEqual([TAPE_OBJECT, 1, 'a', 1]);
    } finally {
      delete proto.polluted;
    }
  });

  it('a walk started by a getter while another walk is under way leaves both records whole', () => {
    // Both recorders (recordTape's and the namespace pass's) write into one reused scratch array; a
    // walk that starts while another holds it gets an array of its own.
    const inner = { list: ['x', 'y', 3], flag: true };
    const innerTape = recordTape(inner)!;
    const innerPlan = planOf(z.object({ provider: z.string(), model: z.string() }));
    const seen: unknown[] = [];
    const outer: Record<string, unknown> = { a: 'first', c: [1, 2, { d: null }] };
    Object.defineProperty(outer, 'b', {
      enumerable: true,
      get: () => {
        seen.push(recordTape(inner), recordTapeWithSizes(inner, true), passNamespace(innerPlan, { provider: 'p', model: 'm' })?.canonical);
        return 'second';
      },
    });
    const plain = { a: 'first', c: [1, 2, { d: null }], b: 'second' };
    const want = recordTape(plain)!;
    seen.length = 0;
    expect(recordTape(outer)).toEqual(want);
    expect(seen).toEqual([innerTape, { tape: innerTape, maxJsonBytes: tapeMaxJsonBytes(innerTape), jsonBytes: jsonByteLength(inner) }, passNamespace(innerPlan, { provider: 'p', model: 'm' })!.canonical]);
    // The same from inside the namespace pass, and the scratch array is free again afterwards.
    seen.length = 0;
    expect(passNamespace(planOf(z.record(z.string(), z.unknown())), outer)?.tape).toEqual(want);
    expect(seen[0]).toEqual(innerTape);
    expect(recordTape(plain)).toEqual(want);
    expect(recordTape(inner)).toEqual(innerTape);
  });

  it('counts from a tape the bytes jsonByteLength counts, and an upper bound of them (property)', () => {
    fc.assert(
      fc.property(fc.oneof(valueArb, fc.dictionary(fc.oneof(fc.string(), codeUnits), fc.oneof(valueArb, codeUnits), { maxKeys: 5 })), (value) => {
        const tape = recordTape(value);
        if (tape === undefined) return;
        const exact = jsonByteLength(value);
        expect(tapeJsonBytes(tape)).toBe(exact);
        const bound = tapeMaxJsonBytes(tape);
        // Counted while recording, the bound is the one counted from the tape, and so is the exact
        // size when it is asked for.
        expect(recordTapeWithSizes(value)).toEqual({ tape, maxJsonBytes: bound });
        expect(recordTapeWithSizes(value, true)).toEqual({ tape, maxJsonBytes: bound, jsonBytes: exact });
        expect(bound).toBeGreaterThanOrEqual(exact);
        // Strings count 6 bytes a unit at most (3 times plain text's most); a number 25 bytes at most
        // (9 times the 3 of the shortest non-integer, or of a two-digit integer with its comma); a
        // member set to undefined as if it were null.
        const withNulls = new TextEncoder().encode(JSON.stringify(value, (_, v: unknown) => (v === undefined ? null : v))).length;
        expect(bound).toBeLessThanOrEqual(9 * withNulls);
      }),
      { numRuns: 1500 },
    );
    // Numbers at the bound's edges: the longest any number writes, and integers counted exactly.
    for (const n of [-0.0000012345678901234567, -1.7976931348623157e308, 5e-324, -999_999_999, 999_999_999, -0, 0.5, 1e21, -1e9, 1e9]) {
      const tape = recordTape([n])!;
      expect(tapeMaxJsonBytes(tape)).toBeGreaterThanOrEqual(bytes([n]));
    }
    expect(bytes([-0.0000012345678901234567])).toBe(2 + 25);
    expect(tapeMaxJsonBytes(recordTape([-0.0000012345678901234567])!)).toBe(2 + 25);
    expect(tapeMaxJsonBytes(recordTape([-999_999_999, 10, 7, -0])!)).toBe(2 + 3 + 10 + 2 + 1 + 1);
    // Numbers from the whole double range: the bound never falls short of what Number#toString writes.
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 8 }), (ns) => {
        expect(tapeMaxJsonBytes(recordTape(ns)!)).toBeGreaterThanOrEqual(bytes(ns));
      }),
      { numRuns: 1000 },
    );
    // Strings of the units JSON writes longest: each reaches the bound exactly.
    for (const s of ['\u0001'.repeat(50), '\ud800'.repeat(50), '\udc00x'.repeat(30)]) {
      const tape = recordTape([s])!;
      expect(tapeJsonBytes(tape)).toBe(bytes([s]));
      expect(tapeMaxJsonBytes(tape)).toBe(2 + 6 * s.length + 2);
    }
    expect(bytes(['\u0001'.repeat(50)])).toBe(2 + 6 * 50 + 2);
    expect(tapeMaxJsonBytes(recordTape({ ab: 'xyz', n: 12.5, i: 42, t: true, f: false, z: null, u: undefined, e: [], o: {} })!)).toBe(
      // Braces, 9 colons and 8 commas; 9 names of 1-2 units at 6 per unit + quotes; "xyz" at 6 per
      // unit + quotes; 12.5 at 25; 42 exactly; true, false, null and undefined at 5; [] and {} at 2.
      2 + 9 + 8 + (6 * 2 + 2) + 8 * (6 * 1 + 2) + (6 * 3 + 2) + 25 + 2 + 5 + 5 + 5 + 5 + 2 + 2,
    );
  });

  it('a value that matches a tape has the bytes counted from the tape (property)', () => {
    fc.assert(
      fc.property(valueArb, fc.array(mutationArb, { maxLength: 2 }), fc.boolean(), (value, mutations, same) => {
        const ctx = richContext();
        const recorded = recordTape(same ? value : ctx.reasoning);
        for (const m of mutations) mutate(ctx, m);
        const live = same ? structuredCloneOrSelf(value) : ctx.reasoning;
        if (recorded === undefined || !tapeMatches(live, recorded)) return;
        expect(tapeJsonBytes(recorded)).toBe(jsonByteLength(live));
      }),
      { numRuns: 1000 },
    );
  });

  it('measures a serialised namespace from its canonical text, long strings and escapes included', () => {
    const ctx = richContext();
    ctx.reasoning.summary = `${'long é 構成 😀 '.repeat(40)}end`;
    ctx.reasoning.conclusions[0]!.content = 'c'.repeat(300);
    ctx.enrichment.facts[0]!.content = `${'quote " and newline \n '.repeat(20)}`;
    ctx.retrieval.artifacts[0]!.content = Array.from({ length: 12 }, (_, i) => `${'x'.repeat(130)}${i}`);
    serializeContext(ctx);
    const stats = getStats(ctx);
    for (const ns of NAMESPACES) expect(stats.namespaceSizes[ns]).toBe(bytes(ctx[ns]));
    expect(stats.totalSize).toBe(bytes(ctx));
  });

  it('measures edge cases from their tapes as jsonByteLength does', () => {
    const pairs: [unknown, unknown][] = [
      [{ a: 1 }, { a: undefined }],
      [{ a: undefined }, { a: 1 }],
      [{ a: undefined }, { a: undefined }],
      [{ a: 1, b: 2 }, { b: 2, a: 1 }],
      [{ a: 1 }, { a: 1, b: 2 }],
      [[1, 2], [1, 2, 3]],
      [[1, 2], [1]],
      [{ a: [0] }, { a: [-0] }],
      [{ a: 'x' }, Object.assign(Object.create({}) as object, { a: 'x' })],
      [{ a: 'x' }, Object.assign(Object.create(null) as object, { a: 'x' })],
      [{ a: 'x' }, Object.defineProperty({ a: 'x' }, 'toJSON', { value: () => 1 })],
      [['é', { k: '😀' }], ['é', { k: '😀' }]],
      [{ s: 'tab\t"' }, { s: 'tab\t"' }],
      [{ n: 1.5 }, { n: Number.NaN }],
    ];
    for (const [recordedValue, live] of pairs) {
      const tape = recordTape(recordedValue)!;
      expect(tapeJsonBytes(tape)).toBe(jsonByteLength(recordedValue));
      if (tapeMatches(live, tape)) expect(tapeJsonBytes(tape)).toBe(jsonByteLength(live));
    }
  });

  it('getStats and check agree with a full recount, on a never-measured context and after serialising and editing it (property)', () => {
    fc.assert(
      fc.property(fc.array(mutationArb, { maxLength: 4 }), fc.array(mutationArb, { maxLength: 2 }), (mutations, later) => {
        const ctx = richContext();
        for (const m of mutations) mutate(ctx, m);
        if (later.length > 0) {
          // Memos from serialising (tapes and texts, no sizes yet), then edits they must not hide.
          try {
            serializeContext(ctx);
          } catch {
            // An invalid context is still measured.
          }
          for (const m of later) mutate(ctx, m);
        }
        let total: number;
        try {
          total = bytes(ctx);
        } catch (error) {
          // BigInt and cycles: JSON.stringify throws, and measuring refuses them as UNSUPPORTED_VALUE.
          expect(error).toBeInstanceOf(TypeError);
          expect(() => new ContextSizeChecker().check(ctx)).toThrow(expect.objectContaining({ code: 'UNSUPPORTED_VALUE', details: expect.objectContaining({ field: 'ctx' }) }));
          return;
        }
        // getStats also walks retrieval.artifacts, which a mutation may have made unwalkable, and
        // counts a namespace JSON leaves out (a function) as a member: compare only JSON contexts.
        const artifacts = (ctx.retrieval as unknown as Record<string, unknown> | undefined)?.artifacts;
        const walkable = artifacts === undefined || (Array.isArray(artifacts) && Array.from(artifacts).every((a) => a !== null && a !== undefined));
        if (walkable && NAMESPACES.every((ns) => typeof ctx[ns] !== 'function' && typeof ctx[ns] !== 'symbol')) {
          const stats = getStats(later.length > 0 ? ctx : structuredCloneOrSelf(ctx));
          expect(stats.totalSize).toBe(total);
          for (const ns of NAMESPACES) expect(stats.namespaceSizes[ns]).toBe(ctx[ns] === undefined ? 0 : bytes(ctx[ns]));
        }
        if (!NAMESPACES.every((ns) => typeof ctx[ns] !== 'function' && typeof ctx[ns] !== 'symbol')) return;
        const fresh = later.length > 0 ? ctx : structuredCloneOrSelf(ctx);
        expect(() => new ContextSizeChecker({ maxTotalSize: total - 1 }).check(fresh)).toThrow(
          expect.objectContaining({ code: 'CONTEXT_SIZE', details: expect.objectContaining({ current: total }) }),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('check decides and reports exactly as a check counting JSON.stringify text, with limits at, under and over the sizes (property)', () => {
    // Limits picked around the true sizes, so both the upper bounds and the exact counts decide.
    // Text JSON writes at up to 6 bytes a unit (controls, lone surrogates), where a loose bound would show.
    const escapeHeavy = fc.array(fc.constantFrom('\u0001', '\n', '\ud800', '\udfff', '"', '\\', 'é', '構', '😀', 'a'), { maxLength: 30 }).map((units) => units.join(''));
    const pick = fc.record({
      ns: fc.constantFrom(...NAMESPACES),
      nsLimit: fc.constantFrom(-1, 0, 1, 'bound', 'default'),
      totalLimit: fc.constantFrom(-1, 0, 1, 'bound', 'default'),
      items: fc.constantFrom(1, 2, 1000),
    });
    fc.assert(
      fc.property(fc.array(mutationArb, { maxLength: 4 }), fc.array(mutationArb, { maxLength: 2 }), pick, fc.oneof(fc.string({ unit: 'binary' }), codeUnits, escapeHeavy), (mutations, later, p, text) => {
        const ctx = richContext();
        ctx.reasoning.summary = text.repeat(20);
        for (const m of mutations) mutate(ctx, m);
        let total: number;
        try {
          total = referenceBytes(ctx);
        } catch {
          return;
        }
        // A namespace JSON leaves out (a function) still counts as a member in the total: left out here, as above.
        if (!NAMESPACES.every((ns) => typeof ctx[ns] !== 'function' && typeof ctx[ns] !== 'symbol')) return;
        const size = referenceBytes(ctx[p.ns]);
        const limits = limitsAround(total, size, p);
        const expected = referenceCheck(ctx, limits);
        const fresh = structuredCloneOrSelf(ctx);
        // First call, again (memos proven), after the exact sizes are known, after serialising and edits.
        expect(checkOutcome(fresh, limits)).toEqual(expected);
        expect(checkOutcome(fresh, limits)).toEqual(expected);
        try {
          getStats(fresh);
        } catch {
          // getStats also walks the artifacts, which a mutation may have broken.
        }
        expect(checkOutcome(fresh, limits)).toEqual(expected);
        try {
          serializeContext(fresh);
        } catch {
          // An invalid context is still measured.
        }
        for (const m of later) mutate(fresh, m);
        try {
          referenceBytes(fresh);
        } catch {
          return;
        }
        if (!NAMESPACES.every((ns) => typeof fresh[ns] !== 'function' && typeof fresh[ns] !== 'symbol')) return;
        expect(checkOutcome(fresh, limits)).toEqual(referenceCheck(fresh, limits));
      }),
      { numRuns: 400 },
    );
  });

  it("a store's save decides and reports sizes exactly as a check counting JSON.stringify text, from what serialising recorded (property)", async () => {
    const escapeHeavy = fc.array(fc.constantFrom('\u0001', '\n', '"', '\\', 'é', '構', '😀', 'a'), { maxLength: 30 }).map((units) => units.join(''));
    const pick = fc.record({
      ns: fc.constantFrom(...NAMESPACES),
      // Mostly the default for one of the two, so the other decides as often as not.
      nsLimit: fc.constantFrom(-1, 0, 1, 'bound', 'default', 'default', 'default'),
      totalLimit: fc.constantFrom(-1, 0, 1, 'bound', 'default'),
      items: fc.constantFrom(1, 2, 1000, 1000, 1000),
    });
    /** What save's sealing did: the details of its ContextSizeError, undefined if it sealed, 'invalid' if validation refused first. */
    const sealOutcome = async (ctx: AgentContext, limits: ContextLimits): Promise<Record<string, unknown> | 'invalid' | undefined> => {
      try {
        await sealRecord('id', 1, ctx, { limits });
        return undefined;
      } catch (error) {
        if ((error as { code?: unknown }).code === 'INVALID_PARAMS') return 'invalid';
        expect(error).toMatchObject({ name: 'ContextSizeError', code: 'CONTEXT_SIZE' });
        return (error as { details: Record<string, unknown> }).details;
      }
    };
    await fc.assert(
      fc.asyncProperty(fc.array(mutationArb, { maxLength: 2 }), fc.array(mutationArb, { maxLength: 2 }), pick, fc.oneof(fc.string({ unit: 'grapheme' }), escapeHeavy), async (mutations, later, p, text) => {
        const ctx = richContext();
        ctx.reasoning.summary = text.repeat(20);
        for (const m of mutations) mutate(ctx, m);
        const fresh = structuredCloneOrSelf(ctx);
        let total: number;
        let size: number;
        try {
          total = referenceBytes(fresh);
          size = referenceBytes(fresh[p.ns]);
        } catch {
          return;
        }
        const limits = limitsAround(total, size, p);
        // A never-serialised context, then the same one again (its memos proven unchanged).
        const first = await sealOutcome(fresh, limits);
        if (first === 'invalid') return;
        expect(first).toEqual(referenceCheck(fresh, limits));
        expect(await sealOutcome(fresh, limits)).toEqual(first);
        // Edits after serialising must not be hidden by what it recorded.
        for (const m of later) mutate(fresh, m);
        const after = await sealOutcome(fresh, limits);
        if (after !== 'invalid') expect(after).toEqual(referenceCheck(fresh, limits));
      }),
      { numRuns: 300 },
    );
  });
});

/** The tape of `value` as json-tape.ts documents it, by a plain walk over `Object.keys` (the reference for recordTape). */
function referenceTape(value: unknown, depth: number): unknown[] | undefined {
  const tape: unknown[] = [];
  const walk = (v: unknown, d: number): boolean => {
    if (typeof v === 'string' || typeof v === 'boolean' || v === null) return tape.push(v) > 0;
    if (typeof v === 'number') return Number.isFinite(v) && tape.push(v) > 0;
    if (typeof v !== 'object' || d >= 128 || typeof (v as { toJSON?: unknown }).toJSON === 'function') return false;
    if (Array.isArray(v)) {
      tape.push(TAPE_ARRAY, v.length);
      for (let i = 0; i < v.length; i++) if (v[i] === undefined || !walk(v[i], d + 1)) return false;
      return true;
    }
    if (!isPlainObject(v)) return false;
    const keys = Object.keys(v);
    tape.push(TAPE_OBJECT, keys.length);
    for (const key of keys) {
      tape.push(key);
      if (v[key] === undefined) tape.push(undefined);
      else if (!walk(v[key], d + 1)) return false;
    }
    return true;
  };
  return walk(value, depth) ? tape : undefined;
}

/** Bytes of JSON.stringify's text as UTF-8, 0 when it writes nothing (what the checker counts). */
function referenceBytes(value: unknown): number {
  const text = JSON.stringify(value) as string | undefined;
  return text === undefined ? 0 : new TextEncoder().encode(text).length;
}

/**
 * Limits around a context's exact sizes, as a property draws them: each limit the spec's default,
 * three times the size (`'bound'`), or the size plus a drawn offset (at, just under or over it).
 */
function limitsAround(total: number, nsSize: number, p: { totalLimit: number | string; nsLimit: number | string; items: number }): ContextLimits {
  const around = (exact: number, choice: number | string, fallback: number): number =>
    choice === 'default' ? fallback : choice === 'bound' ? Math.max(1, 3 * exact) : Math.max(1, exact + (choice as number));
  return {
    maxTotalSize: around(total, p.totalLimit, 10 * 1024 * 1024),
    maxNamespaceSize: around(nsSize, p.nsLimit, 2 * 1024 * 1024),
    maxArrayItems: p.items,
    artifactExternalizationThreshold: 100 * 1024,
    maxInlineArtifactSize: 50 * 1024,
  };
}

/** The details of the error spec 004's size check reports for `ctx` under `limits`, counted by JSON.stringify; undefined if none. */
function referenceCheck(ctx: AgentContext, limits: ContextLimits): Record<string, unknown> | undefined {
  for (const ns of NAMESPACES) {
    for (const [key, value] of Object.entries((ctx[ns] ?? {}) as object)) {
      if (Array.isArray(value) && value.length > limits.maxArrayItems) return { limit: 'maxArrayItems', current: value.length, maximum: limits.maxArrayItems, namespace: ns, key };
    }
    const size = referenceBytes(ctx[ns]);
    if (size > limits.maxNamespaceSize) return { limit: 'maxNamespaceSize', current: size, maximum: limits.maxNamespaceSize, namespace: ns };
  }
  const total = referenceBytes(ctx);
  return total > limits.maxTotalSize ? { limit: 'maxTotalSize', current: total, maximum: limits.maxTotalSize } : undefined;
}

/** What `check` did: the details of its ContextSizeError, or undefined if it passed. */
function checkOutcome(ctx: AgentContext, limits: ContextLimits): Record<string, unknown> | undefined {
  try {
    new ContextSizeChecker(limits).check(ctx);
    return undefined;
  } catch (error) {
    expect(error).toMatchObject({ code: 'CONTEXT_SIZE' });
    return (error as { details: Record<string, unknown> }).details;
  }
}

/**
 * A fresh copy (so the checker sees a never-measured object) when structuredClone can make one
 * with the same JSON (it cannot copy a function, and drops a hidden toJSON), else the value itself.
 */
function structuredCloneOrSelf<T>(value: T): T {
  try {
    const copy = structuredClone(value);
    return JSON.stringify(copy) === JSON.stringify(value) ? copy : value;
  } catch {
    return value;
  }
}

describe('diff capture against a straightforward diff', () => {
  // The straightforward diff of spec 004: every field compared as data, arrays item by item
  // (items with a string id matched by id, others by their RFC 8785 text), map fields entry by
  // entry, anything else whole; no tapes, no reuse.
  const MAPS = new Set(['reasoning.entities', 'reasoning.confidenceScores', 'llm.cache']);
  function referenceDiff(before: AgentContext, after: AgentContext): { changes: ContextChanges; keysWritten: string[] } {
    const changes: ContextChanges = {};
    const keysWritten: string[] = [];
    for (const ns of NAMESPACES) {
      const b = (isPlainObject(before[ns]) ? before[ns] : {}) as Record<string, unknown>;
      const a = (isPlainObject(after[ns]) ? after[ns] : {}) as Record<string, unknown>;
      for (const key of [...new Set([...Object.keys(b), ...Object.keys(a)])].sort()) {
        const [bv, av] = [b[key], a[key]];
        if (jsonEqual(bv, av)) continue;
        let counts: { added: number; removed: number; modified: number } | undefined;
        if ((Array.isArray(bv) || bv === undefined) && Array.isArray(av)) counts = arrayCounts((bv as unknown[] | undefined) ?? [], av);
        else if (Array.isArray(bv) && av === undefined) counts = arrayCounts(bv, []);
        else if (MAPS.has(`${ns}.${key}`) && (isPlainObject(bv) || bv === undefined) && (isPlainObject(av) || av === undefined)) {
          const [bm, am] = [(bv ?? {}) as Record<string, unknown>, (av ?? {}) as Record<string, unknown>];
          counts = {
            added: Object.keys(am).filter((k) => !Object.hasOwn(bm, k)).length,
            removed: Object.keys(bm).filter((k) => !Object.hasOwn(am, k)).length,
            modified: Object.keys(am).filter((k) => Object.hasOwn(bm, k) && !jsonEqual(bm[k], am[k])).length,
          };
        }
        let out: Record<string, number>;
        if (counts === undefined) out = { [`${key}_${bv === undefined ? 'set' : av === undefined ? 'cleared' : 'changed'}`]: 1 };
        else {
          out = {};
          if (counts.added > 0) out[`${key}_added`] = counts.added;
          if (counts.removed > 0) out[`${key}_removed`] = counts.removed;
          if (counts.modified > 0) out[`${key}_modified`] = counts.modified;
          if (Object.keys(out).length === 0) out = { [`${key}_changed`]: 1 };
        }
        keysWritten.push(`${ns}.${key}`);
        Object.assign((changes[ns] ??= {}), out);
      }
    }
    return { changes, keysWritten };
  }
  function arrayCounts(before: readonly unknown[], after: readonly unknown[]): { added: number; removed: number; modified: number } {
    const identity = (item: unknown) => (isPlainObject(item) && typeof item.id === 'string' ? `id:${item.id}` : `v:${canonicalize(item)}`);
    const pool = new Map<string, string[]>();
    for (const item of before) pool.set(identity(item), [...(pool.get(identity(item)) ?? []), canonicalize(item)]);
    let added = 0;
    let modified = 0;
    for (const item of after) {
      const bucket = pool.get(identity(item));
      if (bucket === undefined || bucket.length === 0) added++;
      else if (bucket.includes(canonicalize(item))) bucket.splice(bucket.indexOf(canonicalize(item)), 1);
      else {
        bucket.shift();
        modified++;
      }
    }
    let removed = 0;
    for (const bucket of pool.values()) removed += bucket.length;
    return { added, removed, modified };
  }

  type Edit = { kind: number; n: number; text: string };
  const editArb: fc.Arbitrary<Edit> = fc.record({ kind: fc.nat(15), n: fc.nat(6), text: fc.string({ maxLength: 4 }) });
  function applyEdit(ctx: AgentContext, { kind, n, text }: Edit): void {
    const facts = ctx.enrichment.facts;
    const intents = ctx.reasoning.intents;
    switch (kind) {
      case 0:
        facts.push({ id: `f${n}`, content: text, source: 's', timestamp: TS, confidence: n / 6 });
        break;
      case 1:
        if (facts.length > 0) facts[n % facts.length]!.content += text;
        break;
      case 2:
        facts.splice(n % (facts.length + 1), 1);
        break;
      case 3:
        facts.unshift({ id: `u${n}`, content: text, source: 's', timestamp: TS, confidence: 1 });
        break;
      case 4:
        facts.reverse();
        break;
      case 5:
        // An equal copy in place of an item, and the same item twice.
        if (facts.length > 0) facts[n % facts.length] = structuredClone(facts[n % facts.length]!);
        if (facts.length > 0 && n % 2 === 0) facts.push(facts[0]!);
        break;
      case 6:
        intents.push({ type: text, confidence: n / 6 });
        break;
      case 7:
        if (intents.length > 0) intents[n % intents.length]!.confidence = n / 6;
        break;
      case 8:
        intents.pop();
        break;
      case 9:
        // Same data, members in another order.
        if (intents.length > 0) intents[0] = Object.fromEntries(Object.entries(intents[0]!).reverse()) as (typeof intents)[0];
        break;
      case 10:
        (ctx.reasoning.entities as Record<string, unknown>)[text || 'e'] = n;
        break;
      case 11:
        delete (ctx.reasoning.entities as Record<string, unknown>)[Object.keys(ctx.reasoning.entities)[0] ?? 'x'];
        break;
      case 12:
        ctx.reasoning.summary += text;
        break;
      case 13:
        ctx.enrichment.contextLinks.push(text);
        break;
      case 14:
        // A whole namespace replaced by an equal copy with its members in another order.
        ctx.llm = Object.fromEntries(Object.entries(structuredClone(ctx.llm)).reverse()) as AgentContext['llm'];
        break;
      default:
        ctx.reasoning.dependencyMap = n % 2 === 0 ? undefined : { n, text };
    }
  }

  it('captures what a straightforward diff of the snapshot and the context finds, capture after capture (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.array(editArb, { maxLength: 4 }), { minLength: 1, maxLength: 8 }), (rounds) => {
        const ctx = richContext();
        const tracker = new DiffTracker(ctx);
        let snapshot = structuredClone(ctx);
        for (const edits of rounds) {
          for (const e of edits) applyEdit(ctx, e);
          const expected = referenceDiff(snapshot, ctx);
          const actual = tracker.capture('agent', ctx);
          expect(actual.changes).toEqual(expected.changes);
          expect(actual.keysWritten).toEqual(expected.keysWritten);
          snapshot = structuredClone(ctx);
        }
      }),
      { numRuns: 300 },
    );
  });
});
