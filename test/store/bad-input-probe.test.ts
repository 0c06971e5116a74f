import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CtxgateError } from '../../src/errors.ts';
import { storeBudgetPersistence } from '../../src/policy/budget-store.ts';
import type { BudgetState } from '../../src/policy/budget.ts';
import { ContextValidator } from '../../src/store/access.ts';
import { createMemoryStore } from '../../src/store/backends/memory.ts';
import { DiffTracker } from '../../src/store/diff.ts';
import { jsonByteLength } from '../../src/store/json-size.ts';
import { ContextSizeChecker, getStats } from '../../src/store/limits.ts';
import { MigrationRegistry } from '../../src/store/migrations.ts';
import type { AgentContext } from '../../src/store/model.ts';
import { createAgentContext } from '../../src/store/model.ts';
import type { StoredRecord } from '../../src/store/record.ts';
import { recordChecksum } from '../../src/store/record.ts';
import { cloneContext, deserializeContext, serializeContext } from '../../src/store/serialize.ts';
import { rejection, thrown } from '../fixtures/thrown.ts';
import { deep } from '../fixtures/deep.ts';

// Bad input found by a probe of the store: each call used to end in a raw RangeError or TypeError
// (or write something the store then refused); each is now a typed refusal that changes nothing.

const TS = '2026-01-02T03:04:05.000Z';

/** `n` nested levels of `{ a: … }` (or `[…]`) around `leaf`, built without recursion. */
function context(): AgentContext {
  return createAgentContext('s', 't', { createdAt: TS });
}

/** A context with `deep(100_000)` at `reasoning.entities.k`. */
function deepContext(): AgentContext {
  const ctx = context();
  ctx.reasoning.entities.k = deep(100_000);
  return ctx;
}

function expectInvalid(error: unknown, field: string | RegExp, message: string): void {
  expect(error).toBeInstanceOf(CtxgateError);
  const e = error as CtxgateError;
  expect(e.code).toBe('INVALID_PARAMS');
  if (typeof field === 'string') expect(e.details.field).toBe(field);
  else expect(e.details.field).toMatch(field);
  expect(e.message).toContain(message);
}

describe('data nested deeper than the walks go (A)', () => {
  it('every walk refuses it with INVALID_PARAMS naming where, instead of overflowing the stack', async () => {
    const cases: [string, () => unknown, RegExp][] = [
      ['cloneContext', () => cloneContext(deepContext()), /^context\.reasoning\.entities\.k(\.a)+$/],
      ['getStats', () => getStats(deepContext()), /^ctx\.reasoning\.entities\.k(\.a)+$/],
      ['check', () => new ContextSizeChecker().check(deepContext()), /^ctx\.reasoning\.entities\.k(\.a)+$/],
      ['new DiffTracker', () => new DiffTracker(deepContext()), /^context\.reasoning\.entities\.k(\.a)+$/],
      ['checkWrite', () => new ContextSizeChecker().checkWrite(context(), 'reasoning', 'entities', { k: deep(100_000) }), /^value\.k(\.a)+$/],
      ['jsonByteLength', () => jsonByteLength(deep(100_000)), /^value(\.a)+$/],
    ];
    for (const [name, call, field] of cases) {
      const error = thrown(call);
      expect({ name, error }).toMatchObject({ name, error: { code: 'INVALID_PARAMS' } });
      expectInvalid(error, field, 'is nested deeper than 200 levels; flatten the data');
    }
    // An array (the text of a record body) is refused by its kind, before anything walks it.
    expectInvalid(await rejection(() => recordChecksum('a', 1, deep(100_000, 1, true) as string)), 'contextText', 'must be a string (got an array)');
  });

  it('the limit is the same everywhere: 200 levels pass, 201 do not, and a cycle is not depth', () => {
    // The context is level 0, reasoning 1, entities 2, so k holds 197 more levels at most.
    const ok = context();
    ok.reasoning.entities.k = deep(197);
    expect(cloneContext(ok)).toEqual(ok);
    expect(getStats(ok).totalSize).toBe(new TextEncoder().encode(JSON.stringify(ok)).length);
    const tooDeep = context();
    tooDeep.reasoning.entities.k = deep(198);
    for (const call of [() => cloneContext(tooDeep), () => getStats(tooDeep), () => new DiffTracker(tooDeep)]) {
      expect(thrown(call)).toMatchObject({ code: 'INVALID_PARAMS', message: expect.stringContaining('nested deeper than 200 levels') });
    }
    // A cycle is not depth: it is still copied (unrolled, as before) and measured as UNSUPPORTED_VALUE.
    const ctx = context();
    const loop: Record<string, unknown> = { n: 1 };
    loop.self = loop;
    ctx.reasoning.entities.loop = loop;
    const copy = cloneContext(ctx);
    const copied = copy.reasoning.entities.loop as Record<string, unknown>;
    expect(copied).not.toBe(loop);
    expect(copied.self).not.toBe(loop);
    expect((copied.self as Record<string, unknown>).n).toBe(1);
    expect(thrown(() => getStats(ctx))).toMatchObject({ code: 'UNSUPPORTED_VALUE' });
  });

  it('a capture refuses a deep change and keeps its baseline; the context is not touched', () => {
    const ctx = context();
    const tracker = new DiffTracker(ctx, { now: () => new Date(TS) });
    ctx.reasoning.entities.k = deep(100_000);
    expectInvalid(thrown(() => tracker.capture('agent', ctx)), /^context\.reasoning\.entities\.k(\.a)+$/, 'nested deeper than 200 levels');
    ctx.reasoning.entities.k = deep(100_000, 1, true);
    expectInvalid(thrown(() => tracker.capture('agent', ctx)), /^context\.reasoning\.entities\.k(\[0\])+$/, 'nested deeper than 200 levels');
    // The baseline is still the empty context: the small value that replaces it is one addition.
    ctx.reasoning.entities.k = 1;
    expect(tracker.capture('agent', ctx).changes).toEqual({ reasoning: { entities_added: 1 } });
    // A field the baseline holds is compared before it is copied: too deep is the same refusal.
    for (const [value, path] of [
      [deep(100_000), /^context\.reasoning\.entities\.k(\.a)+$/],
      [deep(100_000, 1, true), /^context\.reasoning\.entities\.k(\[0\])+$/],
    ] as const) {
      ctx.reasoning.entities.k = value;
      expectInvalid(thrown(() => tracker.capture('agent', ctx)), path, 'nested deeper than 200 levels');
    }
    ctx.reasoning.entities.k = 2;
    expect(tracker.capture('agent', ctx).changes).toEqual({ reasoning: { entities_modified: 1 } });
    // So is an item of an array the baseline holds, which is compared item by item.
    ctx.reasoning.entities.k = [1];
    tracker.capture('agent', ctx);
    ctx.reasoning.entities.k = [1, deep(100_000, 1, true)];
    expectInvalid(thrown(() => tracker.capture('agent', ctx)), /^context\.reasoning\.entities\.k\[1\](\[0\])+$/, 'nested deeper than 200 levels');
  });
});

describe('safeSet and createAgentContext refuse what the store would refuse (B, C)', () => {
  it('safeSet refuses a lone surrogate or a value too deep for the context, and writes nothing', () => {
    const cases: [unknown, string, string][] = [
      [{ k: '\uD800' }, 'reasoning.entities.k', 'lone surrogate'],
      [{ ['x\uDC00']: 1 }, 'reasoning.entities.x\uDC00', 'the member name contains a lone surrogate'],
      // The innermost object 100 levels below the context's root: what serializeContext refuses.
      [{ k: deep(98) }, 'reasoning.entities.k.a', 'is nested deeper than 100 levels'],
    ];
    for (const [value, field, message] of cases) {
      const ctx = context();
      const error = thrown(() => new ContextValidator().safeSet(ctx, 'orchestrator', 'reasoning', 'entities', value));
      expect(error).toMatchObject({ code: 'INVALID_PARAMS' });
      expect((error as CtxgateError).details.field).toContain(field);
      expect((error as CtxgateError).message).toContain(message);
      expect(ctx).toEqual(context());
      expect(() => serializeContext(ctx)).not.toThrow();
    }
    // One level less fits, and the store takes it.
    const ctx = context();
    new ContextValidator().safeSet(ctx, 'orchestrator', 'reasoning', 'entities', { k: deep(97) });
    expect(() => serializeContext(ctx)).not.toThrow();
  });

  it('createAgentContext checks its arguments and options before building anything', () => {
    const cases: [() => unknown, string, string][] = [
      [() => createAgentContext('\uD800', 't'), 'metadata.sessionId', 'lone surrogate'],
      [() => createAgentContext('s', 't\uDC00'), 'metadata.traceId', 'lone surrogate'],
      [() => createAgentContext('s', 't', { locale: 5 as never }), 'metadata.locale', 'metadata.locale'],
      [() => createAgentContext('s', 't', { locale: '\uD800' }), 'metadata.locale', 'lone surrogate'],
      [() => createAgentContext('s', 't', { createdAt: new Date(Number.NaN) }), 'options.createdAt', 'got an invalid Date'],
      [() => createAgentContext('s', 't', { createdAt: 123 as never }), 'options.createdAt', 'got a number'],
      [() => createAgentContext('s', 't', { createdAt: {} as never }), 'options.createdAt', 'got an object'],
      [() => createAgentContext('s', 't', null as never), 'options', 'must be an object (got null)'],
    ];
    for (const [call, field, message] of cases) expectInvalid(thrown(call), field, message);
    expect(createAgentContext('s', 't', { createdAt: new Date(TS), locale: 'de' }).metadata).toEqual({ sessionId: 's', traceId: 't', createdAt: TS, locale: 'de' });
  });
});

describe('memory store (D)', () => {
  it('importRecord refuses what cannot be a record, without quoting a function, and stores nothing', async () => {
    const store = createMemoryStore();
    const cases: [unknown, string, string][] = [
      [{ id: 'x', version: 1, context: '{}', checksum: 'x', f: () => 'SECRET-in-source' }, 'record', 'cannot be stored'],
      [{ id: 'id4', version: Number.NaN, context: 5, checksum: null }, 'record.context', 'must be a string (got a number)'],
      [{ id: 'id5', version: 1, context: '{}', checksum: null }, 'record.checksum', 'must be a string (got null)'],
      [null, 'record', 'must be an object (got null)'],
    ];
    for (const [record, field, message] of cases) {
      const error = await rejection(() => store.importRecord(record as StoredRecord));
      expectInvalid(error, field, message);
      expect(JSON.stringify((error as CtxgateError).toJSON())).not.toContain('SECRET-in-source');
    }
    expect(await store.list()).toEqual([]);
  });

  it('a restored record with a damaged version does not wedge its id: save at version 0 replaces it', async () => {
    const store = createMemoryStore();
    await store.importRecord({ id: 'id4', version: Number.NaN, context: '{}', checksum: 'x' });
    await expect(store.load('id4')).rejects.toMatchObject({ code: 'CORRUPT_RECORD' });
    expect(await store.save('id4', context(), { expectedVersion: 0 })).toEqual({ version: 1 });
    expect((await store.load('id4'))?.context).toEqual(context());
  });

  it('createMemoryStore and save check their options before anything is read or written', async () => {
    expectInvalid(thrown(() => createMemoryStore(null as never)), 'options', 'must be an object (got null)');
    expectInvalid(thrown(() => createMemoryStore({ migrations: 5 as never })), 'options.migrations', 'must be a MigrationRegistry');
    const store = createMemoryStore();
    expectInvalid(await rejection(() => store.save('a', context(), { expectedVersion: 0, signal: 5 as never })), 'options.signal', 'must be an AbortSignal (got a number)');
    expect(await store.list()).toEqual([]);
  });
});

describe('migrations and deserializeContext (E)', () => {
  const oldText = readFileSync(new URL('./fixtures/context-0.9.0.json', import.meta.url), 'utf8');

  it('a migration may return a frozen object: the registry stamps the version on its own copy', () => {
    const reg = new MigrationRegistry().register('0.9.0', '0.9.5', (d) => Object.freeze({ ...d, step: 1 })).register('0.9.5', '1.0.0', (d) => {
      // The next step gets data of its own, which it may modify.
      d.step = 2;
      return Object.freeze(d);
    });
    const input = Object.freeze({ version: '0.9.0' });
    expect(reg.migrate(input)).toEqual({ version: '1.0.0', step: 2 });
    expect(input).toEqual({ version: '0.9.0' });
  });

  it('deserializeContext checks its options before reading the data', () => {
    expectInvalid(thrown(() => deserializeContext(oldText, { migrations: 5 as never })), 'options.migrations', 'must be a MigrationRegistry (got a number)');
    expectInvalid(thrown(() => deserializeContext(oldText, null as never)), 'options', 'must be an object (got null)');
  });
});

describe('ContextValidator arguments (F)', () => {
  it('refuses options, agent ids, keys and grants of the wrong kind', () => {
    const cases: [() => unknown, string, string][] = [
      [() => new ContextValidator(null as never), 'options', 'must be an object (got null)'],
      [() => new ContextValidator({ agents: 5 as never }), 'options.agents', 'must be an object (got a number)'],
      [() => new ContextValidator({ agents: null as never }), 'options.agents', 'must be an object (got null)'],
      [() => new ContextValidator().validateWrite(Symbol('a') as never, 'reasoning', 'x'), 'agentId', 'must be a string (got a symbol)'],
      [() => new ContextValidator().validateWrite('orchestrator', 'reasoning', Symbol('k') as never), 'key', 'must be a string (got a symbol)'],
      [() => new ContextValidator().validateWrite('orchestrator', Object.create(null) as never, 'x'), 'namespace', 'must be a namespace name (got an object)'],
    ];
    for (const [call, field, message] of cases) expectInvalid(thrown(call), field, message);
    const v = new ContextValidator({ agents: {} });
    expectInvalid(thrown(() => v.registerAgent('a', [Object.create(null)] as never)), 'namespaces[0]', 'must be a namespace name (got an object)');
    expect(v.allowedNamespaces('a')).toBeUndefined();
  });
});

describe('storeBudgetPersistence (G)', () => {
  const state = { version: 1, calls: 1 } as unknown as BudgetState;

  it('refuses a bad context id or key up front, and a createContext that makes no context on save', async () => {
    const store = createMemoryStore();
    expectInvalid(thrown(() => storeBudgetPersistence(store, '')), 'contextId', 'non-empty string');
    expectInvalid(thrown(() => storeBudgetPersistence(store, 'x', { key: '__proto__' })), 'options.key', 'must not be "__proto__"');
    const error = await rejection(() => storeBudgetPersistence(store, 'x', { createContext: () => 5 as never }).save(state));
    expectInvalid(error, 'options.createContext()', 'options.createContext()');
    expect(await store.list()).toEqual([]);
  });
});
