import { describe, expect, it } from 'vitest';
import { createDenoKvStore, openDenoKvStore } from '../../src/store/backends/deno-kv.ts';
import { createDurableObjectStore } from '../../src/store/backends/durable-object.ts';
import { sampleContext, storeContract } from './contract.ts';
import { FakeDenoKv, FakeDurableObjectStorage } from './fakes.ts';
import { rejection, unreadableErrors } from '../fixtures/thrown.ts';

describe('Deno KV store over a fake KV: backend contract', () => {
  storeContract({ it, expect }, async () => createDenoKvStore(new FakeDenoKv()));
});

describe('Durable Object store over a fake storage: backend contract', () => {
  storeContract({ it, expect }, async () => createDurableObjectStore(new FakeDurableObjectStorage()));
});

const big = () => {
  const ctx = sampleContext('big');
  ctx.reasoning.summary = 'x'.repeat(200_000);
  return ctx;
};

describe('Deno KV store', () => {
  it('keeps exactly one generation of chunks, each under the 64 KiB value limit', async () => {
    const kv = new FakeDenoKv();
    const store = createDenoKvStore(kv, { prefix: ['app', 'ctx'] });
    await store.save('a', big(), { expectedVersion: 0 });
    await store.save('a', big(), { expectedVersion: 1 });
    const keys = [...kv.data.values()].map((e) => e.key);
    const chunks = keys.filter((k) => k[2] === 'ctxchunk');
    expect(chunks.length).toBe(4);
    expect(new Set(chunks.map((k) => k[4])).size).toBe(1);
    expect(keys.every((k) => k[0] === 'app' && k[1] === 'ctx')).toBe(true);
  });

  it('a failed head commit leaves the previous version and no orphan chunks', async () => {
    const kv = new FakeDenoKv();
    const store = createDenoKvStore(kv);
    const v1 = sampleContext('v1');
    await store.save('a', v1, { expectedVersion: 0 });
    const before = kv.data.size;
    const start = kv.commits;
    // Commits of the next save: 1 for the chunk batch, then the head switch, which fails.
    kv.failCommit = (n) => n === start + 2;
    await expect(store.save('a', sampleContext('v2'), { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'STORAGE_FAILURE',
      details: { operation: 'save' },
    });
    kv.failCommit = undefined;
    expect(await store.load('a')).toEqual({ context: v1, version: 1 });
    expect(kv.data.size).toBe(before);
  });

  // 1 MB of text is 17 chunks of 60,000 bytes, written in three commits of at most 8.
  const huge = (label: string) => {
    const ctx = sampleContext(label);
    ctx.reasoning.summary = label.repeat(1_000_000 / label.length);
    return ctx;
  };

  it.each([1, 2, 3, 4])('a save whose commit %i fails (of 3 chunk commits and the head switch) leaves the previous version and no orphan chunks', async (failing) => {
    const kv = new FakeDenoKv();
    const store = createDenoKvStore(kv);
    const v1 = huge('a');
    await store.save('a', v1, { expectedVersion: 0 });
    const before = [...kv.data.keys()].sort();
    const start = kv.commits;
    kv.failCommit = (n) => n === start + failing;
    await expect(store.save('a', huge('b'), { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'STORAGE_FAILURE',
      details: { operation: 'save' },
      cause: { message: 'simulated KV failure' },
    });
    kv.failCommit = undefined;
    expect([...kv.data.keys()].sort()).toEqual(before);
    expect(await store.load('a')).toEqual({ context: v1, version: 1 });
  });

  it.each([1, 2, 3, 4])('an importRecord whose commit %i fails leaves what was stored and no orphan chunks', async (failing) => {
    const kv = new FakeDenoKv();
    const store = createDenoKvStore(kv);
    const v1 = huge('a');
    await store.save('a', v1, { expectedVersion: 0 });
    const source = createDenoKvStore(new FakeDenoKv());
    await source.save('a', huge('b'), { expectedVersion: 0 });
    const record = (await source.exportRecord('a'))!;
    const before = [...kv.data.keys()].sort();
    const start = kv.commits;
    kv.failCommit = (n) => n === start + failing;
    await expect(store.importRecord(record)).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'importRecord' } });
    kv.failCommit = undefined;
    expect([...kv.data.keys()].sort()).toEqual(before);
    expect(await store.load('a')).toEqual({ context: v1, version: 1 });
    // The same import then succeeds, and leaves exactly one generation.
    await store.importRecord(record);
    expect(await store.load('a')).toEqual({ context: huge('b'), version: 1 });
    expect(kv.data.size).toBe(before.length);
  });

  describe('a commit that lands but loses its answer (a timeout, a reset connection)', () => {
    /** A store holding 'a' at version 1 (huge: three chunk commits a save, then the head switch). */
    const savedA = async () => {
      const kv = new FakeDenoKv();
      const store = createDenoKvStore(kv);
      await store.save('a', huge('a'), { expectedVersion: 0 });
      return { kv, store };
    };
    const chunkGens = (kv: FakeDenoKv) => new Set([...kv.data.values()].filter((e) => e.key[1] === 'ctxchunk').map((e) => e.key[3]));
    /**
     * Runs `call` with the `nth` commit from now applied and its answer then lost (`onLost` runs
     * just before), and checks that it was: a test whose count went wrong fails, not passes idle.
     */
    const losingAnswer = async <T>(kv: FakeDenoKv, nth: number, call: () => Promise<T>, onLost?: () => void): Promise<T> => {
      const at = kv.commits + nth;
      kv.loseAnswer = (n) => n === at && (onLost?.(), true);
      try {
        return await call();
      } finally {
        kv.loseAnswer = undefined;
        expect(kv.lostAnswers).toBe(1);
      }
    };

    it('save: the head names the new generation, so the save succeeded and the old chunks go', async () => {
      const { kv, store } = await savedA();
      await expect(losingAnswer(kv, 4, () => store.save('a', huge('b'), { expectedVersion: 1 }))).resolves.toEqual({ version: 2 });
      expect(await store.load('a')).toEqual({ context: huge('b'), version: 2 });
      expect(chunkGens(kv).size).toBe(1);
    });

    it('save: when the head cannot be read either, the error stands and the chunks stay, so the record loads whole', async () => {
      const { kv, store } = await savedA();
      const saving = losingAnswer(kv, 4, () => store.save('a', huge('b'), { expectedVersion: 1 }), () => (kv.failGets = true));
      await expect(saving).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'save' } });
      kv.failGets = false;
      // It had landed: never a head pointing at deleted chunks (CORRUPT_RECORD).
      expect(await store.load('a')).toEqual({ context: huge('b'), version: 2 });
    });

    it('importRecord: succeeds, one generation left', async () => {
      const { kv, store } = await savedA();
      const source = createDenoKvStore(new FakeDenoKv());
      await source.save('a', huge('b'), { expectedVersion: 0 });
      const record = (await source.exportRecord('a'))!;
      await expect(losingAnswer(kv, 4, () => store.importRecord(record))).resolves.toBeUndefined();
      expect(await store.load('a')).toEqual({ context: huge('b'), version: 1 });
      expect(chunkGens(kv).size).toBe(1);
    });

    it('delete: the head is gone, so the delete succeeded and its chunks go too', async () => {
      const { kv, store } = await savedA();
      await expect(losingAnswer(kv, 1, () => store.delete('a', { expectedVersion: 1 }))).resolves.toBe(true);
      expect(await store.load('a')).toBeUndefined();
      expect(kv.data.size).toBe(0);
    });

    it("putArtifact: the artifact's head is there, so the put succeeded", async () => {
      const kv = new FakeDenoKv();
      const store = createDenoKvStore(kv);
      const data = new TextEncoder().encode('artifact '.repeat(20_000));
      // After its chunk commits.
      const key = await losingAnswer(kv, 1 + Math.ceil(data.length / 60_000 / 8), () => store.putArtifact(data));
      expect(await store.getArtifact(key)).toEqual(data);
    });
  });

  it('a missing chunk is CORRUPT_RECORD; loads racing saves never see a half-switched record', async () => {
    const kv = new FakeDenoKv();
    const store = createDenoKvStore(kv);
    await store.save('a', big(), { expectedVersion: 0 });
    const loads: Promise<unknown>[] = [];
    for (let v = 1; v <= 4; v++) {
      loads.push(store.load('a').then((l) => l?.version));
      await store.save('a', big(), { expectedVersion: v });
    }
    for (const version of await Promise.all(loads)) expect([1, 2, 3, 4, 5]).toContain(version);
    const chunk = [...kv.data.entries()].find(([, e]) => e.key[1] === 'ctxchunk');
    if (chunk === undefined) throw new Error('no chunk');
    kv.data.delete(chunk[0]);
    await expect(store.load('a')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'missing or damaged chunk' } });
  });

  it('retries commits refused with "database is locked" (another connection writing), then reports STORAGE_FAILURE', async () => {
    const kv = new FakeDenoKv();
    const store = createDenoKvStore(kv);
    kv.lockedCommits = 3;
    expect(await store.save('a', sampleContext('v1'), { expectedVersion: 0 })).toEqual({ version: 1 });
    expect(kv.lockedCommits).toBe(0);
    expect(await store.load('a')).toEqual({ context: sampleContext('v1'), version: 1 });
    // A lock that never clears is not retried forever; the previous version stays.
    kv.lockedCommits = Number.POSITIVE_INFINITY;
    await expect(store.save('a', sampleContext('v2'), { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'STORAGE_FAILURE',
      details: { operation: 'save' },
      cause: { message: 'database is locked' },
    });
    kv.lockedCommits = 0;
    expect(await store.load('a')).toEqual({ context: sampleContext('v1'), version: 1 });
  });

  it('closes only a database it opened', async () => {
    const kv = new FakeDenoKv();
    await createDenoKvStore(kv).close();
    expect(kv.closed).toBe(false);
    const g = globalThis as { Deno?: unknown };
    g.Deno = { openKv: async (path?: string) => Object.assign(kv, { path }) };
    try {
      const store = await openDenoKvStore({ path: '/tmp/x.kv' });
      await store.save('a', sampleContext('a'), { expectedVersion: 0 });
      await store.close();
      expect(kv.closed).toBe(true);
      expect((kv as unknown as { path: string }).path).toBe('/tmp/x.kv');
    } finally {
      delete g.Deno;
    }
    await expect(openDenoKvStore()).rejects.toMatchObject({ code: 'STORAGE_FAILURE' });
  });
});

describe('Durable Object store', () => {
  it('a storage failure mid-save rolls back: previous version intact, no new chunks', async () => {
    const storage = new FakeDurableObjectStorage();
    const store = createDurableObjectStore(storage);
    const v1 = big();
    await store.save('a', v1, { expectedVersion: 0 });
    const keys = [...storage.data.keys()].sort();
    storage.failPut = (key) => key === 'ctxgate:ctx:a';
    await expect(store.save('a', sampleContext('v2'), { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'STORAGE_FAILURE',
      details: { operation: 'save' },
    });
    storage.failPut = undefined;
    expect([...storage.data.keys()].sort()).toEqual(keys);
    expect(await store.load('a')).toEqual({ context: v1, version: 1 });
    expect(keys.filter((k) => k.startsWith('ctxgate:ctxchunk:')).length).toBe(2);
  });

  it('a storage error whose getters throw is STORAGE_FAILURE too, with it as the cause', async () => {
    const storage = new FakeDurableObjectStorage();
    const store = createDurableObjectStore(storage);
    await store.save('a', sampleContext('v1'), { expectedVersion: 0 });
    for (const thrown of unreadableErrors()) {
      storage.failPut = (key) => {
        if (key === 'ctxgate:ctx:a') throw thrown;
        return false;
      };
      const error = await rejection(store.save('a', sampleContext('v2'), { expectedVersion: 1 }));
      storage.failPut = undefined;
      expect(error).toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'save' } });
      expect((error as Error).cause).toBe(thrown);
      expect(await store.load('a')).toEqual({ context: sampleContext('v1'), version: 1 });
    }
  });
});
