import { expectArray, expectMethods, expectOptionalString, wrongItem } from '../../args.ts';
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

// Minimal local typing of the Deno KV API: only what this backend calls, so no Deno types package
// is needed and a real `Deno.Kv` is assignable to it.

/** One part of a Deno KV key. */
export type KvKeyPart = string | number | bigint | boolean | symbol | Uint8Array;
/** A Deno KV key. */
export type KvKey = readonly KvKeyPart[];
/** An entry as returned by `Deno.Kv.get`; `value` and `versionstamp` are null when absent. */
export interface KvEntryMaybeLike {
  /** The key. */
  key: KvKey;
  /** The value, or null. */
  value: unknown;
  /** The versionstamp, or null. */
  versionstamp: string | null;
}
/** The subset of `Deno.AtomicOperation` this backend uses. */
export interface DenoKvAtomicLike {
  /** Fails the commit unless each key is still at the given versionstamp (null: absent). */
  check(...checks: { key: KvKey; versionstamp: string | null }[]): DenoKvAtomicLike;
  /** Sets a key. */
  set(key: KvKey, value: unknown): DenoKvAtomicLike;
  /** Deletes a key. */
  delete(key: KvKey): DenoKvAtomicLike;
  /** Commits; `ok: false` when a check failed. */
  commit(): Promise<{ ok: true; versionstamp: string } | { ok: false }>;
}
/** The subset of `Deno.Kv` this backend uses. */
export interface DenoKvLike {
  /** Reads one key. */
  get(key: KvKey): Promise<KvEntryMaybeLike>;
  /** Lists the entries under a prefix. */
  list(selector: { prefix: KvKey }): AsyncIterable<{ key: KvKey; value: unknown; versionstamp: string }>;
  /** Starts an atomic operation. */
  atomic(): DenoKvAtomicLike;
  /** Closes the database. */
  close(): void;
}

/** Bytes per chunk: under Deno KV's 64 KiB value limit with room for serialisation overhead. */
const CHUNK_SIZE = 60_000;
/** Chunks per atomic write: keeps each commit well under Deno KV's 800 KiB mutation limit. */
const CHUNKS_PER_COMMIT = 8;
/** Loads retried when a concurrent save swapped the head under the reader. */
const LOAD_ATTEMPTS = 3;

/** Attempts of one KV call that fails because another connection holds the database's write lock. */
const BUSY_ATTEMPTS = 12;

/**
 * True for the error a file-backed Deno KV throws while another connection (another process,
 * or another `Deno.openKv` of the same file) holds SQLite's write lock. Nothing was applied, so
 * the call can be repeated as it was; atomic checks keep a repeated commit correct.
 */
function isBusy(error: unknown): boolean {
  return error instanceof Error && /database (table )?is locked|SQLITE_BUSY/i.test(error.message);
}

/** Runs `call`, repeating it with jittered backoff while the database is locked by another writer. */
async function retryBusy<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (!isBusy(error) || attempt >= BUSY_ATTEMPTS) throw error;
      const base = Math.min(2 ** attempt, 64);
      await new Promise((resolve) => setTimeout(resolve, base / 2 + Math.random() * base));
    }
  }
}

/** An atomic operation that is rebuilt and committed again while the database is locked. */
class RetryingAtomic implements DenoKvAtomicLike {
  private readonly steps: ((op: DenoKvAtomicLike) => DenoKvAtomicLike)[] = [];

  constructor(private readonly kv: DenoKvLike) {}

  check(...checks: { key: KvKey; versionstamp: string | null }[]): DenoKvAtomicLike {
    this.steps.push((op) => op.check(...checks));
    return this;
  }

  set(key: KvKey, value: unknown): DenoKvAtomicLike {
    this.steps.push((op) => op.set(key, value));
    return this;
  }

  delete(key: KvKey): DenoKvAtomicLike {
    this.steps.push((op) => op.delete(key));
    return this;
  }

  commit(): Promise<{ ok: true; versionstamp: string } | { ok: false }> {
    return retryBusy(() => this.steps.reduce((op, step) => step(op), this.kv.atomic()).commit());
  }
}

/**
 * `kv` with reads and commits retried while another connection holds the write lock. Found in
 * real Deno: two handles on one KV file racing to save each got "database is locked", so neither
 * save landed; with the retry one wins and the other gets its ConflictError.
 */
function retryingKv(kv: DenoKvLike): DenoKvLike {
  return {
    get: (key) => retryBusy(() => kv.get(key)),
    list: (selector) => kv.list(selector),
    atomic: () => new RetryingAtomic(kv),
    close: () => kv.close(),
  };
}

/** Options of {@link createDenoKvStore} and {@link openDenoKvStore}. */
export interface DenoKvStoreOptions {
  /** Key prefix for everything this store writes; default `['ctxgate']`. */
  prefix?: KvKey;
  /** Migrations applied to records of older context schema versions on load. */
  migrations?: MigrationRegistry;
  /** Size limits every save enforces (ContextSizeError); missing ones take the spec's defaults (10 MB total, 2 MB per namespace, …). */
  limits?: Partial<ContextLimits>;
}

/** The options of a Deno KV store once checked: the limits merged over the defaults. */
type CheckedDenoKvOptions = Omit<DenoKvStoreOptions, 'limits'> & { limits: Readonly<ContextLimits> };

/** The methods of a Deno KV handle this backend calls (`close` only on a database it opened itself). */
const KV_METHODS = ['get', 'list', 'atomic'] as const;

/** True for a value Deno KV accepts as one part of a key. */
function isKvKeyPart(part: unknown): part is KvKeyPart {
  const kind = typeof part;
  return kind === 'string' || kind === 'number' || kind === 'bigint' || kind === 'boolean' || kind === 'symbol' || part instanceof Uint8Array;
}

/**
 * The checked options of a Deno KV store, each read once: INVALID_PARAMS unless `options` is an
 * object or undefined (`options`), its `migrations`, if given, a MigrationRegistry
 * (`options.migrations`), its `limits`, if given, an object of positive integers
 * (`options.limits…`, merged over the defaults) and its `prefix`, if given, an array of key parts
 * (`options.prefix`). The prefix array is copied, so a caller adding or replacing parts later
 * cannot move the store's keys (a Uint8Array part itself is not copied).
 */
function denoKvOptions(options: unknown): CheckedDenoKvOptions {
  const checked: CheckedDenoKvOptions = { migrations: storeMigrations(options), limits: storeLimits(options) };
  // An object or undefined: storeMigrations checked it.
  const prefix: unknown = (options as Record<string, unknown> | undefined)?.prefix;
  if (prefix !== undefined) {
    expectArray(prefix, 'options.prefix');
    // An index loop, not forEach: a hole in a sparse array is refused too, not skipped.
    const parts = prefix.slice();
    for (let i = 0; i < parts.length; i++) {
      if (!isKvKeyPart(parts[i])) throw wrongItem('options.prefix', i, 'a Deno KV key part (a string, number, bigint, boolean, symbol or Uint8Array)', parts[i]);
    }
    checked.prefix = parts as KvKeyPart[];
  }
  return checked;
}

function storageFailure(operation: string, error: unknown): unknown {
  if (isCtxgateError(error)) return error;
  return new CtxgateError('STORAGE_FAILURE', `${operation} failed in Deno KV; retry, and check the KV database and its permissions if it persists`, {
    details: { operation },
    cause: error,
  });
}

class DenoKvContextStore implements ContextStore {
  private readonly prefix: KvKey;

  private readonly kv: DenoKvLike;

  private readonly rules: SealRules;

  constructor(
    kv: DenoKvLike,
    private readonly options: CheckedDenoKvOptions,
    private readonly ownsKv: boolean,
  ) {
    this.kv = retryingKv(kv);
    this.prefix = options.prefix ?? ['ctxgate'];
    this.rules = { limits: options.limits, migrations: options.migrations };
  }

  private headKey(id: string): KvKey {
    return [...this.prefix, 'ctx', id];
  }

  private chunkKey(id: string, gen: string, i: number): KvKey {
    return [...this.prefix, 'ctxchunk', id, gen, i];
  }

  private async run<T>(operation: string, fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (signal?.aborted && error === signal.reason) throw error;
      throw storageFailure(operation, error);
    }
  }

  private async writeChunks(keyOf: (i: number) => KvKey, parts: readonly Uint8Array[]): Promise<void> {
    for (let at = 0; at < parts.length; at += CHUNKS_PER_COMMIT) {
      const op = this.kv.atomic();
      parts.slice(at, at + CHUNKS_PER_COMMIT).forEach((part, j) => op.set(keyOf(at + j), part));
      const result = await op.commit();
      if (!result.ok) throw new Error('chunk write was refused');
    }
  }

  private async deleteChunks(keyOf: (i: number) => KvKey, count: number): Promise<void> {
    for (let at = 0; at < count; at += CHUNKS_PER_COMMIT) {
      const op = this.kv.atomic();
      for (let i = at; i < Math.min(count, at + CHUNKS_PER_COMMIT); i++) op.delete(keyOf(i));
      await op.commit();
    }
  }

  /** Best-effort cleanup: a leftover chunk wastes space but never affects what is loaded. */
  private async dropGeneration(id: string, head: ChunkedHead): Promise<void> {
    try {
      await this.deleteChunks((i) => this.chunkKey(id, head.gen, i), head.chunks);
    } catch {
      // Ignored on purpose; see above.
    }
  }

  /**
   * Writes the chunks of `head`'s generation, then runs `swap`, which points the head at it.
   * Chunks are written in several commits (a few per commit, under Deno KV's mutation limit), so
   * any failure, in a later chunk commit as much as in the swap, drops every chunk of the
   * generation already written: nothing points at them, and they would otherwise stay forever.
   *
   * A swap that fails may still have landed: a remote database can apply a commit and then lose
   * the answer (a timeout, a reset connection). So the head is read again first: if it names this
   * generation, the write happened and succeeds; if it cannot be read, the chunks are kept (space
   * wasted, but never a head pointing at deleted chunks) and the error stands.
   */
  private async writeGeneration(id: string, head: ChunkedHead, parts: readonly Uint8Array[], swap: () => Promise<void>): Promise<void> {
    let written = false;
    try {
      await this.writeChunks((i) => this.chunkKey(id, head.gen, i), parts);
      written = true;
      await swap();
    } catch (error) {
      if (written) {
        const now = await this.headAfterFailure(this.headKey(id));
        if (now === undefined) throw error;
        if (isChunkedHead(now.value) && now.value.gen === head.gen) return;
      }
      await this.dropGeneration(id, head);
      throw error;
    }
  }

  /** The entry at `key` read after a commit failed, or undefined when it cannot be read either. */
  private async headAfterFailure(key: KvKey): Promise<{ value: unknown } | undefined> {
    try {
      return { value: (await this.kv.get(key)).value };
    } catch {
      return undefined;
    }
  }

  /** Reads the head and its chunks; retries when a concurrent save replaced the head meanwhile. */
  private async readRecord(id: string): Promise<StoredRecord | undefined> {
    for (let attempt = 0; attempt < LOAD_ATTEMPTS; attempt++) {
      const entry = await this.kv.get(this.headKey(id));
      if (entry.value === null || entry.value === undefined) return undefined;
      const head = entry.value;
      if (!isChunkedHead(head)) throw corruptRecord(id, 'malformed record head');
      const parts = await Promise.all(Array.from({ length: head.chunks }, (_, i) => this.kv.get(this.chunkKey(id, head.gen, i))));
      const joined = joinChunks(
        parts.map((p) => p.value),
        head.bytes,
      );
      if (joined !== undefined) {
        const record = unchunkRecord(head, joined);
        if (record === undefined) throw corruptRecord(id, 'context text is not UTF-8');
        return record;
      }
      const again = await this.kv.get(this.headKey(id));
      if (again.versionstamp === entry.versionstamp) throw corruptRecord(id, 'missing or damaged chunk');
    }
    throw new CtxgateError('STORAGE_FAILURE', `context "${id}" kept changing while it was being loaded; retry`, {
      details: { operation: 'load', id },
    });
  }

  async load(id: string): Promise<LoadedContext | undefined> {
    assertContextId(id);
    const raw = await this.run('load', () => this.readRecord(id));
    return raw === undefined ? undefined : openRecord(raw, id, this.options.migrations);
  }

  async save(id: string, context: AgentContext, options: SaveOptions): Promise<{ version: number }> {
    assertContextId(id);
    const { expectedVersion: expected, signal } = saveOptions(options);
    const record = await sealRecord(id, expected + 1, context, this.rules);
    return this.run(
      'save',
      async () => {
        const current = await this.kv.get(this.headKey(id));
        const oldHead = isChunkedHead(current.value) ? current.value : undefined;
        // A malformed head, or one restored by importRecord with a negative version, counts as 0:
        // otherwise no save could ever replace it (expectedVersion cannot be negative).
        const actual = storedVersion(oldHead);
        if (actual !== expected) throw versionConflict(id, expected, actual);
        const { head, parts } = chunkRecord(record, CHUNK_SIZE);
        await this.writeGeneration(id, head, parts, async () => {
          throwIfAborted(signal);
          // The version check and the switch to the new generation are one atomic commit.
          const result = await this.kv
            .atomic()
            .check({ key: this.headKey(id), versionstamp: current.versionstamp })
            .set(this.headKey(id), head)
            .commit();
          if (!result.ok) {
            const now = await this.kv.get(this.headKey(id));
            throw versionConflict(id, expected, storedVersion(isChunkedHead(now.value) ? now.value : undefined));
          }
        });
        if (oldHead !== undefined) await this.dropGeneration(id, oldHead);
        return { version: record.version };
      },
      signal,
    );
  }

  async delete(id: string, options?: DeleteOptions): Promise<boolean> {
    assertContextId(id);
    const expectedVersion = deleteOptions(options);
    return this.run('delete', async () => {
      const current = await this.kv.get(this.headKey(id));
      const head = isChunkedHead(current.value) ? current.value : undefined;
      const actual = storedVersion(head);
      if (expectedVersion !== undefined && actual !== expectedVersion) throw versionConflict(id, expectedVersion, actual);
      if (current.value === null) return false;
      let result: { ok: boolean };
      try {
        result = await this.kv.atomic().check({ key: this.headKey(id), versionstamp: current.versionstamp }).delete(this.headKey(id)).commit();
      } catch (error) {
        // The commit may have landed before its answer was lost: a head now absent was deleted
        // (by this call, or by another one just as finally), so its chunks go and the delete stands.
        const now = await this.headAfterFailure(this.headKey(id));
        if (now === undefined || (now.value !== null && now.value !== undefined)) throw error;
        result = { ok: true };
      }
      if (!result.ok) {
        const now = await this.kv.get(this.headKey(id));
        throw versionConflict(id, expectedVersion ?? actual, storedVersion(isChunkedHead(now.value) ? now.value : undefined));
      }
      if (head !== undefined) await this.dropGeneration(id, head);
      return true;
    });
  }

  async list(): Promise<string[]> {
    return this.run('list', async () => {
      const ids: string[] = [];
      const depth = this.prefix.length + 1;
      for await (const entry of this.kv.list({ prefix: [...this.prefix, 'ctx'] })) {
        const id = entry.key[depth];
        if (typeof id === 'string' && entry.key.length === depth + 1) ids.push(id);
      }
      return ids.sort();
    });
  }

  async exportRecord(id: string): Promise<StoredRecord | undefined> {
    assertContextId(id);
    return this.run('exportRecord', () => this.readRecord(id));
  }

  async importRecord(record: StoredRecord): Promise<void> {
    // Checked and copied before anything is read or written, as in every backend: a value KV
    // cannot store (a function as the version) is INVALID_PARAMS here, not a DataCloneError from
    // the commit, whose message quotes the value, wrapped in STORAGE_FAILURE.
    const checked = cloneImportedRecord(importedRecord(record));
    const id = checked.id;
    await this.run('importRecord', async () => {
      const current = await this.kv.get(this.headKey(id));
      const { head, parts } = chunkRecord(checked, CHUNK_SIZE);
      await this.writeGeneration(id, head, parts, async () => {
        const result = await this.kv.atomic().set(this.headKey(id), head).commit();
        // No check in this commit, so a refusal is not a conflict; the chunks are dropped all the same.
        if (!result.ok) throw new Error('head write was refused');
      });
      if (isChunkedHead(current.value)) await this.dropGeneration(id, current.value);
    });
  }

  async putArtifact(data: Uint8Array): Promise<string> {
    const key = await artifactKey(data);
    await this.run('putArtifact', async () => {
      const headKey = [...this.prefix, 'art', key];
      const existing = await this.kv.get(headKey);
      if (isArtifactHead(existing.value)) return;
      const parts = splitChunks(data, CHUNK_SIZE);
      // Content addressing makes racing puts of the same key write identical chunks, so a lost
      // race on the head is harmless. Chunks of a put that fails are left for the same reason: a
      // retry of the same data writes over them, and a racing put of it may need them.
      await this.writeChunks((i) => [...this.prefix, 'artchunk', key, i], parts);
      try {
        const result = await this.kv.atomic().set(headKey, { chunks: parts.length, bytes: data.length } satisfies ArtifactHead).commit();
        if (!result.ok) throw new Error('artifact head write was refused');
      } catch (error) {
        // Landed before its answer was lost, or written by a racing put: stored either way.
        if (isArtifactHead((await this.headAfterFailure(headKey))?.value)) return;
        throw error;
      }
    });
    return key;
  }

  async getArtifact(key: string): Promise<Uint8Array | undefined> {
    assertArtifactKey(key);
    const data = await this.run('getArtifact', async () => {
      const head = (await this.kv.get([...this.prefix, 'art', key])).value;
      if (head === null || head === undefined) return undefined;
      const damaged = new CtxgateError('CORRUPT_RECORD', `artifact ${key} is damaged (missing chunks); store it again`, {
        details: { key, reason: 'missing chunk' },
      });
      if (!isArtifactHead(head)) throw damaged;
      const parts = await Promise.all(Array.from({ length: head.chunks }, (_, i) => this.kv.get([...this.prefix, 'artchunk', key, i])));
      const joined = joinChunks(
        parts.map((p) => p.value),
        head.bytes,
      );
      if (joined === undefined) throw damaged;
      return joined;
    });
    return data === undefined ? undefined : verifyArtifact(key, data);
  }

  async close(): Promise<void> {
    if (this.ownsKv) this.kv.close();
  }
}

/**
 * A {@link ContextStore} over an open Deno KV database (or anything shaped like one). Each save
 * writes its chunks, then switches the record in one atomic commit that `.check()`s the head's
 * versionstamp, so a concurrent writer gets ConflictError and a failed save leaves the previous
 * version loadable. `close()` leaves a database you passed in open.
 *
 * INVALID_PARAMS, before anything is read or written, unless `kv` has the `get`, `list` and
 * `atomic` methods of a `Deno.Kv` (`kv`), and `options` is an object or undefined (`options`) whose
 * `prefix`, if given, is an array of key parts (`options.prefix`), whose `migrations`, if given,
 * is a MigrationRegistry (`options.migrations`) and whose `limits`, if given, is an object of
 * positive integers (`options.limits…`). Every save enforces the limits (ContextSizeError, nothing
 * written); missing ones take the spec's defaults.
 */
export function createDenoKvStore(kv: DenoKvLike, options: DenoKvStoreOptions = {}): ContextStore {
  // Checked here, not at the first call: a wrong handle (a Deno.KvEntry, a Workers KVNamespace)
  // would otherwise pass and fail later as a TypeError wrapped in STORAGE_FAILURE.
  expectMethods(kv, 'kv', KV_METHODS, 'a Deno.Kv from Deno.openKv()');
  return new DenoKvContextStore(kv, denoKvOptions(options), false);
}

/**
 * Opens Deno KV with `Deno.openKv(path)` and wraps it; `close()` closes it. Deno only. Its options
 * are checked as {@link createDenoKvStore}'s are, and `path`, if given, must be a string
 * (`options.path`): INVALID_PARAMS before the database is opened, so a refusal leaves no handle
 * open.
 */
export async function openDenoKvStore(options: DenoKvStoreOptions & { path?: string } = {}): Promise<ContextStore> {
  const checked = denoKvOptions(options);
  const path: unknown = options?.path;
  expectOptionalString(path, 'options.path');
  const deno = (globalThis as unknown as { Deno?: { openKv?(path?: string): Promise<DenoKvLike> } }).Deno;
  if (deno === undefined || typeof deno.openKv !== 'function') {
    throw new CtxgateError('STORAGE_FAILURE', 'Deno.openKv is not available; run under Deno (with --unstable-kv where required) or use another backend', {
      details: { operation: 'open' },
    });
  }
  const kv = await deno.openKv(path);
  return new DenoKvContextStore(kv, checked, true);
}
