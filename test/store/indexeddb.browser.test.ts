/**
 * The IndexedDB context store in real Chromium (Vitest browser mode): the backend contract, then
 * what only a real browser shows: two tabs racing (two store instances on one database), a
 * transaction aborted under the store, records damaged through raw IndexedDB, an upgrade from the
 * first schema, an upgrade blocked by a connection that never closes, and the store inside a
 * module Web Worker.
 */
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import type { IdbBlockedInfo } from '../../src/store/backends/indexeddb.ts';
import { IDB_SCHEMA_VERSION, createIndexedDbStore } from '../../src/store/backends/indexeddb.ts';
import type { ContextStore } from '../../src/store/context-store.ts';
import { recordChecksum, sealRecord } from '../../src/store/record.ts';
import { sampleContext, storeContract } from './contract.ts';

let dbCounter = 0;
const run = Math.random().toString(36).slice(2, 8);
const freshName = () => `ctxgate-chromium-${run}-${++dbCounter}`;

/** Resolves once `predicate` holds, checking after each macrotask; rejects after `max` checks. */
async function until(predicate: () => boolean, max = 500): Promise<void> {
  for (let i = 0; i < max; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error('condition never became true');
}

/** Settles to 'pending' if `promise` has not settled after a few macrotasks. */
async function stateOf(promise: Promise<unknown>): Promise<'pending' | 'fulfilled' | 'rejected'> {
  let state: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  promise.then(
    () => (state = 'fulfilled'),
    () => (state = 'rejected'),
  );
  for (let i = 0; i < 10; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return state;
}

it('runs in a real browser with a native IndexedDB', () => {
  expect(typeof indexedDB.open).toBe('function');
  expect(navigator.userAgent).toMatch(/Chrome\//);
  expect(String(indexedDB)).toBe('[object IDBFactory]');
});

describe('IndexedDB store (Chromium): backend contract', () => {
  storeContract({ it, expect }, async () => createIndexedDbStore({ name: freshName() }));
});

describe('IndexedDB store (Chromium): browser behaviour', () => {
  const open: ContextStore[] = [];
  const cleanups: (() => void)[] = [];
  const track = (store: ContextStore) => (open.push(store), store);
  afterEach(async () => {
    for (const c of cleanups.splice(0)) c();
    for (const s of open.splice(0)) await s.close();
  });

  it('two tabs racing: two store instances on one database, one save wins, the other gets ConflictError', async () => {
    const name = freshName();
    const tabA = track(createIndexedDbStore({ name }));
    const tabB = track(createIndexedDbStore({ name }));
    await tabA.save('shared', sampleContext('base'), { expectedVersion: 0 });
    expect((await tabB.load('shared'))?.version).toBe(1);
    const a = sampleContext('tab-a');
    const b = sampleContext('tab-b');
    const results = await Promise.allSettled([tabA.save('shared', a, { expectedVersion: 1 }), tabB.save('shared', b, { expectedVersion: 1 })]);
    const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
    const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
    expect(won.length).toBe(1);
    expect(lost).toEqual([expect.objectContaining({ name: 'ConflictError', code: 'CONFLICT', details: { id: 'shared', expected: 1, actual: 2 } })]);
    const winner = won[0] === 0 ? a : b;
    // Both tabs see the winner; nothing of the loser was written.
    expect(await tabA.load('shared')).toEqual({ context: winner, version: 2 });
    expect(await tabB.load('shared')).toEqual({ context: winner, version: 2 });
  });

  it('four tabs that reload and retry on conflict all land their change: no lost update', async () => {
    const name = freshName();
    const tabs = [0, 1, 2, 3].map(() => track(createIndexedDbStore({ name })));
    await tabs[0]?.save('doc', sampleContext('doc'), { expectedVersion: 0 });
    let conflicts = 0;
    await Promise.all(
      tabs.map(async (tab, i) => {
        for (;;) {
          const loaded = await tab.load('doc');
          if (loaded === undefined) throw new Error('context vanished');
          loaded.context.enrichment.contextLinks.push(`tab-${i}`);
          try {
            await tab.save('doc', loaded.context, { expectedVersion: loaded.version });
            return;
          } catch (error) {
            if ((error as { code?: unknown }).code !== 'CONFLICT') throw error;
            conflicts++;
          }
        }
      }),
    );
    const final = await tabs[3]?.load('doc');
    expect(final?.version).toBe(5);
    expect([...(final?.context.enrichment.contextLinks ?? [])].sort()).toEqual(['tab-0', 'tab-1', 'tab-2', 'tab-3']);
    // All four loaded version 1 before any save committed, so at least three had to retry.
    expect(conflicts).toBeGreaterThanOrEqual(3);
  });

  it('a transaction aborted under the store after its write: STORAGE_FAILURE, previous version intact', async () => {
    const name = freshName();
    const store = track(createIndexedDbStore({ name }));
    const v1 = sampleContext('v1');
    await store.save('t', v1, { expectedVersion: 0 });
    // The next write to `contexts` is issued, then its transaction is aborted from outside, as when
    // the browser tears a transaction down (tab closing, storage pressure).
    const proto = IDBObjectStore.prototype;
    const originalPut = proto.put;
    let aborted = 0;
    proto.put = function patchedPut(this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      const request = originalPut.apply(this, args);
      if (this.name === 'contexts') {
        aborted++;
        this.transaction.abort();
      }
      return request;
    };
    cleanups.push(() => (proto.put = originalPut));
    await expect(store.save('t', sampleContext('v2'), { expectedVersion: 1 })).rejects.toMatchObject({
      name: 'CtxgateError',
      code: 'STORAGE_FAILURE',
      details: { operation: 'save' },
    });
    await expect(store.save('new', sampleContext('v2'), { expectedVersion: 0 })).rejects.toMatchObject({ code: 'STORAGE_FAILURE' });
    expect(aborted).toBe(2);
    proto.put = originalPut;
    expect(await store.load('t')).toEqual({ context: v1, version: 1 });
    expect(await store.load('new')).toBeUndefined();
    expect(await store.list()).toEqual(['t']);
    expect(await store.save('t', sampleContext('v2'), { expectedVersion: 1 })).toEqual({ version: 2 });
  });

  it('a raw transaction that writes and then aborts leaves nothing for the store to see', async () => {
    const name = freshName();
    const store = track(createIndexedDbStore({ name }));
    const v1 = sampleContext('v1');
    await store.save('r', v1, { expectedVersion: 0 });
    const db = await openDB(name);
    const tx = db.transaction('contexts', 'readwrite');
    await tx.store.put({ ...(await tx.store.get('r')), version: 99 });
    tx.abort();
    await expect(tx.done).rejects.toMatchObject({ name: 'AbortError' });
    db.close();
    expect(await store.load('r')).toEqual({ context: v1, version: 1 });
  });

  it('records damaged through raw IndexedDB are CORRUPT_RECORD, never loaded', async () => {
    const name = freshName();
    const store = track(createIndexedDbStore({ name }));
    await store.save('x', sampleContext('x'), { expectedVersion: 0 });
    const db = await openDB(name);
    const good = (await db.get('contexts', 'x')) as { id: string; version: number; context: string; checksum: string };
    expect(good.checksum).toBe(await recordChecksum('x', 1, good.context));
    cleanups.push(() => db.close());

    // One character of the text flipped, as a bad sector or a buggy extension would.
    await db.put('contexts', { ...good, context: good.context.replace('summary x', 'summary X') });
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { id: 'x', reason: 'checksum mismatch' } });
    // The version bumped without resealing.
    await db.put('contexts', { ...good, version: 2 });
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'checksum mismatch' } });
    // Fields missing or of the wrong type.
    await db.put('contexts', { id: 'x', version: 1 });
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'malformed record' } });
    await db.put('contexts', { ...good, context: new TextEncoder().encode(good.context) });
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'malformed record' } });
    // Sealed correctly, but the text is not an AgentContext.
    const wrong = JSON.stringify({ version: '1.0.0', hello: 'world' });
    await db.put('contexts', { id: 'x', version: 1, context: wrong, checksum: await recordChecksum('x', 1, wrong) });
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'not a valid AgentContext' } });
    // A damaged record still holds its version: a blind overwrite is refused, a versioned one repairs it.
    await expect(store.save('x', sampleContext('fixed'), { expectedVersion: 0 })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await store.save('x', sampleContext('fixed'), { expectedVersion: 1 })).toEqual({ version: 2 });
    expect((await store.load('x'))?.context).toEqual(sampleContext('fixed'));
  });

  it('damaged artifact bytes are CORRUPT_RECORD', async () => {
    const name = freshName();
    const store = track(createIndexedDbStore({ name }));
    const key = await store.putArtifact(new TextEncoder().encode('payload'));
    const db = await openDB(name);
    cleanups.push(() => db.close());
    await db.put('artifacts', new TextEncoder().encode('pAyload'), key);
    await expect(store.getArtifact(key)).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { key, reason: 'checksum mismatch' } });
    await db.put('artifacts', 'not bytes', key);
    await expect(store.getArtifact(key)).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { key, reason: 'malformed' } });
  });

  it('upgrades a database created at schema version 1 by raw IndexedDB, keeping its contexts', async () => {
    const name = freshName();
    const record = await sealRecord('old', 3, sampleContext('old'));
    const v1 = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('contexts', { keyPath: 'id' });
      },
    });
    await v1.put('contexts', record);
    expect([...v1.objectStoreNames]).toEqual(['contexts']);
    v1.close();

    const store = track(createIndexedDbStore({ name }));
    expect(await store.load('old')).toEqual({ context: sampleContext('old'), version: 3 });
    const key = await store.putArtifact(new TextEncoder().encode('abc'));
    expect(await store.getArtifact(key)).toEqual(new TextEncoder().encode('abc'));
    expect(await store.save('old', sampleContext('new'), { expectedVersion: 3 })).toEqual({ version: 4 });
    await store.close();

    const check = await openDB(name);
    expect(check.version).toBe(IDB_SCHEMA_VERSION);
    expect([...check.objectStoreNames].sort()).toEqual(['artifacts', 'contexts']);
    check.close();
    // Reopening at the current version runs no upgrade and keeps everything.
    const again = track(createIndexedDbStore({ name }));
    expect((await again.load('old'))?.version).toBe(4);
  });

  it('an upgrade blocked by an old connection that never closes: reported, waits without writing, resumes on close', async () => {
    const name = freshName();
    const old = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('contexts', { keyPath: 'id' });
      },
    });
    // No versionchange handler: this connection ignores requests to close, like a stale tab.
    const blocked: IdbBlockedInfo[] = [];
    const store = track(createIndexedDbStore({ name, onBlocked: (info) => blocked.push(info) }));
    const pending = store.save('b', sampleContext('b'), { expectedVersion: 0 });
    await until(() => blocked.length > 0);
    expect(blocked).toEqual([{ currentVersion: 1, requestedVersion: IDB_SCHEMA_VERSION }]);
    expect(await stateOf(pending)).toBe('pending');
    // The old connection still works at its version, and sees nothing written.
    expect(old.version).toBe(1);
    expect(await old.count('contexts')).toBe(0);
    old.close();
    expect(await pending).toEqual({ version: 1 });
    expect((await store.load('b'))?.version).toBe(1);
    expect(blocked.length).toBe(1);
  });

  it('closes its connection when another tab upgrades the schema, then reports STORAGE_FAILURE', async () => {
    const name = freshName();
    let versionChanges = 0;
    const store = track(createIndexedDbStore({ name, onVersionChange: () => versionChanges++ }));
    await store.save('k', sampleContext('k'), { expectedVersion: 0 });
    // Would wait forever if the store kept its connection open.
    const newer = await openDB(name, IDB_SCHEMA_VERSION + 1, { upgrade() {} });
    expect(versionChanges).toBe(1);
    newer.close();
    await expect(store.load('k')).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'load', reason: 'version' } });
  });

  it('a module Web Worker saves with the store; the page loads what it saved', async () => {
    const name = freshName();
    const worker = new Worker(new URL('../fixtures/store-worker.ts', import.meta.url), { type: 'module' });
    cleanups.push(() => worker.terminate());
    const ask = (message: object) =>
      new Promise<Record<string, unknown>>((resolve, reject) => {
        worker.addEventListener('message', (event: MessageEvent) => resolve(event.data as Record<string, unknown>), { once: true });
        worker.addEventListener('error', (event) => reject(new Error(`worker failed: ${event.message}`)), { once: true });
        worker.postMessage(message);
      });
    expect(await ask({ name, id: 'from-worker', label: 'worker', expectedVersion: 0 })).toEqual({ ok: true, version: 1, loadedVersion: 1, inWorker: true });
    const page = track(createIndexedDbStore({ name }));
    expect(await page.load('from-worker')).toEqual({ context: sampleContext('worker'), version: 1 });
    // The page saves on top; the worker's stale save is then a conflict, reported across the boundary.
    await page.save('from-worker', sampleContext('page'), { expectedVersion: 1 });
    expect(await ask({ name, id: 'from-worker', label: 'stale', expectedVersion: 1 })).toMatchObject({ ok: false, code: 'CONFLICT' });
    expect(await page.load('from-worker')).toEqual({ context: sampleContext('page'), version: 2 });
  });
});
