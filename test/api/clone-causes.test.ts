// A value structured clone refuses (a function inside data) is reported as a typed error. The
// DataCloneError stays its cause, but never its message: that quotes the value it refused (a
// function's source, which may hold a secret), and serializeError sends causes along.
import { describe, expect, it } from 'vitest';
import {
  CONTEXT_SCHEMA_VERSION,
  DiffTracker,
  MigrationRegistry,
  createAgentContext,
  createMemoryStore,
  defineLimits,
  migrateContext,
  resolveArtifacts,
  serializeError,
} from '../../src/index.ts';

// Assembled at run time, as every secret-shaped fixture is.
const SECRET = 'sk_live_' + 'Zq8mK2vX9pL4nR7tY1wE3sD6';
// Its source holds the secret, as a closure written in the caller's code would.
const leaky = new Function(`return '${SECRET}';`) as () => string;

async function thrown(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('errors for values structured clone refuses', () => {
  it('keep a DataCloneError cause without the value it quoted', async () => {
    // The platform's own message quotes the function: that is what must not travel.
    expect(() => structuredClone({ leaky })).toThrow(SECRET);

    const registry = new MigrationRegistry().register('0.9.0', CONTEXT_SCHEMA_VERSION, (d) => d);
    const ctx = createAgentContext('s', 't') as unknown as Record<string, Record<string, unknown>>;
    ctx.llm!.cache = { hook: leaky };
    class Holder {
      f = leaky;
    }
    const withInstance = createAgentContext('s', 't') as unknown as Record<string, Record<string, unknown>>;
    withInstance.reasoning!.holder = new Holder();

    const errors = [
      await thrown(() => migrateContext({ version: '0.9.0', hook: leaky }, CONTEXT_SCHEMA_VERSION, registry)),
      await thrown(() => resolveArtifacts(ctx as never, createMemoryStore())),
      await thrown(() => new DiffTracker(withInstance as never)),
      await thrown(() => defineLimits({ hook: leaky })),
    ];
    expect(errors.map((e) => [(e as { code?: string }).code, (e.cause as Error | undefined)?.name])).toEqual([
      ['INVALID_PARAMS', 'DataCloneError'],
      ['INVALID_PARAMS', 'DataCloneError'],
      ['UNSUPPORTED_VALUE', 'DataCloneError'],
      ['UNSUPPORTED_VALUE', 'DataCloneError'],
    ]);
    for (const e of errors) expect(JSON.stringify(serializeError(e))).not.toContain(SECRET);
  });
});
