import { createCtxgate, isCtxgateError } from '../../src/index.ts';
import type { Harness } from './harness.ts';

const settle = (p: Promise<unknown>): Promise<unknown> =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => error,
  );

/**
 * The worker's failure paths, for runtimes that have Web Workers (Chromium, Deno): a worker that
 * cannot load and a worker that dies mid-call both reject with WORKER_CRASHED instead of hanging.
 */
export function workerCrashContract({ describe, it, expect, runtime }: Harness): void {
  describe(`worker failures (${runtime})`, () => {
    it('a worker that fails to load rejects init with WORKER_CRASHED', async () => {
      const worker = new Worker(new URL('../fixtures/broken-worker.ts', import.meta.url), { type: 'module' });
      const error = await settle(createCtxgate({ worker }));
      expect(isCtxgateError(error, 'WORKER_CRASHED')).toBe(true);
      expect((error as Error).message).toMatch(/Create a new instance/);
    });

    it('a worker that dies mid-call rejects the pending call and every later call', async () => {
      const worker = new Worker(new URL('../fixtures/dying-worker.ts', import.meta.url), { type: 'module' });
      const error = await settle(createCtxgate({ worker }));
      expect(isCtxgateError(error, 'WORKER_CRASHED')).toBe(true);
    });

    it('typed errors keep code and details across the worker', async () => {
      await using cg = await createCtxgate();
      expect(cg.mode).toBe('worker');
      const error = await settle(cg.init(new Uint8Array([1, 2, 3])));
      expect(isCtxgateError(error, 'WASM_LOAD_FAILED')).toBe(true);
      expect((error as { details: Record<string, unknown> }).details).toEqual({ source: '3 bytes' });
      // the engine still works after a failed call
      expect(await cg.crc32('123456789')).toBe(0xcbf43926);
    });
  });
}
