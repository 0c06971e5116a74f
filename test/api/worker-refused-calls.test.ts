// A worker engine call whose argument structured clone refuses fails in postMessage. Comlink
// records the call's pending reply before it posts, and never removed that record when postMessage
// threw: every refused call leaked its record and, through it, its arguments (the heap grew by
// about 2.6 KB a call, for good). These tests count Comlink's pending replies directly: the map it
// keeps them in is the one Map its wrap() makes, captured here while the engine is created.
import { afterEach, describe, expect, it } from 'vitest';
import { channelWorker } from './channel-worker.ts';
import { CtxgateError } from '../../src/errors.ts';
import { createWorkerEngine } from '../../src/worker/client.ts';
import type { Engine } from '../../src/worker/engine.ts';
import { rejection } from '../fixtures/thrown.ts';
import { expectFunctionArgumentRefused } from './wrong-kinds.ts';
import { SHA256_ABC as ABC } from '../fixtures/known-answers.ts';


/** Runs `create` and returns what it made with every Map constructed meanwhile (Comlink's pending replies). */
function withMaps<T>(create: () => T): { made: T; maps: Map<unknown, unknown>[] } {
  const maps: Map<unknown, unknown>[] = [];
  const Original = globalThis.Map;
  class Recorded<K, V> extends Original<K, V> {
    constructor(entries?: readonly (readonly [K, V])[] | null) {
      super(entries);
      maps.push(this as Map<unknown, unknown>);
    }
  }
  globalThis.Map = Recorded as MapConstructor;
  try {
    return { made: create(), maps };
  } finally {
    globalThis.Map = Original;
  }
}

const engines: Engine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
});

/** A worker engine over a channel worker, and a count of Comlink's pending replies. */
async function engineWithPending(): Promise<{ engine: Engine; pending: () => number }> {
  const { made: engine, maps } = withMaps(() => createWorkerEngine(channelWorker()));
  engines.push(engine);
  expect(maps.length).toBeGreaterThan(0);
  const pending = (): number => maps.reduce((n, map) => n + map.size, 0);
  await engine.init();
  // The count is the pending replies: one while a call is in flight, none once it has answered.
  expect(pending()).toBe(0);
  const inFlight = engine.sha256Hex('abc');
  expect(pending()).toBe(1);
  expect(await inFlight).toBe(ABC);
  expect(pending()).toBe(0);
  return { engine, pending };
}

describe('calls the worker engine cannot send', () => {
  it('leave no pending reply behind, however many there are', async () => {
    const { engine, pending } = await engineWithPending();
    const refused = 300;
    for (let i = 0; i < refused; i++) {
      await rejection(engine.fingerprint({ i, handler: () => i }));
      await rejection(engine.scanSecrets(Symbol('not clonable') as unknown as string));
    }
    // Also many at once, as concurrent callers would.
    await Promise.all(Array.from({ length: refused }, (_, i) => rejection(engine.fingerprint({ i, f() {} }))));
    // Settle the microtasks that follow the last refusal.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pending()).toBe(0);
  });

  it('still reject with UNSUPPORTED_VALUE naming the method, and the engine goes on working', async () => {
    const { engine, pending } = await engineWithPending();
    await expectFunctionArgumentRefused(engine);

    // A refused call between two good ones, all in flight at once: each gets its own answer.
    const [before, refusedCall, after] = await Promise.allSettled([
      engine.sha256Hex('abc'),
      engine.crc32((() => 1) as unknown as string),
      engine.crc32('123456789'),
    ]);
    expect(before).toEqual({ status: 'fulfilled', value: ABC });
    expect(refusedCall.status).toBe('rejected');
    expect(((refusedCall as PromiseRejectedResult).reason as CtxgateError).code).toBe('UNSUPPORTED_VALUE');
    expect(((refusedCall as PromiseRejectedResult).reason as CtxgateError).details).toEqual({ method: 'crc32' });
    expect(after).toEqual({ status: 'fulfilled', value: 0xcbf43926 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(pending()).toBe(0);
  });

  it('that the worker refuses (not postMessage) leave none behind either', async () => {
    const { engine, pending } = await engineWithPending();
    for (let i = 0; i < 50; i++) expect(((await rejection(engine.crc32(5 as unknown as string))) as CtxgateError).code).toBe('INVALID_PARAMS');
    expect(pending()).toBe(0);
  });
});
