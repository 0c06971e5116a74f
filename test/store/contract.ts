/**
 * The one conformance suite every ContextStore backend must pass, in its real runtime: memory and
 * IndexedDB (fake-indexeddb) in Node, IndexedDB in Chromium, Deno KV in Deno, Durable Object
 * storage in workerd. It needs only `it(name, fn)` and Jest/Vitest-compatible `expect` matchers
 * (toBe, toEqual, toMatchObject, rejects.toMatchObject, toBeUndefined, toThrow), so each runtime's
 * harness can drive it. `makeStore` must return a new, empty store each call.
 */
import { serializeError } from '../../src/errors.ts';
import type { ContextStore } from '../../src/store/context-store.ts';
import type { AgentContext } from '../../src/store/model.ts';
import { createAgentContext } from '../../src/store/model.ts';
import type { StoredRecord } from '../../src/store/record.ts';
import { recordChecksum } from '../../src/store/record.ts';
import { rejection } from '../fixtures/thrown.ts';

/** The matchers the suite uses. */
export interface ContractMatchers {
  toBe(expected: unknown): void;
  toEqual(expected: unknown): void;
  toMatchObject(expected: object): void;
  toBeUndefined(): void;
  toThrow(expected?: unknown): void;
  rejects: { toMatchObject(expected: object): Promise<unknown> };
}

/** What the suite needs from a test harness. */
export interface ContractHarness {
  it(name: string, fn: () => Promise<void>): void;
  expect(actual: unknown): ContractMatchers;
}

/** A context with data in several namespaces, distinguishable by `label`. */
export function sampleContext(label: string): AgentContext {
  const ctx = createAgentContext(`session-${label}`, `trace-${label}`, { createdAt: '2026-01-02T03:04:05.000Z', locale: 'en-GB' });
  ctx.reasoning.intents = [{ type: 'query', confidence: 0.95, entities: ['repo'] }];
  ctx.reasoning.entities = { repo: { name: `ctxgate-${label}`, stars: 3 } };
  ctx.reasoning.summary = `summary ${label} — naïve café 😀`;
  ctx.enrichment.facts = [
    { id: 'f1', content: 'User committed 5 times', source: 'gitlab', timestamp: '2026-01-02T03:04:05.000Z', confidence: 1, provenance: { project: 'p-123' } },
  ];
  ctx.llm.usage = { totalTokens: 30, promptTokens: 20, completionTokens: 10, costUsd: 0.002, byAgent: { inference: 0.002 } };
  return ctx;
}

/** Registers the backend conformance tests with `t.it`. */
/**
 * Writers on separate store instances (tabs, handles, stubs) each append their own mark to the
 * same context, reloading and retrying on ConflictError until their save lands. Resolves when all
 * have landed; the caller checks that no update was lost.
 */
export async function retryingWriters(stores: readonly ContextStore[], id: string): Promise<void> {
  await Promise.all(
    stores.map(async (store, i) => {
      for (;;) {
        const loaded = await store.load(id);
        if (loaded === undefined) throw new Error('context vanished');
        loaded.context.enrichment.contextLinks.push(`w${i}`);
        try {
          await store.save(id, loaded.context, { expectedVersion: loaded.version });
          return;
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'CONFLICT') throw error;
        }
      }
    }),
  );
}

export function storeContract(t: ContractHarness, makeStore: () => Promise<ContextStore>): void {
  const { it, expect } = t;

  async function withStore(fn: (store: ContextStore) => Promise<void>): Promise<void> {
    const store = await makeStore();
    try {
      await fn(store);
    } finally {
      await store.close();
    }
  }

  it('round trip: a saved context loads back equal, at version 1', () =>
    withStore(async (store) => {
      const ctx = sampleContext('a');
      expect(await store.save('ctx-a', ctx, { expectedVersion: 0 })).toEqual({ version: 1 });
      const loaded = await store.load('ctx-a');
      expect(loaded).toEqual({ context: ctx, version: 1 });
      // The loaded context is a copy: changing it does not change what is stored.
      if (loaded !== undefined) loaded.context.reasoning.summary = 'changed';
      expect((await store.load('ctx-a'))?.context.reasoning.summary).toBe(ctx.reasoning.summary);
      expect(await store.load('missing')).toBeUndefined();
    }));

  it('round trip of a multi-megabyte context with multi-byte characters across chunk boundaries', () =>
    withStore(async (store) => {
      const ctx = sampleContext('big');
      ctx.reasoning.summary = 'é€😀x'.repeat(150_000);
      ctx.enrichment.contextLinks = Array.from({ length: 900 }, (_, i) => `https://example.test/${i}/${'ü'.repeat(500)}`);
      await store.save('big', ctx, { expectedVersion: 0 });
      const loaded = await store.load('big');
      expect(loaded?.version).toBe(1);
      expect(loaded?.context.reasoning.summary).toBe(ctx.reasoning.summary);
      expect(loaded?.context).toEqual(ctx);
      const smaller = sampleContext('small');
      await store.save('big', smaller, { expectedVersion: 1 });
      expect(await store.load('big')).toEqual({ context: smaller, version: 2 });
    }));

  it('versions: each save increments; a stale or wrong expectedVersion is a ConflictError', () =>
    withStore(async (store) => {
      const v1 = sampleContext('v1');
      const v2 = sampleContext('v2');
      expect((await store.save('c', v1, { expectedVersion: 0 })).version).toBe(1);
      await expect(store.save('c', v2, { expectedVersion: 0 })).rejects.toMatchObject({
        name: 'ConflictError',
        code: 'CONFLICT',
        details: { id: 'c', expected: 0, actual: 1 },
      });
      expect((await store.save('c', v2, { expectedVersion: 1 })).version).toBe(2);
      await expect(store.save('c', v1, { expectedVersion: 1 })).rejects.toMatchObject({ code: 'CONFLICT', details: { expected: 1, actual: 2 } });
      await expect(store.save('new', v1, { expectedVersion: 3 })).rejects.toMatchObject({ code: 'CONFLICT', details: { expected: 3, actual: 0 } });
      expect(await store.load('c')).toEqual({ context: v2, version: 2 });
      expect(await store.load('new')).toBeUndefined();
      await expect(store.save('c', v2, { expectedVersion: -1 })).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'options.expectedVersion' } });
      await expect(store.save('', v2, { expectedVersion: 0 })).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'id' } });
    }));

  it('two writers racing on the same version: one wins, the other gets ConflictError', () =>
    withStore(async (store) => {
      await store.save('race', sampleContext('base'), { expectedVersion: 0 });
      const a = sampleContext('writer-a');
      const b = sampleContext('writer-b');
      const results = await Promise.allSettled([store.save('race', a, { expectedVersion: 1 }), store.save('race', b, { expectedVersion: 1 })]);
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      expect(won.length).toBe(1);
      expect(lost.length).toBe(1);
      expect(lost[0]).toMatchObject({ name: 'ConflictError', code: 'CONFLICT' });
      const winner = won[0] === 0 ? a : b;
      expect(await store.load('race')).toEqual({ context: winner, version: 2 });
    }));

  it('no lost update: writers that reload and retry on conflict all land their change', () =>
    withStore(async (store) => {
      await store.save('shared', sampleContext('shared'), { expectedVersion: 0 });
      const writers = ['w0', 'w1', 'w2', 'w3', 'w4'];
      await Promise.all(
        writers.map(async (writer) => {
          for (;;) {
            const loaded = await store.load('shared');
            if (loaded === undefined) throw new Error('context vanished');
            loaded.context.enrichment.contextLinks.push(writer);
            try {
              await store.save('shared', loaded.context, { expectedVersion: loaded.version });
              return;
            } catch (error) {
              if ((error as { code?: unknown }).code !== 'CONFLICT') throw error;
            }
          }
        }),
      );
      const final = await store.load('shared');
      expect(final?.version).toBe(1 + writers.length);
      expect([...(final?.context.enrichment.contextLinks ?? [])].sort()).toEqual(writers);
    }));

  it('an aborted save leaves the previous version intact', () =>
    withStore(async (store) => {
      const v1 = sampleContext('before');
      await store.save('abort', v1, { expectedVersion: 0 });
      const controller = new AbortController();
      const pending = store.save('abort', sampleContext('after'), { expectedVersion: 1, signal: controller.signal });
      controller.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
      expect(await store.load('abort')).toEqual({ context: v1, version: 1 });
      // An already-aborted signal refuses too, and the store still accepts the next good save.
      await expect(store.save('abort', sampleContext('after'), { expectedVersion: 1, signal: AbortSignal.abort() })).rejects.toMatchObject({
        name: 'AbortError',
      });
      expect((await store.save('abort', sampleContext('after'), { expectedVersion: 1 })).version).toBe(2);
    }));

  it('a refused save (invalid context) leaves the previous version intact', () =>
    withStore(async (store) => {
      const v1 = sampleContext('valid');
      await store.save('bad', v1, { expectedVersion: 0 });
      const bad = sampleContext('invalid');
      bad.reasoning.intents = [{ type: 'query', confidence: 7 }];
      await expect(store.save('bad', bad, { expectedVersion: 1 })).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
        details: { field: 'context.reasoning.intents[0].confidence' },
      });
      const polluted = JSON.parse('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
      const evil = sampleContext('evil');
      evil.reasoning.entities = polluted;
      await expect(store.save('bad', evil, { expectedVersion: 1 })).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
        details: { field: 'context.reasoning.entities.__proto__' },
      });
      expect(await store.load('bad')).toEqual({ context: v1, version: 1 });
    }));

  it('a context over a size limit (spec defaults: 10 MB total, 2 MB a namespace, 1,000 items) is CONTEXT_SIZE, and nothing is written', () =>
    withStore(async (store) => {
      const v1 = sampleContext('sized');
      await store.save('sized', v1, { expectedVersion: 0 });
      const record = await store.exportRecord('sized');
      // Six namespaces of 1.9 MB each: none over 2 MB, together over the 10 MB hard limit.
      const big = 'x'.repeat(1_900_000);
      const total = sampleContext('total');
      total.reasoning.summary = big;
      total.enrichment.contextLinks = [big];
      total.retrieval.artifacts = [{ id: 'a', type: 'text', content: big, source: 'web' }];
      total.llm.cache = { big };
      total.diagnostics.warnings = [{ timestamp: '2026-01-02T03:04:05.000Z', agentId: 'a', message: big }];
      total.audit.agentRuns = [{ timestamp: '2026-01-02T03:04:05.000Z', agentId: 'a', status: 'ok', durationMs: 1, keysWritten: [], error: big }];
      const overTotal = await rejection(() => store.save('sized', total, { expectedVersion: 1 }));
      expect(overTotal).toMatchObject({ name: 'ContextSizeError', code: 'CONTEXT_SIZE', details: { limit: 'maxTotalSize', maximum: 10_485_760 } });
      expect((overTotal.details.current as number) > 10_485_760).toBe(true);
      expect(overTotal.message.includes('limit maxTotalSize is 10485760')).toBe(true);
      const namespace = sampleContext('namespace');
      namespace.reasoning.summary = 'x'.repeat(2 * 1024 * 1024);
      await expect(store.save('sized', namespace, { expectedVersion: 1 })).rejects.toMatchObject({
        code: 'CONTEXT_SIZE',
        details: { limit: 'maxNamespaceSize', maximum: 2_097_152, namespace: 'reasoning' },
      });
      const items = sampleContext('items');
      items.enrichment.contextLinks = Array.from({ length: 1001 }, (_, i) => `l${i}`);
      await expect(store.save('sized', items, { expectedVersion: 1 })).rejects.toMatchObject({
        code: 'CONTEXT_SIZE',
        details: { limit: 'maxArrayItems', current: 1001, maximum: 1000, namespace: 'enrichment', key: 'contextLinks' },
      });
      // A new id is not created either.
      await expect(store.save('new', namespace, { expectedVersion: 0 })).rejects.toMatchObject({ code: 'CONTEXT_SIZE' });
      expect(await store.exportRecord('sized')).toEqual(record);
      expect(await store.load('sized')).toEqual({ context: v1, version: 1 });
      expect(await store.list()).toEqual(['sized']);
      // At the limit is within it.
      items.enrichment.contextLinks.pop();
      expect(await store.save('sized', items, { expectedVersion: 1 })).toEqual({ version: 2 });
    }));

  it('a schema version load could not read back is refused at save with INVALID_PARAMS (context.version), and nothing is written', () =>
    withStore(async (store) => {
      const v1 = sampleContext('versioned');
      await store.save('versioned', v1, { expectedVersion: 0 });
      const record = await store.exportRecord('versioned');
      for (const version of ['banana', '2.0.0', '0.9.0', '']) {
        const error = await rejection(() => store.save('versioned', { ...sampleContext('other'), version }, { expectedVersion: 1 }));
        expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'context.version', expected: '1.0.0' } });
        expect(error.message.includes(`schema version "${version}" cannot be loaded back`)).toBe(true);
        expect(error.message.includes('set version to "1.0.0"')).toBe(true);
      }
      await expect(store.save('fresh', { ...sampleContext('other'), version: '2.0.0' }, { expectedVersion: 0 })).rejects.toMatchObject({
        code: 'INVALID_PARAMS',
        details: { field: 'context.version' },
      });
      expect(await store.exportRecord('versioned')).toEqual(record);
      expect(await store.list()).toEqual(['versioned']);
    }));

  it('importRecord refuses a record holding a value that cannot be stored (a function) with INVALID_PARAMS, unquoted, writing nothing', () =>
    withStore(async (store) => {
      await store.save('kept', sampleContext('kept'), { expectedVersion: 0 });
      const kept = await store.exportRecord('kept');
      if (kept === undefined) throw new Error('exportRecord returned nothing');
      const secret = () => 'SECRET-in-source';
      for (const record of [
        { ...kept, version: secret },
        { ...kept, extra: secret },
        { ...kept, id: 'other', version: secret },
      ]) {
        const error = await rejection(() => store.importRecord(record as unknown as StoredRecord));
        expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'record' } });
        expect(error.message.includes('cannot be stored')).toBe(true);
        expect(JSON.stringify(serializeError(error)).includes('SECRET-in-source')).toBe(false);
      }
      expect(await store.exportRecord('kept')).toEqual(kept);
      expect(await store.load('kept')).toEqual({ context: sampleContext('kept'), version: 1 });
      expect(await store.list()).toEqual(['kept']);
    }));

  it('a corrupted record is reported with CORRUPT_RECORD, not loaded', () =>
    withStore(async (store) => {
      await store.save('x', sampleContext('x'), { expectedVersion: 0 });
      const record = await store.exportRecord('x');
      if (record === undefined) throw new Error('exportRecord returned nothing');
      expect(record).toMatchObject({ id: 'x', version: 1 });
      expect(await recordChecksum(record.id, record.version, record.context)).toBe(record.checksum);

      // Same length, one character changed.
      await store.importRecord({ ...record, context: record.context.replace('summary x', 'summary y') });
      await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { id: 'x', reason: 'checksum mismatch' } });

      await store.importRecord({ ...record, checksum: record.checksum.replace(/^./, (c) => (c === '0' ? '1' : '0')) });
      await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'checksum mismatch' } });

      await store.importRecord({ ...record, version: 'one' as unknown as number });
      await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD' });

      // A correct checksum over data that is not an AgentContext is still refused.
      const notJson = '{"version":"1.0.0",';
      await store.importRecord({ id: 'x', version: 1, context: notJson, checksum: await recordChecksum('x', 1, notJson) });
      await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'not a valid AgentContext' } });

      // Restoring the original record makes it loadable again.
      await store.importRecord(record);
      expect((await store.load('x'))?.context).toEqual(sampleContext('x'));
    }));

  it('a record of an unknown schema version fails with MIGRATION_FAILED', () =>
    withStore(async (store) => {
      const future = JSON.stringify({ ...sampleContext('future'), version: '9.0.0' });
      await store.importRecord({ id: 'future', version: 4, context: future, checksum: await recordChecksum('future', 4, future) });
      await expect(store.load('future')).rejects.toMatchObject({ code: 'MIGRATION_FAILED', details: { from: '9.0.0', to: '1.0.0' } });
    }));

  it('artifacts: content-addressed by lowercase hex SHA-256, idempotent, verified on read', () =>
    withStore(async (store) => {
      const abc = new TextEncoder().encode('abc');
      const key = await store.putArtifact(abc);
      expect(key).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      expect(await store.putArtifact(new TextEncoder().encode('abc'))).toBe(key);
      expect(await store.getArtifact(key)).toEqual(abc);
      const big = new Uint8Array(300_000).map((_, i) => (i * 7) % 251);
      const bigKey = await store.putArtifact(big);
      expect(await store.getArtifact(bigKey)).toEqual(big);
      const empty = await store.putArtifact(new Uint8Array(0));
      expect(empty).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      expect(await store.getArtifact(empty)).toEqual(new Uint8Array(0));
      expect(await store.getArtifact('0'.repeat(64))).toBeUndefined();
      await expect(store.getArtifact('ABC')).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'key' } });
    }));

  it('delete and list', () =>
    withStore(async (store) => {
      expect(await store.list()).toEqual([]);
      await store.save('b', sampleContext('b'), { expectedVersion: 0 });
      await store.save('a', sampleContext('a'), { expectedVersion: 0 });
      await store.save('a:b/c', sampleContext('c'), { expectedVersion: 0 });
      await store.putArtifact(new TextEncoder().encode('not a context'));
      expect(await store.list()).toEqual(['a', 'a:b/c', 'b']);
      await expect(store.delete('a', { expectedVersion: 2 })).rejects.toMatchObject({ code: 'CONFLICT', details: { expected: 2, actual: 1 } });
      expect(await store.delete('a', { expectedVersion: 1 })).toBe(true);
      expect(await store.delete('a')).toBe(false);
      expect(await store.load('a')).toBeUndefined();
      expect(await store.list()).toEqual(['a:b/c', 'b']);
      expect(await store.delete('b')).toBe(true);
      // A deleted id can be created again from version 0.
      expect((await store.save('b', sampleContext('b2'), { expectedVersion: 0 })).version).toBe(1);
      expect(await store.list()).toEqual(['a:b/c', 'b']);
    }));

  it('arguments of the wrong kind are INVALID_PARAMS naming the parameter, and change nothing', () =>
    withStore(async (store) => {
      const saved = sampleContext('kept');
      await store.save('kept', saved, { expectedVersion: 0 });
      const record = await store.exportRecord('kept');
      const refused = (call: Promise<unknown>, field: string) => expect(call).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field } });
      // delete: the options are checked before anything is read or deleted.
      await refused(store.delete('kept', null as never), 'options');
      await refused(store.delete('kept', 1 as never), 'options');
      await refused(store.delete('kept', [] as never), 'options');
      await refused(store.delete('kept', { expectedVersion: '1' } as never), 'options.expectedVersion');
      await refused(store.delete('kept', { expectedVersion: Number.NaN }), 'options.expectedVersion');
      // save: the options are checked before the context is sealed or anything is written.
      await refused(store.save('kept', sampleContext('other'), null as never), 'options');
      await refused(store.save('kept', sampleContext('other'), undefined as never), 'options');
      await refused(store.save('kept', sampleContext('other'), { expectedVersion: 1n } as never), 'options.expectedVersion');
      expect(await store.exportRecord('kept')).toEqual(record);
      expect(await store.load('kept')).toEqual({ context: saved, version: 1 });
      // putArtifact: only bytes; a string (which hashes like its UTF-8 bytes) is not stored either.
      for (const bad of [undefined, null, 'abc', 97, [97, 98, 99], {}, new ArrayBuffer(3), () => 1]) await refused(store.putArtifact(bad as never), 'data');
      expect(await store.getArtifact('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad')).toBeUndefined();
      expect(await store.list()).toEqual(['kept']);
      // The refusals left the store working.
      expect(await store.delete('kept', undefined)).toBe(true);
      expect(await store.list()).toEqual([]);
    }));

  it('exportRecord/importRecord copy a context to another store intact', async () => {
    const source = await makeStore();
    const target = await makeStore();
    try {
      await source.save('copy', sampleContext('copy'), { expectedVersion: 0 });
      await source.save('copy', sampleContext('copy2'), { expectedVersion: 1 });
      const record = await source.exportRecord('copy');
      if (record === undefined) throw new Error('exportRecord returned nothing');
      await target.importRecord(record);
      expect(await target.load('copy')).toEqual({ context: sampleContext('copy2'), version: 2 });
      expect(await target.exportRecord('missing')).toBeUndefined();
    } finally {
      await source.close();
      await target.close();
    }
  });
}
