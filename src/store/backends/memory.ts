import { artifactKey, assertArtifactKey, verifyArtifact } from '../artifacts.ts';
import type { ContextStore, DeleteOptions, LoadedContext, SaveOptions } from '../context-store.ts';
import type { ContextLimits } from '../limits.ts';
import { storeLimits } from '../limits.ts';
import type { MigrationRegistry } from '../migrations.ts';
import type { AgentContext } from '../model.ts';
import type { SealRules, StoredRecord } from '../record.ts';
import { storeMigrations } from '../serialize.ts';
import {
  assertContextId,
  cloneImportedRecord,
  deleteOptions,
  importedRecord,
  openRecord,
  saveOptions,
  sealRecord,
  storedVersion,
  throwIfAborted,
  versionConflict,
} from '../record.ts';

/** Options of {@link createMemoryStore}. */
export interface MemoryStoreOptions {
  /** Migrations applied to records of older schema versions on load. */
  migrations?: MigrationRegistry;
  /** Size limits every save enforces (ContextSizeError); missing ones take the spec's defaults (10 MB total, 2 MB per namespace, …). */
  limits?: Partial<ContextLimits>;
}

/**
 * An in-memory {@link ContextStore} for Node and tests. It keeps the same sealed records as the
 * persistent backends, so checksums, versions and conflicts behave exactly as they do there.
 */
class MemoryContextStore implements ContextStore {
  private readonly records = new Map<string, StoredRecord>();
  private readonly artifacts = new Map<string, Uint8Array>();

  constructor(private readonly options: SealRules) {}

  async load(id: string): Promise<LoadedContext | undefined> {
    assertContextId(id);
    const raw = this.records.get(id);
    return raw === undefined ? undefined : openRecord(structuredClone(raw), id, this.options.migrations);
  }

  async save(id: string, context: AgentContext, options: SaveOptions): Promise<{ version: number }> {
    assertContextId(id);
    const { expectedVersion, signal } = saveOptions(options);
    const record = await sealRecord(id, expectedVersion + 1, context, this.options);
    // Check and write in one synchronous step: no other save can interleave between them.
    const actual = storedVersion(this.records.get(id));
    if (actual !== expectedVersion) throw versionConflict(id, expectedVersion, actual);
    throwIfAborted(signal);
    this.records.set(id, record);
    return { version: record.version };
  }

  async delete(id: string, options?: DeleteOptions): Promise<boolean> {
    assertContextId(id);
    const expectedVersion = deleteOptions(options);
    const actual = storedVersion(this.records.get(id));
    if (expectedVersion !== undefined && actual !== expectedVersion) throw versionConflict(id, expectedVersion, actual);
    return this.records.delete(id);
  }

  async list(): Promise<string[]> {
    return [...this.records.keys()].sort();
  }

  async exportRecord(id: string): Promise<StoredRecord | undefined> {
    assertContextId(id);
    const raw = this.records.get(id);
    return raw === undefined ? undefined : structuredClone(raw);
  }

  async importRecord(record: StoredRecord): Promise<void> {
    const checked = cloneImportedRecord(importedRecord(record));
    this.records.set(checked.id, checked);
  }

  async putArtifact(data: Uint8Array): Promise<string> {
    const key = await artifactKey(data);
    if (!this.artifacts.has(key)) this.artifacts.set(key, data.slice());
    return key;
  }

  async getArtifact(key: string): Promise<Uint8Array | undefined> {
    assertArtifactKey(key);
    const data = this.artifacts.get(key);
    return data === undefined ? undefined : verifyArtifact(key, data.slice());
  }

  async close(): Promise<void> {}
}

/**
 * Creates an empty in-memory {@link ContextStore}. INVALID_PARAMS unless `options` is an object or
 * undefined (`options`) whose `migrations`, if given, is a MigrationRegistry (`options.migrations`)
 * and whose `limits`, if given, is an object of positive integers (`options.limits`,
 * `options.limits.maxTotalSize`, …).
 */
export function createMemoryStore(options: MemoryStoreOptions = {}): ContextStore {
  return new MemoryContextStore({ migrations: storeMigrations(options), limits: storeLimits(options) });
}
