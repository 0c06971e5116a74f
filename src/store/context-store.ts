import type { AgentContext } from './model.ts';
import type { StoredRecord } from './record.ts';

/**
 * Content-addressed storage of artifact bytes: the key is the lowercase hex SHA-256 of the bytes,
 * so equal content is stored once and a reference proves what it points to.
 */
export interface ArtifactStore {
  /** Stores bytes and returns their key (lowercase hex SHA-256). Idempotent. INVALID_PARAMS (`data`) unless `data` is a Uint8Array. */
  putArtifact(data: Uint8Array): Promise<string>;
  /** The bytes stored under `key`, or undefined. Throws CORRUPT_RECORD if they no longer hash to `key`. */
  getArtifact(key: string): Promise<Uint8Array | undefined>;
}

/** A context as loaded from a store, with the version to pass back as `expectedVersion`. */
export interface LoadedContext {
  /** The context, migrated to the current schema version and validated. */
  context: AgentContext;
  /** Store version of the record: 1 after the first save, +1 per save. */
  version: number;
}

/** Options of {@link ContextStore.save}. */
export interface SaveOptions {
  /**
   * The version this write is based on: the `version` from `load`, or 0 to create a record that
   * must not exist yet. A different stored version means someone else saved first: ConflictError.
   */
  expectedVersion: number;
  /** Aborts the save; the stored record keeps its previous version. */
  signal?: AbortSignal;
}

/** Options of {@link ContextStore.delete}. */
export interface DeleteOptions {
  /** If given, delete only if the stored version is this one, else ConflictError. */
  expectedVersion?: number;
}

/**
 * Persistence of agent contexts and their artifacts, with one backend per runtime (memory,
 * IndexedDB, Deno KV, Durable Object). Every save is atomic and version-checked: a concurrent
 * writer gets ConflictError instead of overwriting, and a failed or aborted save leaves the
 * previous version intact. Every record carries a checksum; a damaged one is reported with
 * CORRUPT_RECORD instead of being loaded.
 */
export interface ContextStore extends ArtifactStore {
  /** The context stored under `id` and its version, or undefined if there is none. */
  load(id: string): Promise<LoadedContext | undefined>;
  /**
   * Saves `context` under `id` if the stored version is `expectedVersion`; returns the new version.
   * INVALID_PARAMS unless `options` is an object (`options`) with a store version as
   * `expectedVersion` (`options.expectedVersion`) and an AbortSignal or nothing as `signal`
   * (`options.signal`), checked before anything is read or written. A stored record whose version
   * is not a store version (a damaged one restored by importRecord) counts as version 0. An
   * aborted save rejects with the signal's reason, as `fetch` does.
   *
   * The context is refused, before anything is read or written, if the store could not hold it or
   * load it back: INVALID_PARAMS naming the first invalid field; INVALID_PARAMS (`context.version`)
   * for a schema version that is neither the current one nor one the store's migrations lead from;
   * ContextSizeError (CONTEXT_SIZE) if it breaks a size limit of the store's (its `limits` option;
   * by default the spec's: 10 MB in all, 2 MB a namespace, 1,000 items an array).
   */
  save(id: string, context: AgentContext, options: SaveOptions): Promise<{ version: number }>;
  /**
   * Deletes the context under `id`; false if there was none. INVALID_PARAMS unless `options` is an
   * object or undefined (`options`) and its `expectedVersion`, if given, a store version
   * (`options.expectedVersion`), checked before anything is read or deleted.
   */
  delete(id: string, options?: DeleteOptions): Promise<boolean>;
  /** Ids of all stored contexts, sorted. */
  list(): Promise<string[]>;
  /**
   * The raw stored record, for backup and for copying between backends. Not verified; `load`
   * verifies.
   */
  exportRecord(id: string): Promise<StoredRecord | undefined>;
  /**
   * Writes a raw record verbatim (restore from backup), replacing whatever is stored under its id
   * without a version check. Its checksum is verified when it is loaded. INVALID_PARAMS, with
   * nothing written, unless `record` is an object (`record`) with a context id as `id`
   * (`record.id`) and strings as `context` and `checksum` (`record.context`, `record.checksum`),
   * or if it holds a value that cannot be stored (a function: `record`).
   */
  importRecord(record: StoredRecord): Promise<void>;
  /** Releases the backend (closes the database). */
  close(): Promise<void>;
}
