import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../../src/store/backends/memory.ts';
import { MigrationRegistry } from '../../src/store/migrations.ts';
import { recordChecksum } from '../../src/store/record.ts';
import { storeContract } from './contract.ts';

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
});
