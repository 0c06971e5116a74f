import { expectMethods, expectOptionalString } from '../../args.ts';
import { CtxgateError, isCtxgateError } from '../../errors.ts';
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
  corruptRecord,
  deleteOptions,
  importedRecord,
  openRecord,
  saveOptions,
  sealRecord,
  storedVersion,
  throwIfAborted,
  versionConflict,
} from '../record.ts';
import { chunkRecord, isArtifactHead, isChunkedHead, joinChunks, splitChunks, unchunkRecord, type ArtifactHead, type ChunkedHead } from './chunked.ts';

// Minimal local typing of a Durable Object's `state.storage`: only what this backend calls, so
// no workers types package is needed and the real `DurableObjectStorage` is assignable to it.

/** The operations available on storage and inside a storage transaction. */
export interface DurableObjectStorageOps {
  /** Reads one key. */
  get(key: string): Promise<unknown>;
  /** Writes one key. */
  put(key: string, value: unknown): Promise<void>;
  /** Deletes one key. */
  delete(key: string): Promise<boolean>;
  /** Lists keys under a prefix, sorted. */
  list(options: { prefix: string }): Promise<Map<string, unknown>>;
}
/** The subset of `DurableObjectStorage` this backend uses. */
export interface DurableObjectStorageLike extends DurableObjectStorageOps {
  /** Runs `closure` as one transaction; it is rolled back if the closure throws. */
  transaction<T>(closure: (txn: DurableObjectStorageOps) => Promise<T>): Promise<T>;
}

/** Bytes per chunk: under the 128 KiB value limit of KV-backed Durable Objects. */
const CHUNK_SIZE = 120_000;

/** Options of {@link createDurableObjectStore}. */
export interface DurableObjectStoreOptions {
  /** Key prefix for everything this store writes; default `ctxgate:`. */
  prefix?: string;
  /** Migrations applied to records of older context schema versions on load. */
  migrations?: MigrationRegistry;
  /** Size limits every save enforces (ContextSizeError); missing ones take the spec's defaults (10 MB total, 2 MB per namespace, …). */
  limits?: Partial<ContextLimits>;
}

function storageFailure(operation: string, error: unknown): unknown {
  if (isCtxgateError(error)) return error;
  return new CtxgateError('STORAGE_FAILURE', `${operation} failed in Durable Object storage; retry, and check the object's storage limits if it persists`, {
    details: { operation },
    cause: error,
  });
}

class DurableObjectContextStore implements ContextStore {
  private readonly prefix: string;

  private readonly rules: SealRules;

  constructor(
    private readonly storage: DurableObjectStorageLike,
    private readonly options: Omit<DurableObjectStoreOptions, 'limits'> & { limits: Readonly<ContextLimits> },
  ) {
    this.prefix = options.prefix ?? 'ctxgate:';
    this.rules = { limits: options.limits, migrations: options.migrations };
  }

  private headKey(id: string): string {
    return `${this.prefix}ctx:${id}`;
  }

  private chunkKey(id: string, gen: string, i: number): string {
    return `${this.prefix}ctxchunk:${gen}:${i}:${id}`;
  }

  private async run<T>(operation: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (signal?.aborted && error === signal.reason) throw error;
      throw storageFailure(operation, error);
    }
  }

  private async readRecord(ops: DurableObjectStorageOps, id: string): Promise<StoredRecord | undefined> {
    const head = await ops.get(this.headKey(id));
    if (head === undefined) return undefined;
    if (!isChunkedHead(head)) throw corruptRecord(id, 'malformed record head');
    const parts: unknown[] = [];
    for (let i = 0; i < head.chunks; i++) parts.push(await ops.get(this.chunkKey(id, head.gen, i)));
    const joined = joinChunks(parts, head.bytes);
    if (joined === undefined) throw corruptRecord(id, 'missing or damaged chunk');
    const record = unchunkRecord(head, joined);
    if (record === undefined) throw corruptRecord(id, 'context text is not UTF-8');
    return record;
  }

  private async writeRecord(ops: DurableObjectStorageOps, record: StoredRecord, oldHead: ChunkedHead | undefined): Promise<void> {
    const { head, parts } = chunkRecord(record, CHUNK_SIZE);
    for (const [i, part] of parts.entries()) await ops.put(this.chunkKey(record.id, head.gen, i), part);
    await ops.put(this.headKey(record.id), head);
    if (oldHead !== undefined) for (let i = 0; i < oldHead.chunks; i++) await ops.delete(this.chunkKey(record.id, oldHead.gen, i));
  }

  async load(id: string): Promise<LoadedContext | undefined> {
    assertContextId(id);
    // In a transaction so the head and its chunks are read from one consistent state.
    const raw = await this.run('load', () => this.storage.transaction((txn) => this.readRecord(txn, id)));
    return raw === undefined ? undefined : openRecord(raw, id, this.options.migrations);
  }

  async save(id: string, context: AgentContext, options: SaveOptions): Promise<{ version: number }> {
    assertContextId(id);
    const { expectedVersion: expected, signal } = saveOptions(options);
    const record = await sealRecord(id, expected + 1, context, this.rules);
    return this.run(
      'save',
      () =>
        this.storage.transaction(async (txn) => {
          const current = await txn.get(this.headKey(id));
          const oldHead = isChunkedHead(current) ? current : undefined;
          // A malformed head, or one restored by importRecord with a negative version, counts as
          // 0: otherwise no save could ever replace it (expectedVersion cannot be negative).
          const actual = storedVersion(oldHead);
          if (actual !== expected) throw versionConflict(id, expected, actual);
          await this.writeRecord(txn, record, oldHead);
          // Throwing inside the transaction rolls back everything written above.
          throwIfAborted(signal);
          return { version: record.version };
        }),
      signal,
    );
  }

  async delete(id: string, options?: DeleteOptions): Promise<boolean> {
    assertContextId(id);
    const expectedVersion = deleteOptions(options);
    return this.run('delete', () =>
      this.storage.transaction(async (txn) => {
        const current = await txn.get(this.headKey(id));
        const head = isChunkedHead(current) ? current : undefined;
        const actual = storedVersion(head);
        if (expectedVersion !== undefined && actual !== expectedVersion) throw versionConflict(id, expectedVersion, actual);
        if (current === undefined) return false;
        await txn.delete(this.headKey(id));
        if (head !== undefined) for (let i = 0; i < head.chunks; i++) await txn.delete(this.chunkKey(id, head.gen, i));
        return true;
      }),
    );
  }

  async list(): Promise<string[]> {
    return this.run('list', async () => {
      const prefix = `${this.prefix}ctx:`;
      const entries = await this.storage.list({ prefix });
      return [...entries.keys()].map((k) => k.slice(prefix.length)).sort();
    });
  }

  async exportRecord(id: string): Promise<StoredRecord | undefined> {
    assertContextId(id);
    return this.run('exportRecord', () => this.storage.transaction((txn) => this.readRecord(txn, id)));
  }

  async importRecord(record: StoredRecord): Promise<void> {
    // Checked and copied before anything is read or written, as in every backend: a value storage
    // cannot clone (a function as the version) is INVALID_PARAMS here, not a DataCloneError from
    // put, whose message quotes the value, wrapped in STORAGE_FAILURE.
    const checked = cloneImportedRecord(importedRecord(record));
    await this.run('importRecord', () =>
      this.storage.transaction(async (txn) => {
        const current = await txn.get(this.headKey(checked.id));
        await this.writeRecord(txn, checked, isChunkedHead(current) ? current : undefined);
      }),
    );
  }

  async putArtifact(data: Uint8Array): Promise<string> {
    const key = await artifactKey(data);
    await this.run('putArtifact', () =>
      this.storage.transaction(async (txn) => {
        const headKey = `${this.prefix}art:${key}`;
        if (isArtifactHead(await txn.get(headKey))) return;
        const parts = splitChunks(data, CHUNK_SIZE);
        for (const [i, part] of parts.entries()) await txn.put(`${this.prefix}artchunk:${key}:${i}`, part);
        await txn.put(headKey, { chunks: parts.length, bytes: data.length } satisfies ArtifactHead);
      }),
    );
    return key;
  }

  async getArtifact(key: string): Promise<Uint8Array | undefined> {
    assertArtifactKey(key);
    const data = await this.run('getArtifact', () =>
      this.storage.transaction(async (txn) => {
        const head = await txn.get(`${this.prefix}art:${key}`);
        if (head === undefined) return undefined;
        const damaged = new CtxgateError('CORRUPT_RECORD', `artifact ${key} is damaged (missing chunks); store it again`, {
          details: { key, reason: 'missing chunk' },
        });
        if (!isArtifactHead(head)) throw damaged;
        const parts: unknown[] = [];
        for (let i = 0; i < head.chunks; i++) parts.push(await txn.get(`${this.prefix}artchunk:${key}:${i}`));
        const joined = joinChunks(parts, head.bytes);
        if (joined === undefined) throw damaged;
        return joined;
      }),
    );
    return data === undefined ? undefined : verifyArtifact(key, data);
  }

  async close(): Promise<void> {}
}

/**
 * A {@link ContextStore} in a Durable Object's `state.storage`. Each save reads the version,
 * writes the chunks and switches the head inside one `storage.transaction`, so a conflict or an
 * abort rolls everything back and the previous version stays intact.
 *
 * INVALID_PARAMS, before anything is read or written, unless `storage` has the `transaction` and
 * `list` methods of a `DurableObjectStorage` (`storage`), and `options` is an object or undefined
 * (`options`) whose `prefix`, if given, is a string (`options.prefix`), whose `migrations`, if
 * given, is a MigrationRegistry (`options.migrations`) and whose `limits`, if given, is an object of
 * positive integers (`options.limits…`). Every save enforces the limits (ContextSizeError, nothing
 * written); missing ones take the spec's defaults.
 */
export function createDurableObjectStore(storage: DurableObjectStorageLike, options: DurableObjectStoreOptions = {}): ContextStore {
  // The methods the store calls on the handle itself (get, put and delete go through the
  // transaction's). Passing the object's `state` or a Workers KVNamespace instead of
  // `state.storage` is refused here rather than failing at the first load as STORAGE_FAILURE.
  expectMethods(storage, 'storage', ['transaction', 'list'], 'a DurableObjectStorage (state.storage)');
  const migrations = storeMigrations(options);
  const limits = storeLimits(options);
  // An object or undefined: storeMigrations checked it.
  const prefix: unknown = (options as Record<string, unknown> | undefined)?.prefix;
  expectOptionalString(prefix, 'options.prefix');
  return new DurableObjectContextStore(storage, { prefix, migrations, limits });
}
