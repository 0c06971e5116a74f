import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import type { IdbBlockedInfo } from '../../src/store/backends/indexeddb.ts';
import { IDB_SCHEMA_VERSION, createIndexedDbStore } from '../../src/store/backends/indexeddb.ts';
import { sealRecord } from '../../src/store/record.ts';
import { sampleContext, storeContract } from './contract.ts';

let dbCounter = 0;
const freshName = () => `ctxgate-test-${++dbCounter}`;

describe('IndexedDB store (fake-indexeddb): backend contract', () => {
  storeContract({ it, expect }, async () => createIndexedDbStore({ name: freshName() }));
});

/** Makes the next write to `contexts` fail the way a browser reports a full disk. */
function failNextContextWrite(mode: 'async-abort' | 'sync-throw'): () => void {
  const proto = IDBObjectStore.prototype;
  const originalPut = proto.put;
  proto.put = function patchedPut(this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    if (this.name !== 'contexts') return originalPut.apply(this, args);
    proto.put = originalPut;
    if (mode === 'sync-throw') {
      const request = originalPut.apply(this, args);
      throw Object.assign(new DOMException('The quota has been exceeded.', 'QuotaExceededError'), { request });
    }
    // The record is written, then the request fails with QuotaExceededError and the transaction
    // aborts with it, as in Chromium when the origin's quota runs out at commit.
    const raw = (this as unknown as { _rawObjectStore: { storeRecord: (...a: unknown[]) => unknown } })._rawObjectStore;
    const storeRecord = raw.storeRecord;
    raw.storeRecord = function (...a: unknown[]) {
      raw.storeRecord = storeRecord;
      storeRecord.apply(raw, a);
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    return originalPut.apply(this, args);
  };
  return () => {
    proto.put = originalPut;
  };
}

describe('IndexedDB store: browser-specific behaviour', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    for (const c of cleanups.splice(0)) c();
  });

  it.each(['async-abort', 'sync-throw'] as const)('a quota error (%s) is QUOTA_EXCEEDED and nothing is half-written', async (mode) => {
    const store = createIndexedDbStore({ name: freshName() });
    const v1 = sampleContext('v1');
    await store.save('q', v1, { expectedVersion: 0 });
    cleanups.push(failNextContextWrite(mode));
    await expect(store.save('q', sampleContext('v2'), { expectedVersion: 1 })).rejects.toMatchObject({
      name: 'CtxgateError',
      code: 'QUOTA_EXCEEDED',
      details: { operation: 'save' },
    });
    expect(await store.load('q')).toEqual({ context: v1, version: 1 });
    cleanups.push(failNextContextWrite(mode));
    await expect(store.save('fresh', v1, { expectedVersion: 0 })).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    expect(await store.load('fresh')).toBeUndefined();
    expect(await store.list()).toEqual(['q']);
    // The next save, with space again, goes through on top of the intact version.
    expect(await store.save('q', sampleContext('v2'), { expectedVersion: 1 })).toEqual({ version: 2 });
    await store.close();
  });

  it('upgrades a database created at schema version 1, keeping its contexts', async () => {
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

    const store = createIndexedDbStore({ name });
    expect(await store.load('old')).toEqual({ context: sampleContext('old'), version: 3 });
    const key = await store.putArtifact(new TextEncoder().encode('abc'));
    expect(await store.getArtifact(key)).toEqual(new TextEncoder().encode('abc'));
    expect(await store.save('old', sampleContext('new'), { expectedVersion: 3 })).toEqual({ version: 4 });
    await store.close();

    const check = await openDB(name);
    expect(check.version).toBe(IDB_SCHEMA_VERSION);
    expect([...check.objectStoreNames].sort()).toEqual(['artifacts', 'contexts']);
    check.close();
  });

  it('reports a blocked upgrade and proceeds once the old connection closes', async () => {
    const name = freshName();
    const old = await openDB(name, 1, {
      upgrade(db) {
        db.createObjectStore('contexts', { keyPath: 'id' });
      },
    });
    const blocked: IdbBlockedInfo[] = [];
    const store = createIndexedDbStore({ name, onBlocked: (info) => blocked.push(info) });
    const pending = store.list();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(blocked).toEqual([{ currentVersion: 1, requestedVersion: IDB_SCHEMA_VERSION }]);
    old.close();
    expect(await pending).toEqual([]);
    await store.close();
  });

  it('closes its connection when another tab upgrades, then reports STORAGE_FAILURE on use', async () => {
    const name = freshName();
    let versionChanges = 0;
    const store = createIndexedDbStore({ name, onVersionChange: () => versionChanges++ });
    await store.save('k', sampleContext('k'), { expectedVersion: 0 });
    // Would wait forever if the store kept its connection open.
    const newer = await openDB(name, IDB_SCHEMA_VERSION + 1, { upgrade() {} });
    expect(versionChanges).toBe(1);
    newer.close();
    await expect(store.load('k')).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'load', reason: 'version' } });
    await store.close();
  });

  it('reports damaged artifact bytes with CORRUPT_RECORD', async () => {
    const name = freshName();
    const store = createIndexedDbStore({ name });
    const key = await store.putArtifact(new TextEncoder().encode('payload'));
    const db = await openDB(name);
    await db.put('artifacts', new TextEncoder().encode('pAyload'), key);
    await expect(store.getArtifact(key)).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { key, reason: 'checksum mismatch' } });
    await db.put('artifacts', 'not bytes', key);
    await expect(store.getArtifact(key)).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { key, reason: 'malformed' } });
    db.close();
    await store.close();
  });
});
