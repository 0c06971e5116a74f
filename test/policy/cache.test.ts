import { afterEach, describe, expect, it } from 'vitest';
import { TtlCache, VersionedCache } from '../../src/policy/cache.ts';
import { defineSingleton, registerSingletonReset, resetAllSingletons, singletonNames } from '../../src/policy/singletons.ts';
import { expectCtxgateError } from './helpers.ts';

afterEach(() => resetAllSingletons());

function manualClock(start = 0) {
  let t = start;
  const clock = () => t;
  return { clock, advance: (ms: number) => (t += ms) };
}

describe('spec 000 §8 runtime caches use TTL', () => {
  it('market prices expire after 5 minutes', () => {
    const c = manualClock();
    const cache = new TtlCache<string, number>({ ttlMs: 5 * 60_000, clock: c.clock });
    cache.set('34', 4.5);
    c.advance(5 * 60_000 - 1);
    expect(cache.get('34')).toBe(4.5);
    c.advance(1);
    expect(cache.get('34')).toBeUndefined();
    expect(cache.has('34')).toBe(false);
  });

  it('getOrLoad shares one load between concurrent callers and does not cache failures', async () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1000 });
    let loads = 0;
    const load = async () => {
      loads++;
      return 7;
    };
    expect(await Promise.all([cache.getOrLoad('k', load), cache.getOrLoad('k', load)])).toEqual([7, 7]);
    expect(loads).toBe(1);
    await expect(cache.getOrLoad('bad', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.getOrLoad('bad', load)).toBe(7);
  });

  it('evicts the oldest entry past maxEntries; reset empties', () => {
    const cache = new TtlCache<number, number>({ ttlMs: Infinity, maxEntries: 2 });
    cache.set(1, 1);
    cache.set(2, 2);
    cache.set(3, 3);
    expect([cache.get(1), cache.get(2), cache.get(3)]).toEqual([undefined, 2, 3]);
    cache.reset();
    expect(cache.size).toBe(0);
  });

  it('rejects a non-positive TTL', () => {
    expect(() => new TtlCache({ ttlMs: 0 })).toThrow(/ttlMs/);
  });
});

describe('spec 000 §8 version/ETag invalidation instead of mtime', () => {
  it('reloads only when the version changes', async () => {
    let etag = '"v1"';
    const cache = new VersionedCache({ version: () => etag, load: async (v) => `rules@${v}` });
    expect(await cache.get()).toBe('rules@"v1"');
    expect(await cache.get()).toBe('rules@"v1"');
    expect(cache.loads).toBe(1);
    etag = '"v2"';
    expect(await cache.get()).toBe('rules@"v2"');
    expect(cache.loads).toBe(2);
    expect(cache.version).toBe('"v2"');
    cache.reset();
    expect(await cache.get()).toBe('rules@"v2"');
    expect(cache.loads).toBe(3);
  });

  it('checkIntervalMs skips version checks for a while', async () => {
    const c = manualClock();
    let checks = 0;
    const cache = new VersionedCache({ version: () => String(++checks), load: (v) => v, checkIntervalMs: 100, clock: c.clock });
    expect(await cache.get()).toBe('1');
    c.advance(99);
    expect(await cache.get()).toBe('1');
    c.advance(1);
    expect(await cache.get()).toBe('2');
  });
});

/** A promise and the functions that settle it, for loads that finish when a test says so. */
function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Lets pending microtasks run (a few turns) until `done()`; fails rather than spinning forever. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 20 && !done(); i++) await Promise.resolve();
  expect(done()).toBe(true);
}

describe('regression: reset() while a load is running', () => {
  it('TtlCache: a load started before reset() gives its callers the value but does not repopulate the cache', async () => {
    const cache = new TtlCache<string, string>({ ttlMs: Infinity });
    const old = deferred<string>();
    const first = cache.getOrLoad('prices', () => old.promise);
    const joined = cache.getOrLoad('prices', () => 'never called');
    cache.reset();
    old.resolve('stale');
    expect(await first).toBe('stale');
    expect(await joined).toBe('stale');
    expect(cache.get('prices')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(await cache.getOrLoad('prices', () => 'fresh')).toBe('fresh');
    expect(cache.get('prices')).toBe('fresh');
  });

  it('TtlCache: the old load finishing does not unregister the load started after reset(), which later callers share', async () => {
    const cache = new TtlCache<string, string>({ ttlMs: Infinity });
    const old = deferred<string>();
    const next = deferred<string>();
    const calls: string[] = [];
    const first = cache.getOrLoad('k', () => (calls.push('old'), old.promise));
    cache.reset();
    const second = cache.getOrLoad('k', () => (calls.push('next'), next.promise));
    old.resolve('stale');
    expect(await first).toBe('stale');
    const third = cache.getOrLoad('k', () => (calls.push('third'), 'third'));
    next.resolve('fresh');
    expect([await second, await third]).toEqual(['fresh', 'fresh']);
    expect(calls).toEqual(['old', 'next']);
    expect(cache.get('k')).toBe('fresh');
  });

  it('TtlCache: delete(key) while its load runs: the callers get the value, the cache stays without it, the next call loads anew', async () => {
    const cache = new TtlCache<string, string>({ ttlMs: Infinity });
    const old = deferred<string>();
    const first = cache.getOrLoad('session', () => old.promise);
    const other = cache.getOrLoad('other', () => 'kept');
    expect(cache.delete('session')).toBe(false);
    old.resolve('revoked');
    expect(await first).toBe('revoked');
    expect(await other).toBe('kept');
    expect(cache.get('session')).toBeUndefined();
    expect(cache.get('other')).toBe('kept');
    expect(await cache.getOrLoad('session', () => 'reissued')).toBe('reissued');
    expect(cache.get('session')).toBe('reissued');
  });

  it('TtlCache: a load that throws at once is not kept as the pending load of its key', async () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1000 });
    await expect(
      cache.getOrLoad('k', () => {
        throw new Error('no connection');
      }),
    ).rejects.toThrow('no connection');
    expect(await cache.getOrLoad('k', () => 7)).toBe(7);
  });

  it('VersionedCache: a refresh started before reset() gives its callers the value but stores nothing', async () => {
    const loads: ReturnType<typeof deferred<string>>[] = [];
    const cache = new VersionedCache({
      version: () => 'v1',
      load: () => {
        const d = deferred<string>();
        loads.push(d);
        return d.promise;
      },
    });
    const first = cache.get();
    await until(() => loads.length === 1);
    cache.reset();
    const second = cache.get();
    loads[0]!.resolve('stale');
    expect(await first).toBe('stale');
    expect(cache.version).toBeUndefined();
    // The first refresh settling must not drop the second from flight: a third get() shares it.
    const third = cache.get();
    await until(() => loads.length === 2);
    loads[1]!.resolve('fresh');
    expect([await second, await third]).toEqual(['fresh', 'fresh']);
    expect(loads).toHaveLength(2);
    expect(cache.loads).toBe(2);
    expect(cache.version).toBe('v1');
    expect(await cache.get()).toBe('fresh');
    expect(cache.loads).toBe(2);
  });
});

describe('spec 000 §9 singleton management', () => {
  it('every singleton has a reset and resetAllSingletons resets them all', () => {
    let created = 0;
    const activity = defineSingleton('test.activityCache', () => {
      created++;
      return new TtlCache<string, number>({ ttlMs: 10 * 60_000 });
    });
    activity.get().set('x', 1);
    expect(activity.created).toBe(true);
    let other = 5;
    registerSingletonReset('test.other', () => (other = 0));
    resetAllSingletons();
    expect(activity.created).toBe(false);
    expect(activity.get().get('x')).toBeUndefined();
    expect(created).toBe(2);
    expect(other).toBe(0);
    expect(singletonNames()).toEqual(expect.arrayContaining(['test.activityCache', 'test.other']));
  });

  it('one failing reset does not stop the others, and its error is rethrown', () => {
    let reset = false;
    registerSingletonReset('test.failing', () => {
      throw new Error('boom');
    });
    registerSingletonReset('test.after', () => (reset = true));
    expect(() => resetAllSingletons()).toThrow('boom');
    expect(reset).toBe(true);
    registerSingletonReset('test.failing', () => {});
  });
});

describe('arguments of the wrong kind', () => {
  it('registerSingletonReset refuses a reset that is not a function and registers nothing, so resetAllSingletons keeps working', () => {
    expectCtxgateError(() => registerSingletonReset('test.bad', 42 as never), 'INVALID_PARAMS', 'reset');
    expectCtxgateError(() => registerSingletonReset(undefined as never, () => {}), 'INVALID_PARAMS', 'name');
    expect(singletonNames()).not.toContain('test.bad');
    expect(() => resetAllSingletons()).not.toThrow();
  });

  it('getOrLoad needs a loader function: INVALID_PARAMS naming load, and nothing cached', async () => {
    const cache = new TtlCache<string, number>({ ttlMs: 1000 });
    await expect(cache.getOrLoad('k', 42 as never)).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'load' } });
    expect(cache.size).toBe(0);
    expect(await cache.getOrLoad('k', () => 7)).toBe(7);
  });

  it('defineSingleton and the cache constructors name what is wrong', () => {
    expectCtxgateError(() => defineSingleton('test.bad2', 'create' as never), 'INVALID_PARAMS', 'create');
    expect(singletonNames()).not.toContain('test.bad2');
    expectCtxgateError(() => new TtlCache(undefined as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => new TtlCache({ ttlMs: Symbol('t') as never }), 'INVALID_PARAMS', 'ttlMs');
    expectCtxgateError(() => new VersionedCache({ load: () => 1 } as never), 'INVALID_PARAMS', 'options.version');
  });
});
