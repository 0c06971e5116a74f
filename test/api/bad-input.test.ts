// Every function the package root exports, called with arguments of the wrong kind, either returns
// or fails with a CtxgateError (a stable code, a message naming the argument); none fails with a
// TypeError from inside it. New exports are covered as soon as they are added.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as api from '../../src/index.ts';
import { CALLS, outcome } from './wrong-kinds.ts';

/** Functions left out, each for a reason. */
const NOT_CALLED: Record<string, string> = {
  init: 'loads the core; takes no data',
  loadCore: 'loads the core; its bad-source errors are tested in test/contract/core.contract.ts',
  shutdown: 'ends the engine the other calls use',
  resetAllSingletons: 'takes no arguments; called after every function here',
};

const functions = Object.entries(api)
  .filter(([name, v]) => typeof v === 'function' && !/^[A-Z]/.test(name) && !(name in NOT_CALLED))
  .sort(([a], [b]) => (a < b ? -1 : 1)) as [string, (...args: unknown[]) => unknown][];

beforeAll(async () => {
  await api.init();
});
afterAll(async () => {
  api.resetAllSingletons();
  await api.shutdown();
});

describe('bad input to every public function', () => {
  it('covers the exports (a guard against an empty list)', () => {
    expect(functions.length).toBeGreaterThan(120);
  });

  for (const [name, fn] of functions) {
    it(name, async () => {
      const untyped: string[] = [];
      for (const [label, args] of CALLS) {
        const error = await outcome(() => fn(...args));
        api.resetAllSingletons();
        if (error === undefined) continue;
        if (api.isCtxgateError(error)) {
          expect(error.code, `${name}${label}`).toMatch(/^[A-Z_]+$/);
          continue;
        }
        untyped.push(`${name}${label}: ${(error as Error)?.constructor?.name}: ${String((error as Error)?.message).split('\n')[0]}`);
      }
      expect(untyped).toEqual([]);
    });
  }
});
