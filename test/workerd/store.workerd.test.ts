// The Durable Object context store in workerd, on a real Durable Object's `state.storage` (the
// CONTEXTS binding, SQLite-backed): the backend contract, writers racing as concurrent requests to
// one object, records damaged through raw storage writes, and a context that persists across two
// stubs of the same id and an eviction of the object.
import { env, evictDurableObject, runInDurableObject } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { isChunkedHead } from '../../src/store/backends/chunked.ts';
import type { ContextStore } from '../../src/store/context-store.ts';
import { retryingWriters, sampleContext, storeContract } from '../store/contract.ts';
import type { ContextStoreObject } from './worker.ts';

type Stub = DurableObjectStub;
const namespace = (env as unknown as { CONTEXTS: DurableObjectNamespace }).CONTEXTS;

/** Runs `fn` inside the object behind `stub`, with its store and its raw storage. */
function inObject<R>(stub: Stub, fn: (obj: ContextStoreObject, storage: DurableObjectStorage) => R | Promise<R>): Promise<R> {
  return runInDurableObject(stub, (obj: ContextStoreObject, state: DurableObjectState) => fn(obj, state.storage));
}

/**
 * A ContextStore whose every call is one request into the object behind `stub`, running the
 * object's own store there: what a Worker sees when it talks to its context object.
 */
function remoteStore(stub: Stub): ContextStore {
  const call =
    <K extends keyof ContextStore>(method: K) =>
    (...args: unknown[]) =>
      inObject(stub, (obj) => (obj.store[method] as (...a: unknown[]) => unknown)(...args));
  return {
    load: call('load'),
    save: call('save'),
    delete: call('delete'),
    list: call('list'),
    exportRecord: call('exportRecord'),
    importRecord: call('importRecord'),
    putArtifact: call('putArtifact'),
    getArtifact: call('getArtifact'),
    close: async () => {},
  } as ContextStore;
}

const freshStub = () => namespace.get(namespace.newUniqueId());

it('runs in workerd with a real Durable Object behind CONTEXTS', async () => {
  const stub = freshStub();
  const kind = await inObject(stub, (_obj, storage) => typeof storage.sql?.exec);
  expect(kind).toBe('function');
  expect(navigator.userAgent).toBe('Cloudflare-Workers');
});

describe('Durable Object store (workerd): backend contract', () => {
  storeContract({ it, expect }, async () => remoteStore(freshStub()));
});

describe('Durable Object store (workerd): real storage', () => {
  it('a context persists across two stubs of the same id, and across an eviction of the object', async () => {
    const name = `persist-${crypto.randomUUID()}`;
    const first = namespace.get(namespace.idFromName(name));
    const big = sampleContext('big');
    big.reasoning.summary = 'ü€😀'.repeat(60_000);
    await remoteStore(first).save('kept', big, { expectedVersion: 0 });
    const key = await remoteStore(first).putArtifact(new TextEncoder().encode('artifact'));

    const second = namespace.get(namespace.idFromName(name));
    expect(await remoteStore(second).load('kept')).toEqual({ context: big, version: 1 });

    // Tear the object down: what comes back was read from storage, not kept in memory.
    await evictDurableObject(second);
    const third = namespace.get(namespace.idFromString(first.id.toString()));
    const store = remoteStore(third);
    expect(await store.load('kept')).toEqual({ context: big, version: 1 });
    expect(new TextDecoder().decode(await store.getArtifact(key))).toBe('artifact');
    await expect(store.save('kept', sampleContext('stale'), { expectedVersion: 0 })).rejects.toMatchObject({ code: 'CONFLICT', details: { actual: 1 } });
    expect((await store.save('kept', sampleContext('v2'), { expectedVersion: 1 })).version).toBe(2);
    // Another name is another object, with nothing in it.
    expect(await remoteStore(namespace.get(namespace.idFromName(`${name}-other`))).list()).toEqual([]);
  });

  it('writers racing as concurrent requests through two stubs: one wins, the other gets ConflictError', async () => {
    const name = `race-${crypto.randomUUID()}`;
    const a = remoteStore(namespace.get(namespace.idFromName(name)));
    const b = remoteStore(namespace.get(namespace.idFromName(name)));
    await a.save('race', sampleContext('base'), { expectedVersion: 0 });
    for (let round = 1; round <= 5; round++) {
      const ca = sampleContext(`a${round}`);
      const cb = sampleContext(`b${round}`);
      cb.reasoning.summary = 'b'.repeat(300_000); // several chunks, so the writes take many storage calls
      const results = await Promise.allSettled([a.save('race', ca, { expectedVersion: round }), b.save('race', cb, { expectedVersion: round })]);
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      expect(won.length).toBe(1);
      expect(lost).toEqual([expect.objectContaining({ name: 'ConflictError', code: 'CONFLICT' })]);
      expect(await b.load('race')).toEqual({ context: won[0] === 0 ? ca : cb, version: round + 1 });
    }
    // Only the winner's generation of chunks is left in storage.
    const chunkKeys = await inObject(namespace.get(namespace.idFromName(name)), async (_obj, storage) => [...(await storage.list({ prefix: 'ctxgate:ctxchunk:' })).keys()]);
    expect(new Set(chunkKeys.map((k) => k.split(':')[2])).size).toBe(1);
  });

  it('writers that retry on conflict all land their change: no lost update', async () => {
    const name = `retry-${crypto.randomUUID()}`;
    const stores = [0, 1, 2, 3].map(() => remoteStore(namespace.get(namespace.idFromName(name))));
    await stores[0]!.save('doc', sampleContext('doc'), { expectedVersion: 0 });
    await retryingWriters(stores, 'doc');
    const final = await stores[3]!.load('doc');
    expect(final?.version).toBe(5);
    expect([...(final?.context.enrichment.contextLinks ?? [])].sort()).toEqual(['w0', 'w1', 'w2', 'w3']);
  });

  it('records damaged through raw storage writes are CORRUPT_RECORD, never loaded', async () => {
    const stub = freshStub();
    const store = remoteStore(stub);
    const big = sampleContext('big');
    big.reasoning.summary = 'x'.repeat(250_000);
    await store.save('x', big, { expectedVersion: 0 });
    const { head, chunk1 } = await inObject(stub, async (_obj, storage) => {
      const head = await storage.get('ctxgate:ctx:x');
      if (!isChunkedHead(head)) throw new Error('no head');
      return { head, chunk1: (await storage.get(`ctxgate:ctxchunk:${head.gen}:1:x`)) as Uint8Array };
    });
    expect(head.chunks).toBe(3);
    expect(chunk1).toBeInstanceOf(Uint8Array);
    const chunkKey = `ctxgate:ctxchunk:${head.gen}:1:x`;
    const damage = (fn: (storage: DurableObjectStorage) => Promise<unknown>) => inObject(stub, (_obj, storage) => fn(storage));

    const flipped = chunk1.slice();
    flipped[5] = flipped[5] === 0x78 ? 0x79 : 0x78;
    await damage((s) => s.put(chunkKey, flipped));
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { id: 'x', reason: 'checksum mismatch' } });
    await damage((s) => s.put(chunkKey, new Uint8Array(chunk1.length).fill(0xc3)));
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'context text is not UTF-8' } });
    await damage((s) => s.delete(chunkKey));
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'missing or damaged chunk' } });
    await damage((s) => s.put(chunkKey, chunk1.slice(1)));
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'missing or damaged chunk' } });
    await damage((s) => s.put('ctxgate:ctx:x', 'not a head'));
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'malformed record head' } });
    await damage(async (s) => {
      await s.put(chunkKey, chunk1);
      await s.put('ctxgate:ctx:x', head);
    });
    expect(await store.load('x')).toEqual({ context: big, version: 1 });
  });

  it('a save that throws inside the storage transaction is rolled back by workerd', async () => {
    const stub = freshStub();
    const store = remoteStore(stub);
    const v1 = sampleContext('v1');
    await store.save('t', v1, { expectedVersion: 0 });
    const before = await inObject(stub, async (_obj, storage) => [...(await storage.list()).keys()].sort());
    // An abort lands after the chunks and the head were written inside the transaction.
    const controller = new AbortController();
    const next = sampleContext('v2');
    next.reasoning.summary = 'n'.repeat(400_000);
    const pending = store.save('t', next, { expectedVersion: 1, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(await inObject(stub, async (_obj, storage) => [...(await storage.list()).keys()].sort())).toEqual(before);
    expect(await store.load('t')).toEqual({ context: v1, version: 1 });
  });
});
