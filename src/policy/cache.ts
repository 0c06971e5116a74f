/**
 * Runtime caches of spec 000 §8. Time-based entries expire after a TTL (market prices 5 min,
 * activity 10 min); configuration-like values are revalidated by a version or ETag instead of a
 * file's mtime, which browsers and edge runtimes do not have. Both take an injectable clock.
 */
import { described, expectFunction, expectObject } from '../args.ts';
import { expectInteger, expectOptionalFunction } from './checks.ts';
import { invalidParams } from '../errors.ts';
import { readClock, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';

/** Options of {@link TtlCache}. */
export interface TtlCacheOptions {
  /** Lifetime of an entry in milliseconds; `Infinity` keeps entries until reset ("until reimport"). */
  ttlMs: number;
  /** Most entries kept; the least recently written is evicted first (default 1,000). */
  maxEntries?: number;
  /** Clock for expiry. */
  clock?: Clock;
}

/**
 * A key/value cache whose entries expire `ttlMs` after they were written. A `clock` that is not a
 * function is INVALID_PARAMS when the cache is built; one that returns anything but a finite number
 * is INVALID_PARAMS naming `options.clock` at the call that reads it.
 */
export class TtlCache<K, V> {
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #clock: Clock;
  readonly #entries = new Map<K, { value: V; expires: number }>();
  readonly #loading = new Map<K, Promise<V>>();
  /** Keys whose `load` is being called right now (its synchronous part). */
  readonly #calling = new Set<K>();

  constructor(options: TtlCacheOptions) {
    expectObject(options, 'options');
    if (typeof options.ttlMs !== 'number' || !(options.ttlMs > 0)) {
      throw invalidParams('ttlMs', `must be a positive number of milliseconds (or Infinity); got ${described(options.ttlMs)}`);
    }
    const max = options.maxEntries ?? 1000;
    expectInteger(max, 'maxEntries', 1);
    expectOptionalFunction(options.clock, 'options.clock');
    this.#ttlMs = options.ttlMs;
    this.#maxEntries = max;
    const clock = options.clock ?? systemClock;
    this.#clock = () => readClock(clock, 'options.clock');
  }

  /** The live value for `key`, or undefined when absent or expired (expired entries are dropped). */
  get(key: K): V | undefined {
    const e = this.#entries.get(key);
    if (e === undefined) return undefined;
    if (this.#clock() >= e.expires) {
      this.#entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** True when `key` has a live value. */
  has(key: K): boolean {
    const e = this.#entries.get(key);
    if (e === undefined) return false;
    if (this.#clock() < e.expires) return true;
    this.#entries.delete(key);
    return false;
  }

  /** Stores `value` for `ttlMs` from now. */
  set(key: K, value: V): void {
    // Read before touching the map: a refused clock leaves the old entry in place.
    const expires = this.#clock() + this.#ttlMs;
    this.#entries.delete(key);
    this.#entries.set(key, { value, expires });
    while (this.#entries.size > this.#maxEntries) this.#entries.delete(this.#entries.keys().next().value as K);
  }

  /**
   * Removes one entry. A load of `key` still running finishes for its callers but stores nothing
   * (as after `reset()`), so what was deleted does not come back; the next `getOrLoad` starts a
   * new load.
   */
  delete(key: K): boolean {
    this.#loading.delete(key);
    return this.#entries.delete(key);
  }

  /**
   * The live value for `key`, or the result of `load` (stored). Concurrent calls for the same key
   * share one load; a failed load is not cached, and neither is one that was running when
   * `reset()` was called (its callers still get its value). A `load` that calls `getOrLoad` for its
   * own key (before its first `await`) is refused with INVALID_PARAMS naming `load`: it would wait
   * for itself forever.
   */
  async getOrLoad(key: K, load: (key: K) => Promise<V> | V): Promise<V> {
    expectFunction(load, 'load');
    if (this.#calling.has(key)) throw reentrantLoad('load', 'getOrLoad() for the key it is loading');
    const live = this.#entries.get(key);
    if (live !== undefined && this.#clock() < live.expires) return live.value;
    const pending = this.#loading.get(key);
    if (pending) return pending;
    // Assigned before the body passes its first `await`, where the only read of it is.
    let p!: Promise<V>;
    p = (async () => {
      let loading: Promise<V> | V;
      this.#calling.add(key);
      try {
        loading = load(key);
      } finally {
        this.#calling.delete(key);
      }
      const v = await loading;
      // Still the key's registered load: neither reset() nor delete(key) has run since it began
      // (both unregister it), and no newer load took its place.
      if (this.#loading.get(key) === p) this.set(key, v);
      return v;
    })();
    this.#loading.set(key, p);
    // Unregistered once settled, before the callers resume (this reaction is the first). Not in
    // the function's own `finally`: a `load` that throws at once would settle it before `set`, and
    // its rejection would stay registered. After a reset, the key's pending load may be a newer
    // one, which later callers must share.
    p.finally(() => {
      if (this.#loading.get(key) === p) this.#loading.delete(key);
    }).catch(() => {});
    return p;
  }

  /** Number of stored entries, expired ones included until they are next read. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Empties the cache (the spec's `reset_*_cache()`). Loads still running finish for their callers
   * but store nothing; the next `getOrLoad` of their keys starts a new load.
   */
  reset(): void {
    // Unregistering the running loads is what keeps them out of the emptied cache (see getOrLoad):
    // they may have read the data the reset was meant to drop.
    this.#entries.clear();
    this.#loading.clear();
  }
}

/** Options of {@link VersionedCache}. */
export interface VersionedCacheOptions<V> {
  /**
   * The current version of the source: an ETag, a content hash, a schema version, an import id.
   * Cheap compared with `load`; called on access (at most every `checkIntervalMs`).
   */
  version: () => Promise<string> | string;
  /** Loads the value for a version. */
  load: (version: string) => Promise<V> | V;
  /** Skip version checks for this long after one (default 0: check on every access). */
  checkIntervalMs?: number;
  /** Clock for `checkIntervalMs`. */
  clock?: Clock;
}

/**
 * A single value revalidated by version instead of mtime (spec 000 §8's "mtime-based" caches,
 * for runtimes without a file system): `get()` asks for the current version and reloads only when
 * it changed. Concurrent `get` calls share one check and one load.
 */
export class VersionedCache<V> {
  readonly #options: VersionedCacheOptions<V>;
  readonly #clock: Clock;
  #current: { version: string; value: V; checkedAt: number } | undefined;
  #inflight: Promise<V> | undefined;
  #loads = 0;
  /** `options.version` or `options.load` while it is being called (its synchronous part). */
  #calling: string | undefined;
  /** Bumped by `reset()`: a refresh started before it stores nothing (it may have read dropped data). */
  #generation = 0;

  constructor(options: VersionedCacheOptions<V>) {
    expectObject(options, 'options');
    expectFunction(options.version, 'options.version');
    expectFunction(options.load, 'options.load');
    const interval = options.checkIntervalMs ?? 0;
    if (typeof interval !== 'number' || !(interval >= 0)) throw invalidParams('checkIntervalMs', `must be zero or a positive number; got ${described(interval)}`);
    expectOptionalFunction(options.clock, 'options.clock');
    this.#options = options;
    const clock = options.clock ?? systemClock;
    this.#clock = () => readClock(clock, 'options.clock');
  }

  /**
   * The value for the source's current version. A `version` or `load` that calls `get()` of this
   * cache (before its first `await`) is refused with INVALID_PARAMS naming it: the refresh would
   * wait for itself forever.
   */
  async get(): Promise<V> {
    if (this.#calling !== undefined) throw reentrantLoad(this.#calling, 'get() of its own cache');
    const cur = this.#current;
    if (cur && this.#clock() - cur.checkedAt < (this.#options.checkIntervalMs ?? 0)) return cur.value;
    if (this.#inflight === undefined) {
      const p: Promise<V> = this.#refresh(this.#generation).finally(() => {
        // After a reset, the refresh in flight may be a newer one, which later calls must share.
        if (this.#inflight === p) this.#inflight = undefined;
      });
      this.#inflight = p;
    }
    return this.#inflight;
  }

  async #refresh(generation: number): Promise<V> {
    const version = await this.#call('options.version', () => this.#options.version());
    const now = this.#clock();
    const cur = this.#current;
    if (cur && cur.version === version) {
      if (generation === this.#generation) cur.checkedAt = now;
      return cur.value;
    }
    const value = await this.#call('options.load', () => this.#options.load(version));
    this.#loads++;
    if (generation === this.#generation) this.#current = { version, value, checkedAt: now };
    return value;
  }

  #call<R>(field: string, f: () => R): R {
    this.#calling = field;
    try {
      return f();
    } finally {
      this.#calling = undefined;
    }
  }

  /** Version of the cached value, if any. */
  get version(): string | undefined {
    return this.#current?.version;
  }

  /** How many times `load` ran (for tests and metrics). */
  get loads(): number {
    return this.#loads;
  }

  /**
   * Forgets the value; the next `get` reloads. A refresh still running finishes for its callers but
   * stores nothing.
   */
  reset(): void {
    this.#generation++;
    this.#current = undefined;
    this.#inflight = undefined;
  }
}

/** INVALID_PARAMS: a loader called back into the cache it is filling, which would never settle. */
function reentrantLoad(field: string, what: string): Error {
  return invalidParams(field, `called ${what}; a load cannot wait for its own result. Load the value without going through this cache.`);
}
