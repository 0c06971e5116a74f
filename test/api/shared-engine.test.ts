// The shared engine behind the package-level functions: options it was not started with are
// refused rather than ignored, and closing it lets the next call start a new one.
import { afterEach, describe, expect, it } from 'vitest';
import { init, isCtxgateError, sha256Hex, shutdown } from '../../src/index.ts';
import { rejection } from '../fixtures/thrown.ts';
import { SHA256_ABC as ABC } from '../fixtures/known-answers.ts';


afterEach(async () => {
  await shutdown();
});

describe('the shared engine', () => {
  it('init with other options than the running engine is INVALID_PARAMS; the same ones, or none, return it', async () => {
    const engine = await init({ worker: false });
    const error = await rejection(init({ wasm: new Uint8Array([0, 97, 115, 109]) }));
    expect(isCtxgateError(error, 'INVALID_PARAMS')).toBe(true);
    expect((error as Error).message).toMatch(/call shutdown\(\) first .* createCtxgate\(options\)/);
    expect(await init()).toBe(engine);
    expect(await init({ worker: false })).toBe(engine);
    expect(await init({ transferInputs: false })).toBe(engine);
    expect(isCtxgateError(await rejection(init({ transferInputs: true })), 'INVALID_PARAMS')).toBe(true);
    // The refused call changed nothing.
    expect(await sha256Hex('abc')).toBe(ABC);
  });

  it('closing the shared engine lets the next package-level call start a new one (it failed with WORKER_CLOSED until shutdown())', async () => {
    const first = await init();
    await first.close();
    expect(await sha256Hex('abc')).toBe(ABC);
    const second = await init();
    expect(second).not.toBe(first);
  });
});
