import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CtxgateError } from '../../src/errors.ts';
import { rejection } from '../fixtures/thrown.ts';
import { artifactBytes, externalizeArtifacts, loadArtifactContent, resolveArtifacts } from '../../src/store/artifacts.ts';
import { createMemoryStore } from '../../src/store/backends/memory.ts';
import type { ArtifactStore } from '../../src/store/context-store.ts';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import { sha256Hex } from '../../src/store/hash.ts';
import { getStats } from '../../src/store/limits.ts';
import { createAgentContext } from '../../src/store/model.ts';
import { recordChecksum } from '../../src/store/record.ts';
import { sampleContext } from './contract.ts';

/** Freezes `value` and everything in it, as Immer's produce leaves what it returns. */
function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const member of Object.values(value)) deepFreeze(member);
    Object.freeze(value);
  }
  return value;
}

const art = (id: string, n: number) => ({ id, type: 'blob', content: 'x'.repeat(n - 2) + id, source: 'web' });

describe('hashing', () => {
  it('has known answers and canonical key order', async () => {
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await sha256Hex(new Uint8Array(0))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(canonicalize({ b: 1, a: [{ d: 1, c: null }], é: 'x', Z: true })).toBe('{"Z":true,"a":[{"c":null,"d":1}],"b":1,"é":"x"}');
  });

  it('the record checksum is the SHA-256 of the canonical JSON of { context, id, version } (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1 }), fc.integer({ min: 1, max: 1e9 }), fc.string(), async (id, version, summary) => {
        const ctx = createAgentContext('s', 't', { createdAt: '2026-01-01T00:00:00Z' });
        ctx.reasoning.summary = summary;
        const text = canonicalize(ctx);
        expect(await recordChecksum(id, version, text)).toBe(await sha256Hex(canonicalize({ version, id, context: ctx })));
      }),
      { numRuns: 50 },
    );
  });
});

describe('artifact externalisation', () => {
  it('moves artifacts over 50 KB, then the largest until inline ones fit 100 KB; retrieval is transparent', async () => {
    const store = createMemoryStore();
    const ctx = sampleContext('art');
    ctx.retrieval.artifacts = [art('small', 1000), art('huge', 60_000), art('m1', 45_000), art('m2', 46_000), art('m3', 20_000)];
    const original = structuredClone(ctx);
    const result = await externalizeArtifacts(ctx, store);
    // Inline after "huge": 1000 + 45000 + 46000 + 20000 = 112000 > 102400, so m2 (largest) moves too.
    expect(result.externalized).toEqual(['huge', 'm2']);
    expect(result.bytesMoved).toBe(artifactBytes(original.retrieval.artifacts[1]!.content).length + artifactBytes(original.retrieval.artifacts[3]!.content).length);
    const huge = ctx.retrieval.artifacts[1]!;
    expect(huge).toEqual({
      id: 'huge',
      type: 'blob',
      source: 'web',
      ref: { sha256: await sha256Hex(JSON.stringify(original.retrieval.artifacts[1]!.content)), size: 60_000 - 2 + 4 + 2 },
    });
    expect('content' in huge).toBe(false);
    expect(ctx.retrieval.artifacts[0]).toEqual(original.retrieval.artifacts[0]);
    expect(getStats(ctx).externalizedCount).toBe(2);
    expect(await loadArtifactContent(huge, store)).toBe(original.retrieval.artifacts[1]!.content);
    expect(await resolveArtifacts(ctx, store)).toEqual(original);
    // Running again moves nothing.
    expect(await externalizeArtifacts(ctx, store)).toEqual({ externalized: [], bytesMoved: 0 });
    // The externalised context still validates and round-trips through a store.
    await store.save('with-refs', ctx, { expectedVersion: 0 });
    expect((await store.load('with-refs'))?.context).toEqual(ctx);
  });

  it('a failing artifact store leaves the context as it was: its own error is STORAGE_FAILURE naming the artifact, with the error as cause', async () => {
    const cause = new Error('disk full');
    const failing: ArtifactStore = {
      putArtifact: async () => {
        throw cause;
      },
      getArtifact: async () => undefined,
    };
    const ctx = createAgentContext('s', 't');
    ctx.retrieval.artifacts = [art('a', 70_000)];
    const before = canonicalize(ctx);
    const error = await rejection(() => externalizeArtifacts(ctx, failing));
    expect(error).toBeInstanceOf(CtxgateError);
    expect(error).toMatchObject({ code: 'STORAGE_FAILURE', details: { id: 'a', operation: 'putArtifact' } });
    expect(error.message).toContain('failed to store artifact "a"; the context is unchanged');
    expect(error.cause).toBe(cause);
    expect(canonicalize(ctx)).toBe(before);
    // A ctxgate error of the store's (a full quota) passes through as it is.
    const quota = new CtxgateError('QUOTA_EXCEEDED', 'quota exceeded');
    const full: ArtifactStore = { putArtifact: () => Promise.reject(quota), getArtifact: async () => undefined };
    expect(await rejection(() => externalizeArtifacts(ctx, full))).toBe(quota);
    expect(canonicalize(ctx)).toBe(before);
  });

  it('an artifact store whose put returns anything but the bytes\' SHA-256 key is STORAGE_FAILURE; the context is unchanged', async () => {
    const ctx = createAgentContext('s', 't');
    ctx.retrieval.artifacts = [art('a', 70_000)];
    const before = canonicalize(ctx);
    const cases: [unknown, string][] = [
      [42, 'a number'],
      [undefined, 'undefined'],
      ['ABC', 'a string that is not a lowercase hex SHA-256'],
      ['A'.repeat(64), 'a string that is not a lowercase hex SHA-256'],
      // Well formed, but the key of other bytes: the reference would point at the wrong content.
      ['0'.repeat(64), 'the key of other bytes'],
    ];
    for (const [key, got] of cases) {
      const lying: ArtifactStore = { putArtifact: async () => key as string, getArtifact: async () => undefined };
      const error = await rejection(() => externalizeArtifacts(ctx, lying));
      expect(error).toMatchObject({ code: 'STORAGE_FAILURE', details: { id: 'a', operation: 'putArtifact', got } });
      expect(error.message).toContain(`returned ${got} for artifact "a" instead of its key`);
      expect(canonicalize(ctx)).toBe(before);
    }
  });

  it('an artifact with neither content nor ref has nothing to move and is left as it is', async () => {
    const store = createMemoryStore();
    const ctx = createAgentContext('s', 't');
    const empty = { id: 'empty', type: 'blob', source: 'web' };
    ctx.retrieval.artifacts = [empty, art('huge', 60_000)];
    const result = await externalizeArtifacts(ctx, store);
    expect(result.externalized).toEqual(['huge']);
    expect(ctx.retrieval.artifacts[0]).toEqual(empty);
    expect(ctx.retrieval.artifacts[1]?.ref).toBeDefined();
    // Only that one: nothing to move, nothing stored, no error.
    ctx.retrieval.artifacts = [{ ...empty }];
    expect(await externalizeArtifacts(ctx, store)).toEqual({ externalized: [], bytesMoved: 0 });
    expect(ctx.retrieval.artifacts).toEqual([empty]);
  });

  it('a frozen context is INVALID_PARAMS naming context.retrieval, before anything is stored; it is unchanged', async () => {
    let puts = 0;
    const store = createMemoryStore();
    const counting: ArtifactStore = {
      putArtifact: (data) => {
        puts++;
        return store.putArtifact(data);
      },
      getArtifact: (key) => store.getArtifact(key),
    };
    const ctx = createAgentContext('s', 't');
    ctx.retrieval.artifacts = [art('huge', 60_000)];
    const before = canonicalize(ctx);
    deepFreeze(ctx);
    const error = await rejection(() => externalizeArtifacts(ctx, counting));
    expect(error).toBeInstanceOf(CtxgateError);
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'context.retrieval' } });
    expect(error.message).toContain('context.retrieval: is read-only');
    expect(error.message).toContain('cloneContext()');
    expect(puts).toBe(0);
    expect(canonicalize(ctx)).toBe(before);
    // Frozen but with nothing to move: nothing to write, so no refusal.
    const small = createAgentContext('s', 't');
    small.retrieval.artifacts = [art('small', 100)];
    expect(await externalizeArtifacts(deepFreeze(small), counting)).toEqual({ externalized: [], bytesMoved: 0 });
  });

  it('a missing artifact is NOT_FOUND; a wrong size or damaged bytes are CORRUPT_RECORD', async () => {
    const store = createMemoryStore();
    const key = await store.putArtifact(artifactBytes({ a: 1 }));
    const base = { id: 'x', type: 't', source: 's' };
    expect(await loadArtifactContent({ ...base, ref: { sha256: key, size: 7 } }, store)).toEqual({ a: 1 });
    await expect(loadArtifactContent({ ...base, ref: { sha256: 'f'.repeat(64), size: 7 } }, store)).rejects.toMatchObject({ code: 'NOT_FOUND', details: { id: 'x' } });
    await expect(loadArtifactContent({ ...base, ref: { sha256: key, size: 8 } }, store)).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'size mismatch' } });
    const liar: ArtifactStore = { putArtifact: async () => key, getArtifact: async () => artifactBytes({ a: 2 }) };
    await expect(loadArtifactContent({ ...base, ref: { sha256: key, size: 7 } }, liar)).rejects.toMatchObject({ code: 'CORRUPT_RECORD', details: { reason: 'checksum mismatch' } });
    const evil = new TextEncoder().encode('{"__proto__":{"p":1}}');
    const evilKey = await store.putArtifact(evil);
    await expect(loadArtifactContent({ ...base, ref: { sha256: evilKey, size: evil.length } }, store)).rejects.toMatchObject({ code: 'INVALID_PARAMS' });
  });
});

describe('artifact functions refuse arguments of the wrong kind', () => {
  const field = (f: string) => expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: f }) });
  const base = { id: 'a1', type: 'blob', source: 'web' };

  it('externalizeArtifacts names context, the missing part of it, and store', async () => {
    const store = createMemoryStore();
    await expect(externalizeArtifacts(undefined as never, store)).rejects.toEqual(field('context'));
    await expect(externalizeArtifacts({} as never, store)).rejects.toEqual(field('context.retrieval'));
    await expect(externalizeArtifacts({ retrieval: { artifacts: {} } } as never, store)).rejects.toEqual(field('context.retrieval.artifacts'));
    await expect(externalizeArtifacts({ retrieval: { artifacts: [null] } } as never, store)).rejects.toEqual(field('context.retrieval.artifacts[0]'));
    await expect(externalizeArtifacts(createAgentContext('s', 't'), {} as never)).rejects.toEqual(field('store'));
    // Content JSON cannot hold is the canonicaliser's UNSUPPORTED_VALUE.
    const ctx = createAgentContext('s', 't');
    ctx.retrieval.artifacts.push({ ...base, content: { n: 10n } });
    await expect(externalizeArtifacts(ctx, store)).rejects.toMatchObject({ code: 'UNSUPPORTED_VALUE' });
  });

  it('loadArtifactContent names artifact, artifact.ref, artifact.id and store; a store returning no bytes is STORAGE_FAILURE', async () => {
    const store = createMemoryStore();
    await expect(loadArtifactContent(null as never, store)).rejects.toEqual(field('artifact'));
    await expect(loadArtifactContent({ ...base, ref: 5 } as never, store)).rejects.toEqual(field('artifact.ref'));
    const key = await store.putArtifact(artifactBytes('hello'));
    const ref = { sha256: key, size: artifactBytes('hello').length };
    await expect(loadArtifactContent({ ...base, id: Symbol('id'), ref } as never, store)).rejects.toEqual(field('artifact.id'));
    await expect(loadArtifactContent({ ...base, ref }, {} as never)).rejects.toEqual(field('store'));
    const odd = { putArtifact: store.putArtifact, getArtifact: async () => 'hello' } as unknown as ArtifactStore;
    await expect(loadArtifactContent({ ...base, ref }, odd)).rejects.toMatchObject({ code: 'STORAGE_FAILURE' });
    // Inline content needs no store.
    expect(await loadArtifactContent({ ...base, content: 1 }, undefined as never)).toBe(1);
    expect(await loadArtifactContent({ ...base, ref }, store)).toBe('hello');
  });

  it('resolveArtifacts names context and store; a context that cannot be copied is INVALID_PARAMS', async () => {
    const store = createMemoryStore();
    await expect(resolveArtifacts('x' as never, store)).rejects.toEqual(field('context'));
    await expect(resolveArtifacts(createAgentContext('s', 't'), null as never)).rejects.toEqual(field('store'));
    const ctx = createAgentContext('s', 't') as unknown as Record<string, Record<string, unknown>>;
    ctx.llm!.cache = { hook: () => 1 };
    const error = await resolveArtifacts(ctx as never, store).catch((e: unknown) => e);
    expect(error).toEqual(field('context'));
    expect((error as Error).cause).toMatchObject({ name: 'DataCloneError' });
  });
});
