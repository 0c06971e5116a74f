import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CtxgateError } from '../../src/errors.ts';
import { createMemoryStore } from '../../src/store/backends/memory.ts';
import { MigrationRegistry } from '../../src/store/migrations.ts';
import { createAgentContext } from '../../src/store/model.ts';
import { recordChecksum } from '../../src/store/record.ts';
import { rejection, thrown } from '../fixtures/thrown.ts';
import { sampleContext, storeContract } from './contract.ts';

describe('memory store: backend contract', () => {
  storeContract({ it, expect }, async () => createMemoryStore());
});

describe('memory store', () => {
  it('putArtifact hashes bytes in shared memory, which crypto.subtle refuses, from a copy', async () => {
    const store = createMemoryStore();
    const shared = new Uint8Array(new SharedArrayBuffer(3));
    shared.set([97, 98, 99]);
    const key = await store.putArtifact(shared);
    expect(key).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(await store.getArtifact(key)).toEqual(new TextEncoder().encode('abc'));
  });

  it('migrates an old stored record on load with the store migrations', async () => {
    const migrations = new MigrationRegistry().register('0.9.0', '1.0.0', (d) => {
      const audit = d.audit as { runs: Record<string, unknown>[]; diffs: unknown[] };
      return { ...d, audit: { agentRuns: audit.runs.map(({ durationMS, ...r }) => ({ ...r, durationMs: durationMS })), diffs: audit.diffs } };
    });
    const store = createMemoryStore({ migrations });
    const text = readFileSync(new URL('./fixtures/context-0.9.0.json', import.meta.url), 'utf8');
    await store.importRecord({ id: 'old', version: 7, context: text, checksum: await recordChecksum('old', 7, text) });
    const loaded = await store.load('old');
    expect(loaded?.version).toBe(7);
    expect(loaded?.context.version).toBe('1.0.0');
    expect(loaded?.context.audit.agentRuns[0]?.durationMs).toBe(120);
    // Saving writes the migrated form at the next version.
    expect(await store.save('old', loaded!.context, { expectedVersion: 7 })).toEqual({ version: 8 });
    expect(JSON.parse((await store.exportRecord('old'))!.context).version).toBe('1.0.0');
  });

  it('a migration that returns an invalid context is MIGRATION_FAILED naming the step and the field, not CORRUPT_RECORD; the record is intact', async () => {
    const text = readFileSync(new URL('./fixtures/context-0.9.0.json', import.meta.url), 'utf8');
    const record = { id: 'old', version: 7, context: text, checksum: await recordChecksum('old', 7, text) };
    // The step forgets to rename audit.runs to audit.agentRuns.
    const forgetful = new MigrationRegistry().register('0.9.0', '1.0.0', (d) => d);
    const store = createMemoryStore({ migrations: forgetful });
    await store.importRecord(record);
    const error = await rejection(() => store.load('old'));
    expect(error).toBeInstanceOf(CtxgateError);
    expect(error).toMatchObject({
      code: 'MIGRATION_FAILED',
      details: { from: '0.9.0', to: '1.0.0', stepFrom: '0.9.0', stepTo: '1.0.0', field: 'context.audit.runs' },
    });
    expect(error.message).toContain('migration from schema version 0.9.0 to 1.0.0 returned a context that is not valid (context.audit.runs:');
    expect(error.message).toContain('a stored record is intact');
    expect(error.message).not.toContain('damaged');
    expect(error.cause).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'context.audit.runs' } });
    // Nothing was changed: the same record loads once the migration is fixed.
    expect(await store.exportRecord('old')).toEqual(record);
    const fixed = createMemoryStore({
      migrations: new MigrationRegistry().register('0.9.0', '1.0.0', (d) => {
        const audit = d.audit as { runs: Record<string, unknown>[]; diffs: unknown[] };
        return { ...d, audit: { agentRuns: audit.runs.map(({ durationMS, ...r }) => ({ ...r, durationMs: durationMS })), diffs: audit.diffs } };
      }),
    });
    await fixed.importRecord((await store.exportRecord('old'))!);
    expect((await fixed.load('old'))?.context.audit.agentRuns[0]?.durationMs).toBe(120);
  });

  it('of several migration steps, an invalid result names the last one and the whole path', async () => {
    const ctx = { ...sampleContext('chain'), version: '0.8.0' };
    const text = JSON.stringify(ctx);
    const chain = new MigrationRegistry()
      .register('0.8.0', '0.9.0', (d) => d)
      .register('0.9.0', '1.0.0', (d) => ({ ...d, reasoning: { ...(d.reasoning as object), summary: 5 } }));
    const store = createMemoryStore({ migrations: chain });
    await store.importRecord({ id: 'chain', version: 2, context: text, checksum: await recordChecksum('chain', 2, text) });
    const error = await rejection(() => store.load('chain'));
    expect(error).toMatchObject({
      code: 'MIGRATION_FAILED',
      details: { from: '0.8.0', to: '1.0.0', stepFrom: '0.9.0', stepTo: '1.0.0', field: 'context.reasoning.summary' },
    });
    expect(error.message).toContain('migration from schema version 0.9.0 to 1.0.0 (the last step of 0.8.0 to 1.0.0) returned a context that is not valid');
  });

  it('save accepts an older schema version only when the store has a migration path from it', async () => {
    const migrations = new MigrationRegistry().register('0.9.0', '1.0.0', (d) => d);
    const store = createMemoryStore({ migrations });
    // A context in the current shape stamped 0.9.0: the store's migrations lead from there to 1.0.0.
    const old = { ...sampleContext('old'), version: '0.9.0' };
    expect(await store.save('old', old, { expectedVersion: 0 })).toEqual({ version: 1 });
    expect((await store.load('old'))?.context).toEqual({ ...old, version: '1.0.0' });
    // A version with no path from it is refused, naming what to do.
    const error = await rejection(() => store.save('old', { ...old, version: '0.8.0' }, { expectedVersion: 1 }));
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'context.version', expected: '1.0.0' } });
    expect(error.message).toContain('schema version "0.8.0" cannot be loaded back by this store, which reads 1.0.0 and the versions its migrations lead from');
    expect(error.message).toContain('options.migrations');
    expect(error.cause).toMatchObject({ code: 'MIGRATION_FAILED', details: { stuckAt: '0.8.0' } });
    // A long version is described, not quoted.
    const long = await rejection(() => store.save('old', { ...old, version: 'v'.repeat(5000) }, { expectedVersion: 1 }));
    expect(long).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'context.version' } });
    expect(long.message).toContain('schema version of 5000 characters');
    expect(long.message.length).toBeLessThan(400);
    expect((await store.load('old'))?.version).toBe(1);
  });

  it('takes size limits as an option: save refuses with ContextSizeError over them, nothing written', async () => {
    const store = createMemoryStore({ limits: { maxTotalSize: 3000, maxArrayItems: 2 } });
    const ctx = createAgentContext('s', 't', { createdAt: '2026-01-01T00:00:00.000Z' });
    expect(await store.save('a', ctx, { expectedVersion: 0 })).toEqual({ version: 1 });
    const grown = structuredClone(ctx);
    grown.reasoning.summary = 'x'.repeat(3000);
    const error = await rejection(() => store.save('a', grown, { expectedVersion: 1 }));
    expect(error).toBeInstanceOf(CtxgateError);
    expect(error).toMatchObject({
      name: 'ContextSizeError',
      code: 'CONTEXT_SIZE',
      details: { limit: 'maxTotalSize', current: JSON.stringify(grown).length, maximum: 3000 },
    });
    expect(error.message).toContain('the context would be');
    expect(error.message).toContain('externalise artifacts, trim old entries or raise the limit');
    grown.reasoning.summary = '';
    grown.enrichment.contextLinks = ['a', 'b', 'c'];
    await expect(store.save('a', grown, { expectedVersion: 1 })).rejects.toMatchObject({
      code: 'CONTEXT_SIZE',
      details: { limit: 'maxArrayItems', current: 3, maximum: 2, namespace: 'enrichment', key: 'contextLinks' },
    });
    expect(await store.load('a')).toEqual({ context: ctx, version: 1 });
    // Limits above the defaults are the caller's to choose: the 2 MB namespace default no longer applies.
    const roomy = createMemoryStore({ limits: { maxNamespaceSize: 3 * 1024 * 1024 } });
    const wide = structuredClone(ctx);
    wide.reasoning.summary = 'x'.repeat(2 * 1024 * 1024 + 1);
    expect(await roomy.save('a', wide, { expectedVersion: 0 })).toEqual({ version: 1 });
  });

  it('checks options.limits when the store is created', () => {
    const cases: [unknown, string, string][] = [
      [{ limits: 5 }, 'options.limits', 'must be an object (got a number)'],
      [{ limits: null }, 'options.limits', 'must be an object (got null)'],
      [{ limits: { maxTotalSize: 0 } }, 'options.limits.maxTotalSize', 'must be a positive integer'],
      [{ limits: { maxArrayItems: 1.5 } }, 'options.limits.maxArrayItems', 'must be a positive integer'],
      [{ limits: { maxNamespaceSize: '2MB' } }, 'options.limits.maxNamespaceSize', 'must be a positive integer'],
    ];
    for (const [options, field, message] of cases) {
      const error = thrown(() => createMemoryStore(options as never));
      expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field } });
      expect(error.message).toContain(message);
    }
  });
});
