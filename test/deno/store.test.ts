/// <reference lib="deno.unstable" />
// The Deno KV context store against real Deno KV (run with --unstable-kv): the backend contract on
// `:memory:` databases and on a file, a context that survives closing and reopening the file (a
// restart), writers racing through separate KV handles, and records damaged through raw KV writes.
// Every KV opened here is closed, or Deno's resource sanitizer fails the test.
import { expect } from 'expect';
import { createDenoKvStore, openDenoKvStore } from '../../src/store/backends/deno-kv.ts';
import { isChunkedHead } from '../../src/store/backends/chunked.ts';
import type { ContextStore } from '../../src/store/context-store.ts';
import { retryingWriters, sampleContext, storeContract } from '../store/contract.ts';
import { harness } from './harness.ts';

const it = (name: string, fn: () => Promise<void>) => harness.it(`Deno KV store > ${name}`, fn);

Deno.test('Deno KV store > runs on the real Deno.openKv', () => {
  expect(typeof Deno.openKv).toBe('function');
  expect(Deno.version.deno).toMatch(/^2\./);
});

storeContract({ it: (name, fn) => it(`contract (:memory:) > ${name}`, fn), expect }, () => openDenoKvStore({ path: ':memory:' }));

// One file per store, so the contract's "new, empty store each call" holds on disk too.
const dir = await Deno.makeTempDir({ prefix: 'ctxgate-kv-' });
let fileCounter = 0;
storeContract({ it: (name, fn) => it(`contract (file) > ${name}`, fn), expect }, () => openDenoKvStore({ path: `${dir}/contract-${++fileCounter}.kv` }));

/** Every key under `prefix`, as arrays. */
async function keys(kv: Deno.Kv, prefix: Deno.KvKey): Promise<Deno.KvKey[]> {
  const out: Deno.KvKey[] = [];
  for await (const entry of kv.list({ prefix })) out.push(entry.key);
  return out;
}

it('a context survives closing and reopening its file (a restart)', async () => {
  const path = `${dir}/restart.kv`;
  const first = await openDenoKvStore({ path });
  await first.save('kept', sampleContext('v1'), { expectedVersion: 0 });
  const big = sampleContext('big');
  big.reasoning.summary = 'ü€😀'.repeat(60_000);
  await first.save('kept', big, { expectedVersion: 1 });
  const key = await first.putArtifact(new TextEncoder().encode('artifact across restarts'));
  await first.close();

  const second = await openDenoKvStore({ path });
  try {
    expect(await second.load('kept')).toEqual({ context: big, version: 2 });
    expect(await second.list()).toEqual(['kept']);
    expect(new TextDecoder().decode(await second.getArtifact(key))).toBe('artifact across restarts');
    // The version survived too: a writer that did not reload is refused.
    await expect(second.save('kept', sampleContext('stale'), { expectedVersion: 1 })).rejects.toMatchObject({ code: 'CONFLICT', details: { actual: 2 } });
    expect((await second.save('kept', sampleContext('v3'), { expectedVersion: 2 })).version).toBe(3);
  } finally {
    await second.close();
  }
  const third = await openDenoKvStore({ path });
  try {
    expect(await third.load('kept')).toEqual({ context: sampleContext('v3'), version: 3 });
  } finally {
    await third.close();
  }
});

it('two processes racing: separate KV handles on one file, one save wins, the other gets ConflictError', async () => {
  const path = `${dir}/race.kv`;
  const [a, b] = await Promise.all([Deno.openKv(path), Deno.openKv(path)]);
  const stores: ContextStore[] = [createDenoKvStore(a), createDenoKvStore(b)];
  try {
    await stores[0]?.save('race', sampleContext('base'), { expectedVersion: 0 });
    // Regression: without retrying "database is locked", both saves of a round could fail.
    for (let round = 1; round <= 12; round++) {
      const ca = sampleContext(`a${round}`);
      const cb = sampleContext(`b${round}`);
      const results = await Promise.allSettled([stores[0]!.save('race', ca, { expectedVersion: round }), stores[1]!.save('race', cb, { expectedVersion: round })]);
      const won = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
      const lost = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
      expect(won.length).toBe(1);
      expect(lost).toEqual([expect.objectContaining({ name: 'ConflictError', code: 'CONFLICT' })]);
      const winner = won[0] === 0 ? ca : cb;
      expect(await stores[1]!.load('race')).toEqual({ context: winner, version: round + 1 });
      expect(await stores[0]!.load('race')).toEqual({ context: winner, version: round + 1 });
    }
    // The losers' chunks were cleaned up: one generation of chunks is left.
    const gens = new Set((await keys(a, ['ctxgate', 'ctxchunk', 'race'])).map((k) => k[3]));
    expect(gens.size).toBe(1);
  } finally {
    a.close();
    b.close();
  }
});

it('writers on separate handles that retry on conflict all land their change: no lost update', async () => {
  const path = `${dir}/retry.kv`;
  const handles = await Promise.all([0, 1, 2].map(() => Deno.openKv(path)));
  try {
    const stores = handles.map((kv) => createDenoKvStore(kv));
    await stores[0]!.save('doc', sampleContext('doc'), { expectedVersion: 0 });
    await retryingWriters(stores, 'doc');
    const final = await stores[2]!.load('doc');
    expect(final?.version).toBe(4);
    expect([...(final?.context.enrichment.contextLinks ?? [])].sort()).toEqual(['w0', 'w1', 'w2']);
  } finally {
    for (const kv of handles) kv.close();
  }
});

it('records damaged through raw KV writes are CORRUPT_RECORD, never loaded', async () => {
  const kv = await Deno.openKv(':memory:');
  try {
    const store = createDenoKvStore(kv, { prefix: ['app'] });
    const big = sampleContext('big');
    big.reasoning.summary = 'x'.repeat(150_000);
    await store.save('x', big, { expectedVersion: 0 });
    const headKey = ['app', 'ctx', 'x'];
    const head = (await kv.get(headKey)).value;
    if (!isChunkedHead(head)) throw new Error('no head');
    expect(head.chunks).toBe(3);
    const chunkKey = (i: number) => ['app', 'ctxchunk', 'x', head.gen, i];
    const chunk1 = (await kv.get<Uint8Array>(chunkKey(1))).value;
    if (!(chunk1 instanceof Uint8Array)) throw new Error('no chunk');

    // One byte of a chunk flipped, length kept.
    const flipped = chunk1.slice();
    flipped[10] = flipped[10] === 0x78 ? 0x79 : 0x78;
    await kv.set(chunkKey(1), flipped);
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { id: 'x', reason: 'checksum mismatch' } });
    // A chunk that is not UTF-8.
    await kv.set(chunkKey(1), new Uint8Array(chunk1.length).fill(0xff));
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'context text is not UTF-8' } });
    // A chunk missing, or of the wrong type.
    await kv.delete(chunkKey(1));
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'missing or damaged chunk' } });
    await kv.set(chunkKey(1), 'not bytes');
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'missing or damaged chunk' } });
    // The head itself damaged.
    await kv.set(headKey, { id: 'x', version: 'one' });
    await expect(store.load('x')).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'malformed record head' } });
    // Restoring the chunk and head makes it loadable again.
    await kv.set(chunkKey(1), chunk1);
    await kv.set(headKey, head);
    expect(await store.load('x')).toEqual({ context: big, version: 1 });
  } finally {
    kv.close();
  }
});

it('real limits the backend is built around: a 64 KiB value is refused, so contexts are chunked', async () => {
  const kv = await Deno.openKv(':memory:');
  try {
    await expect(kv.set(['too-big'], new Uint8Array(65_537))).rejects.toThrow(/too large/i);
    const store = createDenoKvStore(kv);
    const ctx = sampleContext('chunked');
    ctx.reasoning.summary = 'y'.repeat(1_000_000);
    await store.save('c', ctx, { expectedVersion: 0 });
    const chunks = await keys(kv, ['ctxgate', 'ctxchunk', 'c']);
    expect(chunks.length).toBe(17);
    expect(await store.load('c')).toEqual({ context: ctx, version: 1 });
  } finally {
    kv.close();
  }
});

it('an aborted save leaves the previous version and no orphan chunks in real KV', async () => {
  const kv = await Deno.openKv(':memory:');
  try {
    const store = createDenoKvStore(kv);
    const v1 = sampleContext('v1');
    v1.reasoning.summary = 'z'.repeat(200_000);
    await store.save('a', v1, { expectedVersion: 0 });
    const before = (await keys(kv, ['ctxgate'])).length;
    const controller = new AbortController();
    const next = sampleContext('v2');
    next.reasoning.summary = 'w'.repeat(300_000);
    const pending = store.save('a', next, { expectedVersion: 1, signal: controller.signal });
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect((await keys(kv, ['ctxgate'])).length).toBe(before);
    expect(await store.load('a')).toEqual({ context: v1, version: 1 });
  } finally {
    kv.close();
  }
});

Deno.test({
  name: 'Deno KV store > cleanup of the temp dir',
  // Registered last, so it runs after every file-backed test above.
  fn: async () => {
    await Deno.remove(dir, { recursive: true });
  },
});
