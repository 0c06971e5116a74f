// The methods of the objects the root exports create (stores, trackers, caches, the engine, …),
// called with arguments of the wrong kind: each returns or fails with a CtxgateError, never a
// TypeError from inside. A fresh instance per call, so one bad call cannot excuse the next.
import { afterAll, describe, expect, it } from 'vitest';
import * as api from '../../src/index.ts';
import type { Engine } from '../../src/index.ts';
import { coreMethods } from '../../src/worker/protocol.ts';
import { CALLS, outcome } from './wrong-kinds.ts';

let engine: Engine;
/** Makers of every kind of object with methods that the root exports hand out. */
const FACTORIES: Record<string, () => object> = {
  memoryStore: () => api.createMemoryStore(),
  engine: () => engine,
  pathGate: () => api.createPathGate(),
  ContextValidator: () => new api.ContextValidator(),
  AuditTrail: () => new api.AuditTrail(),
  DiffTracker: () => new api.DiffTracker(api.createAgentContext('s1', 't1')),
  ContextSizeChecker: () => new api.ContextSizeChecker(),
  MigrationRegistry: () => new api.MigrationRegistry(),
  SessionBudget: () => new api.SessionBudget(),
  TtlCache: () => new api.TtlCache({ ttlMs: 1000 }),
  VersionedCache: () => new api.VersionedCache({ version: () => 'v1', load: (v: string) => v }),
  sha256Hasher: () => api.createSha256Sync(),
  // A token counter is a function: called here as the one method of a holder.
  estimator: () => ({ count: api.estimator() }),
  modelRegistry: () => api.modelRegistry([]),
  budgetLog: () => api.jsonlBudgetLog({ write() {} }),
};
/** Methods that end the shared engine the other calls use. */
const NOT_CALLED = new Set(['engine.close']);

function methodNames(instance: object): string[] {
  const names = new Set<string>();
  for (let o: object | null = instance; o !== null && o !== Object.prototype && o !== Function.prototype; o = Object.getPrototypeOf(o) as object | null) {
    for (const k of Object.getOwnPropertyNames(o)) {
      if (k !== 'constructor' && typeof (instance as Record<string, unknown>)[k] === 'function') names.add(k);
    }
  }
  return [...names].sort();
}

// The core is loaded before the tests are collected: the method lists are read from instances,
// and some (the hasher, the estimator) need the core to exist.
engine = await api.init();
afterAll(async () => {
  api.resetAllSingletons();
  await api.shutdown();
});

describe('bad input to the methods of every object the root exports create', () => {
  for (const [kind, make] of Object.entries(FACTORIES)) {
    describe(kind, () => {
      it('has methods (a guard against a factory that stopped working)', () => {
        expect(methodNames(make()).length).toBeGreaterThan(0);
      });
      // The method list is read from a probe instance when the tests are collected; the engine's
      // from its protocol, since it exists only after init.
      const names = kind === 'engine' ? [...coreMethods].sort() : methodNames(make());
      for (const name of names) {
        if (NOT_CALLED.has(`${kind}.${name}`)) continue;
        it(`${kind}.${name}`, async () => {
          const untyped: string[] = [];
          for (const [label, args] of CALLS) {
            const instance = make() as Record<string, (...a: unknown[]) => unknown>;
            const error = await outcome(() => instance[name]!(...args));
            api.resetAllSingletons();
            if (error === undefined || api.isCtxgateError(error)) continue;
            untyped.push(`${kind}.${name}${label}: ${(error as Error)?.constructor?.name}: ${String((error as Error)?.message).split('\n')[0]}`);
          }
          expect(untyped).toEqual([]);
        });
      }
    });
  }
});
