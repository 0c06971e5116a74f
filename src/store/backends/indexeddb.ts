import type { DBSchema, IDBPDatabase } from 'idb';
import { openDB } from 'idb';
import { expectFunction, expectOptionalString } from '../../args.ts';
import { CtxgateError } from '../../errors.ts';
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
import { mapIdbError } from '../../idb-error.ts';

/**
 * IndexedDB schema version written by this release. Each step of {@link upgradeSchema} is kept so
 * a database at any older version upgrades in order.
 */
export const IDB_SCHEMA_VERSION = 2;

/** Default database name. */
export const IDB_DEFAULT_NAME = 'ctxgate';

/** The database layout, typed for idb. */
interface CtxgateDbSchema extends DBSchema {
  /** Sealed context records by id. */
  contexts: { key: string; value: StoredRecord };
  /** Artifact bytes by SHA-256 key. */
  artifacts: { key: string; value: Uint8Array };
}

/** Facts passed to {@link IndexedDbStoreOptions.onBlocked}. */
export interface IdbBlockedInfo {
  /** Version of the connection holding the database open. */
  currentVersion: number;
  /** Version this store is waiting to open. */
  requestedVersion: number | null;
}

/** Options of {@link createIndexedDbStore}. */
export interface IndexedDbStoreOptions {
  /** Database name; default `ctxgate`. */
  name?: string;
  /** Migrations applied to records of older context schema versions on load. */
  migrations?: MigrationRegistry;
  /** Size limits every save enforces (ContextSizeError); missing ones take the spec's defaults (10 MB total, 2 MB per namespace, …). */
  limits?: Partial<ContextLimits>;
  /**
   * Called when this store's schema upgrade waits for another tab (or worker) that still has the
   * database open at an older version. The upgrade proceeds once that connection closes; tell the
   * user to close or reload the other tab.
   */
  onBlocked?: (info: IdbBlockedInfo) => void;
  /**
   * Called after this store closed its connection because another tab wants to upgrade the
   * schema. The next operation reopens the database; if the other tab installed a newer schema it
   * fails with STORAGE_FAILURE, and this page should be reloaded.
   */
  onVersionChange?: () => void;
}

/** Applies each schema step from `oldVersion` on. */
function upgradeSchema(db: IDBPDatabase<CtxgateDbSchema>, oldVersion: number): void {
  if (oldVersion < 1) db.createObjectStore('contexts', { keyPath: 'id' });
  if (oldVersion < 2) db.createObjectStore('artifacts');
}

/** What to do when the browser's quota is exhausted, for the store's QUOTA_EXCEEDED. */
const FREE_SPACE = 'Free space (delete old contexts or artifacts) or request persistent storage';

class IndexedDbContextStore implements ContextStore {
  private dbPromise: Promise<IDBPDatabase<CtxgateDbSchema>> | undefined;
  private readonly name: string;
  private readonly rules: SealRules;

  constructor(private readonly options: IndexedDbStoreOptions & { limits: Readonly<ContextLimits> }) {
    this.name = options.name ?? IDB_DEFAULT_NAME;
    this.rules = { limits: options.limits, migrations: options.migrations };
  }

  private db(): Promise<IDBPDatabase<CtxgateDbSchema>> {
    if (this.dbPromise === undefined) {
      const opening = openDB<CtxgateDbSchema>(this.name, IDB_SCHEMA_VERSION, {
        upgrade: (db, oldVersion) => upgradeSchema(db, oldVersion),
        blocked: (currentVersion, requestedVersion) => this.options.onBlocked?.({ currentVersion, requestedVersion }),
        blocking: () => {
          // Another connection wants a newer schema; holding ours open would stall it forever.
          void opening.then((db) => db.close());
          this.dbPromise = undefined;
          this.options.onVersionChange?.();
        },
        terminated: () => {
          this.dbPromise = undefined;
        },
      });
      this.dbPromise = opening;
      opening.catch(() => {
        if (this.dbPromise === opening) this.dbPromise = undefined;
      });
    }
    return this.dbPromise;
  }

  private async run<T>(operation: string, fn: (db: IDBPDatabase<CtxgateDbSchema>) => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await fn(await this.db());
    } catch (error) {
      // An abort the caller asked for keeps its own reason, as fetch and other web APIs do.
      if (signal?.aborted && error === signal.reason) throw error;
      throw mapIdbError(error, operation, FREE_SPACE);
    }
  }

  async load(id: string): Promise<LoadedContext | undefined> {
    assertContextId(id);
    const raw = await this.run('load', (db) => db.get('contexts', id));
    return raw === undefined ? undefined : openRecord(raw, id, this.options.migrations);
  }

  async save(id: string, context: AgentContext, options: SaveOptions): Promise<{ version: number }> {
    assertContextId(id);
    const { expectedVersion, signal } = saveOptions(options);
    // Hash before the transaction: an IndexedDB transaction commits as soon as it has no pending
    // request, so no other await may happen inside it.
    const record = await sealRecord(id, expectedVersion + 1, context, this.rules);
    return this.run('save', async (db) => {
      const tx = db.transaction('contexts', 'readwrite');
      try {
        // A damaged version (NaN, negative, fractional: restored by importRecord) counts as 0, as
        // in every other backend, so a save at 0 can replace the record instead of conflicting
        // with a version no caller can ever pass.
        const actual = storedVersion(await tx.store.get(id));
        if (actual !== expectedVersion) throw versionConflict(id, expectedVersion, actual);
        await tx.store.put(record);
        throwIfAborted(signal);
        await tx.done;
      } catch (error) {
        abortQuietly(tx);
        await tx.done.catch(() => undefined);
        throw error;
      }
      return { version: record.version };
    }, signal);
  }

  async delete(id: string, options?: DeleteOptions): Promise<boolean> {
    assertContextId(id);
    const expectedVersion = deleteOptions(options);
    return this.run('delete', async (db) => {
      const tx = db.transaction('contexts', 'readwrite');
      try {
        const current = await tx.store.get(id);
        const actual = storedVersion(current);
        if (expectedVersion !== undefined && actual !== expectedVersion) throw versionConflict(id, expectedVersion, actual);
        if (current !== undefined) await tx.store.delete(id);
        await tx.done;
        return current !== undefined;
      } catch (error) {
        abortQuietly(tx);
        await tx.done.catch(() => undefined);
        throw error;
      }
    });
  }

  async list(): Promise<string[]> {
    const keys = await this.run('list', (db) => db.getAllKeys('contexts'));
    return keys.map(String).sort();
  }

  async exportRecord(id: string): Promise<StoredRecord | undefined> {
    assertContextId(id);
    return this.run('exportRecord', (db) => db.get('contexts', id));
  }

  async importRecord(record: StoredRecord): Promise<void> {
    // Checked and copied before the database is touched: what cannot be a record is INVALID_PARAMS
    // with nothing written, and a value IndexedDB cannot clone (a function) is refused here rather
    // than as a DataCloneError, whose message quotes the value.
    const checked = cloneImportedRecord(importedRecord(record));
    await this.run('importRecord', async (db) => {
      await db.put('contexts', checked);
    });
  }

  async putArtifact(data: Uint8Array): Promise<string> {
    const key = await artifactKey(data);
    await this.run('putArtifact', async (db) => {
      const tx = db.transaction('artifacts', 'readwrite');
      try {
        if ((await tx.store.getKey(key)) === undefined) await tx.store.put(data.slice(), key);
        await tx.done;
      } catch (error) {
        abortQuietly(tx);
        await tx.done.catch(() => undefined);
        throw error;
      }
    });
    return key;
  }

  async getArtifact(key: string): Promise<Uint8Array | undefined> {
    assertArtifactKey(key);
    const data = await this.run('getArtifact', (db) => db.get('artifacts', key));
    if (data === undefined) return undefined;
    if (!(data instanceof Uint8Array)) {
      throw new CtxgateError('CORRUPT_RECORD', `artifact ${key} is damaged (not bytes); store it again`, { details: { key, reason: 'malformed' } });
    }
    return verifyArtifact(key, data);
  }

  async close(): Promise<void> {
    const pending = this.dbPromise;
    this.dbPromise = undefined;
    if (pending !== undefined) (await pending.catch(() => undefined))?.close();
  }
}

/** Aborts a transaction that may already be finished; finishing is what we wanted anyway. */
function abortQuietly(tx: { abort(): void }): void {
  try {
    tx.abort();
  } catch {
    // Already committed or aborted.
  }
}

/**
 * The checked options of an IndexedDB store, each read once: INVALID_PARAMS unless `options` is an
 * object or undefined (`options`), its `name`, if given, a string (`options.name`), its
 * `migrations` a MigrationRegistry (`options.migrations`), its `limits` an object of positive
 * integers (`options.limits…`, merged over the defaults) and its callbacks functions
 * (`options.onBlocked`, `options.onVersionChange`).
 */
function indexedDbOptions(options: unknown): IndexedDbStoreOptions & { limits: Readonly<ContextLimits> } {
  const migrations = storeMigrations(options);
  const limits = storeLimits(options);
  // An object or undefined: storeMigrations checked it.
  const { name, onBlocked, onVersionChange } = (options as Record<string, unknown> | undefined) ?? {};
  expectOptionalString(name, 'options.name');
  // Checked now: a wrong callback would otherwise throw inside idb's event handler, long after
  // this call, where the caller cannot catch it.
  if (onBlocked !== undefined) expectFunction(onBlocked, 'options.onBlocked');
  if (onVersionChange !== undefined) expectFunction(onVersionChange, 'options.onVersionChange');
  return {
    name,
    migrations,
    limits,
    onBlocked: onBlocked as IndexedDbStoreOptions['onBlocked'],
    onVersionChange: onVersionChange as IndexedDbStoreOptions['onVersionChange'],
  };
}

/**
 * A {@link ContextStore} in IndexedDB (browsers and browser workers). Each save runs the version
 * check and the write in one readwrite transaction, so a conflict, an abort or a quota error
 * leaves the previous version intact. The database opens lazily on first use. INVALID_PARAMS,
 * before the database is opened, unless `options` is an object or undefined (`options`) whose
 * `name`, if given, is a string (`options.name`), `migrations` a MigrationRegistry
 * (`options.migrations`), `limits` an object of positive integers (`options.limits…`) and
 * `onBlocked` and `onVersionChange` functions
 * (`options.onBlocked`, `options.onVersionChange`).
 */
export function createIndexedDbStore(options: IndexedDbStoreOptions = {}): ContextStore {
  return new IndexedDbContextStore(indexedDbOptions(options));
}
