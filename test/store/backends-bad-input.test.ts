import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { CtxgateError } from '../../src/errors.ts';
import { createDenoKvStore, openDenoKvStore } from '../../src/store/backends/deno-kv.ts';
import { createDurableObjectStore } from '../../src/store/backends/durable-object.ts';
import { createIndexedDbStore } from '../../src/store/backends/indexeddb.ts';
import type { ContextStore } from '../../src/store/context-store.ts';
import { MigrationRegistry } from '../../src/store/migrations.ts';
import type { StoredRecord } from '../../src/store/record.ts';
import { rejection, thrown } from '../fixtures/thrown.ts';
import { sampleContext } from './contract.ts';
import { FakeDenoKv, FakeDurableObjectStorage } from './fakes.ts';

// Bad input to the IndexedDB, Deno KV and Durable Object backends: each case is refused with
// INVALID_PARAMS naming the argument, before anything is opened, read or written.

let dbCounter = 0;
const freshName = () => `ctxgate-bad-input-${++dbCounter}`;

/** A value too large to belong in any message: a refusal names its kind and never echoes it. */
const LARGE = 'SECRET-'.repeat(20_000);

/** INVALID_PARAMS for `field`, its message containing `message` and nothing of LARGE. */
function expectInvalid(error: unknown, field: string, message: string): void {
  expect(error).toBeInstanceOf(CtxgateError);
  const e = error as CtxgateError;
  expect({ code: e.code, field: e.details.field }).toEqual({ code: 'INVALID_PARAMS', field });
  expect(e.message).toContain(message);
  expect(e.message.length).toBeLessThan(300);
  expect(JSON.stringify(e.toJSON())).not.toContain('SECRET-');
}

describe('IndexedDB importRecord and damaged versions, as in the other backends', () => {
  it('refuses what cannot be a stored record, with the shared errors, and writes nothing', async () => {
    const store = createIndexedDbStore({ name: freshName() });
    try {
      await store.save('kept', sampleContext('kept'), { expectedVersion: 0 });
      const kept = await store.exportRecord('kept');
      if (kept === undefined) throw new Error('exportRecord returned nothing');
      const cases: [unknown, string, string][] = [
        [null, 'record', 'must be an object (got null)'],
        [LARGE, 'record', 'must be an object (got a string)'],
        [[kept], 'record', 'must be an object (got an array)'],
        [{ ...kept, id: '' }, 'record.id', 'must be a non-empty string'],
        [{ ...kept, id: 5 }, 'record.id', 'must be a non-empty string'],
        [{ ...kept, context: 5 }, 'record.context', 'must be a string (got a number)'],
        [{ ...kept, context: { text: LARGE } }, 'record.context', 'must be a string (got an object)'],
        [{ ...kept, checksum: null }, 'record.checksum', 'must be a string (got null)'],
        [{ ...kept, checksum: undefined }, 'record.checksum', 'must be a string (got undefined)'],
        // IndexedDB's own DataCloneError would quote the function's source.
        [{ ...kept, f: () => LARGE }, 'record', 'cannot be stored'],
      ];
      for (const [record, field, message] of cases) expectInvalid(await rejection(() => store.importRecord(record as StoredRecord)), field, message);
      // Every refused record had the id of the stored one: it is still there, unchanged.
      expect(await store.exportRecord('kept')).toEqual(kept);
      expect(await store.load('kept')).toEqual({ context: sampleContext('kept'), version: 1 });
      expect(await store.list()).toEqual(['kept']);
    } finally {
      await store.close();
    }
  });

  it('a record restored with a damaged version does not wedge its id: it counts as version 0 for save and delete', async () => {
    const store = createIndexedDbStore({ name: freshName() });
    try {
      for (const version of [Number.NaN, -1, 1.5, Number.POSITIVE_INFINITY]) {
        await store.importRecord({ id: 'damaged', version, context: '{}', checksum: 'x' });
        await expect(store.load('damaged')).rejects.toMatchObject({ code: 'CORRUPT_RECORD' });
        await expect(store.save('damaged', sampleContext('new'), { expectedVersion: 1 })).rejects.toMatchObject({
          code: 'CONFLICT',
          details: { expected: 1, actual: 0 },
        });
        expect(await store.save('damaged', sampleContext('new'), { expectedVersion: 0 })).toEqual({ version: 1 });
        expect(await store.load('damaged')).toEqual({ context: sampleContext('new'), version: 1 });
        await store.importRecord({ id: 'damaged', version, context: '{}', checksum: 'x' });
        await expect(store.delete('damaged', { expectedVersion: 1 })).rejects.toMatchObject({ code: 'CONFLICT', details: { expected: 1, actual: 0 } });
        expect(await store.delete('damaged', { expectedVersion: 0 })).toBe(true);
        expect(await store.list()).toEqual([]);
      }
    } finally {
      await store.close();
    }
  });
});

describe('createIndexedDbStore checks its options', () => {
  it('refuses options of the wrong kind before the database is opened', async () => {
    const cases: [unknown, string, string][] = [
      [null, 'options', 'must be an object (got null)'],
      [LARGE, 'options', 'must be an object (got a string)'],
      [{ name: 5 }, 'options.name', 'must be a string (got a number)'],
      [{ name: ['ctxgate'] }, 'options.name', 'must be a string (got an array)'],
      [{ migrations: {} }, 'options.migrations', 'must be a MigrationRegistry (got an object without migrate())'],
      [{ onBlocked: LARGE }, 'options.onBlocked', 'must be a function (got a string)'],
      [{ onVersionChange: true }, 'options.onVersionChange', 'must be a function (got a boolean)'],
    ];
    for (const [options, field, message] of cases) expectInvalid(thrown(() => createIndexedDbStore(options as never)), field, message);
    // Nothing was created: the default database does not exist.
    expect((await indexedDB.databases()).map((d) => d.name)).not.toContain('ctxgate');
    // What the types allow still works.
    const store = createIndexedDbStore({ name: freshName(), migrations: new MigrationRegistry(), onBlocked: () => {}, onVersionChange: undefined });
    expect(await store.save('a', sampleContext('a'), { expectedVersion: 0 })).toEqual({ version: 1 });
    await store.close();
  });
});

describe('createDenoKvStore and openDenoKvStore check their arguments', () => {
  const g = globalThis as { Deno?: unknown };
  afterEach(() => {
    delete g.Deno;
  });

  it('refuses a handle that is not a Deno.Kv, naming the methods it lacks', () => {
    const kv = new FakeDenoKv();
    const cases: [unknown, string, string][] = [
      [undefined, 'kv', 'must be a Deno.Kv from Deno.openKv() (got undefined)'],
      [null, 'kv', 'must be a Deno.Kv from Deno.openKv() (got null)'],
      [LARGE, 'kv', 'must be a Deno.Kv from Deno.openKv() (got a string)'],
      // An entry from kv.get() instead of the database.
      [{ key: ['a'], value: LARGE, versionstamp: '1' }, 'kv', 'got an object without get(), list(), atomic()'],
      // A Workers KVNamespace: get and list, but no atomic operations.
      [{ get: async () => null, list: async () => ({ keys: [] }), put: async () => {}, delete: async () => {} }, 'kv', 'got an object without atomic()'],
      [{ kv }, 'kv', 'got an object without get(), list(), atomic()'],
    ];
    for (const [handle, field, message] of cases) expectInvalid(thrown(() => createDenoKvStore(handle as never)), field, message);
  });

  it('refuses options of the wrong kind, before anything is read or written', () => {
    const kv = new FakeDenoKv();
    let calls = 0;
    for (const method of ['get', 'list', 'atomic'] as const) {
      const original = kv[method].bind(kv) as (...args: unknown[]) => unknown;
      (kv as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        calls++;
        return original(...args);
      };
    }
    const cases: [unknown, string, string][] = [
      [null, 'options', 'must be an object (got null)'],
      [5, 'options', 'must be an object (got a number)'],
      [[], 'options', 'must be an object (got an array)'],
      [{ prefix: LARGE }, 'options.prefix', 'must be an array (got a string)'],
      [{ prefix: null }, 'options.prefix', 'must be an array (got null)'],
      [{ prefix: ['app', { LARGE }] }, 'options.prefix', 'item 1 must be a Deno KV key part'],
      [{ prefix: ['app', undefined] }, 'options.prefix', 'item 1 must be a Deno KV key part (a string, number, bigint, boolean, symbol or Uint8Array) (got undefined)'],
      // A hole in a sparse array is an item too.
      [{ prefix: ['app', , 'x'] }, 'options.prefix', 'item 1 must be a Deno KV key part (a string, number, bigint, boolean, symbol or Uint8Array) (got undefined)'],
      [{ migrations: {} }, 'options.migrations', 'must be a MigrationRegistry (got an object without migrate())'],
      [{ migrations: LARGE }, 'options.migrations', 'must be a MigrationRegistry (got a string)'],
    ];
    for (const [options, field, message] of cases) {
      const error = thrown(() => createDenoKvStore(kv, options as never));
      expectInvalid(error, field, message);
      if (field === 'options.prefix' && message.startsWith('item')) expect((error as CtxgateError).details.index).toBe(1);
    }
    expect(calls).toBe(0);
    expect(kv.data.size).toBe(0);
  });

  it('keeps its own copy of the prefix: changing the array afterwards does not move its keys', async () => {
    const kv = new FakeDenoKv();
    const prefix = ['app', 1, 2n, true, new Uint8Array([7])];
    const store = createDenoKvStore(kv, { prefix, migrations: new MigrationRegistry() });
    prefix[0] = 'other';
    await store.save('a', sampleContext('a'), { expectedVersion: 0 });
    expect([...kv.data.values()].every((entry) => entry.key[0] === 'app')).toBe(true);
    expect(await store.list()).toEqual(['a']);
  });

  it('openDenoKvStore checks its options before it opens the database', async () => {
    const opened: unknown[] = [];
    g.Deno = {
      openKv: async (path?: string) => {
        opened.push(path);
        return new FakeDenoKv();
      },
    };
    const cases: [unknown, string, string][] = [
      [null, 'options', 'must be an object (got null)'],
      [{ path: 5 }, 'options.path', 'must be a string (got a number)'],
      [{ path: new URL('file:///tmp/x.kv') }, 'options.path', 'must be a string (got an object)'],
      [{ path: '/tmp/x.kv', prefix: LARGE }, 'options.prefix', 'must be an array (got a string)'],
      [{ path: '/tmp/x.kv', migrations: 1 }, 'options.migrations', 'must be a MigrationRegistry (got a number)'],
    ];
    for (const [options, field, message] of cases) expectInvalid(await rejection(() => openDenoKvStore(options as never)), field, message);
    // Nothing was opened, so no handle is left open by a refusal.
    expect(opened).toEqual([]);
    const store = await openDenoKvStore({ path: '/tmp/x.kv', prefix: ['app'] });
    expect(opened).toEqual(['/tmp/x.kv']);
    await store.close();
  });
});

describe('createDurableObjectStore checks its arguments', () => {
  it('refuses a handle that is not state.storage, naming the methods it lacks', () => {
    const storage = new FakeDurableObjectStorage();
    const cases: [unknown, string, string][] = [
      [undefined, 'storage', 'must be a DurableObjectStorage (state.storage) (got undefined)'],
      [null, 'storage', 'must be a DurableObjectStorage (state.storage) (got null)'],
      [LARGE, 'storage', 'must be a DurableObjectStorage (state.storage) (got a string)'],
      // The object's state instead of its storage.
      [{ storage, id: {}, waitUntil: () => {}, blockConcurrencyWhile: async () => {} }, 'storage', 'got an object without transaction(), list()'],
      // A Workers KVNamespace has list but no transactions.
      [{ get: async () => null, put: async () => {}, delete: async () => {}, list: async () => ({ keys: [] }) }, 'storage', 'got an object without transaction()'],
    ];
    for (const [handle, field, message] of cases) expectInvalid(thrown(() => createDurableObjectStore(handle as never)), field, message);
  });

  it('refuses options of the wrong kind, before anything is read or written', async () => {
    const storage = new FakeDurableObjectStorage();
    const cases: [unknown, string, string][] = [
      [null, 'options', 'must be an object (got null)'],
      ['ctxgate:', 'options', 'must be an object (got a string)'],
      [[], 'options', 'must be an object (got an array)'],
      [{ prefix: 5 }, 'options.prefix', 'must be a string (got a number)'],
      // Deno KV's form of a prefix.
      [{ prefix: ['app', LARGE] }, 'options.prefix', 'must be a string (got an array)'],
      [{ migrations: {} }, 'options.migrations', 'must be a MigrationRegistry (got an object without migrate())'],
      [{ migrations: () => LARGE }, 'options.migrations', 'must be a MigrationRegistry (got a function without migrate())'],
    ];
    for (const [options, field, message] of cases) expectInvalid(thrown(() => createDurableObjectStore(storage, options as never)), field, message);
    expect(storage.data.size).toBe(0);
    const store = createDurableObjectStore(storage, { prefix: 'app:', migrations: new MigrationRegistry() });
    await store.save('a', sampleContext('a'), { expectedVersion: 0 });
    expect([...storage.data.keys()].every((key) => key.startsWith('app:'))).toBe(true);
  });
});

describe('Deno KV and Durable Object stores: a restored record with a negative version', () => {
  const backends: [string, () => ContextStore][] = [
    ['Deno KV', () => createDenoKvStore(new FakeDenoKv())],
    ['Durable Object', () => createDurableObjectStore(new FakeDurableObjectStorage())],
  ];

  it.each(backends)('%s: counts as version 0, so save at 0 replaces it and delete at 0 removes it', async (_name, make) => {
    const store = make();
    // A well-formed checksum, so the head is otherwise sound and only its version is damaged.
    const damaged = { id: 'damaged', version: -1, context: '{}', checksum: 'a'.repeat(64) };
    await store.importRecord(damaged);
    await expect(store.load('damaged')).rejects.toMatchObject({ code: 'CORRUPT_RECORD' });
    await expect(store.save('damaged', sampleContext('new'), { expectedVersion: 1 })).rejects.toMatchObject({ code: 'CONFLICT', details: { expected: 1, actual: 0 } });
    expect(await store.save('damaged', sampleContext('new'), { expectedVersion: 0 })).toEqual({ version: 1 });
    expect(await store.load('damaged')).toEqual({ context: sampleContext('new'), version: 1 });
    await store.importRecord(damaged);
    await expect(store.delete('damaged', { expectedVersion: 1 })).rejects.toMatchObject({ code: 'CONFLICT', details: { expected: 1, actual: 0 } });
    expect(await store.delete('damaged', { expectedVersion: 0 })).toBe(true);
    expect(await store.list()).toEqual([]);
  });
});

describe('every backend takes size limits as an option and enforces them at save', () => {
  const backends: [string, (options: object) => ContextStore][] = [
    ['IndexedDB', (options) => createIndexedDbStore({ name: freshName(), ...options })],
    ['Deno KV', (options) => createDenoKvStore(new FakeDenoKv(), options)],
    ['Durable Object', (options) => createDurableObjectStore(new FakeDurableObjectStorage(), options)],
  ];

  it.each(backends)('%s: ContextSizeError over the limits given, nothing written', async (_name, make) => {
    const store = make({ limits: { maxNamespaceSize: 1000 } });
    try {
      const v1 = sampleContext('v1');
      await store.save('a', v1, { expectedVersion: 0 });
      const record = await store.exportRecord('a');
      const big = sampleContext('big');
      big.reasoning.summary = 'x'.repeat(1000);
      await expect(store.save('a', big, { expectedVersion: 1 })).rejects.toMatchObject({
        name: 'ContextSizeError',
        code: 'CONTEXT_SIZE',
        details: { limit: 'maxNamespaceSize', maximum: 1000, namespace: 'reasoning' },
      });
      expect(await store.exportRecord('a')).toEqual(record);
      expect(await store.load('a')).toEqual({ context: v1, version: 1 });
    } finally {
      await store.close();
    }
  });

  it.each(backends)('%s: refuses options.limits of the wrong kind when created', (_name, make) => {
    expectInvalid(thrown(() => make({ limits: LARGE })), 'options.limits', 'must be an object (got a string)');
    expectInvalid(thrown(() => make({ limits: { maxTotalSize: -1 } })), 'options.limits.maxTotalSize', 'must be a positive integer');
  });
});
