// The worker engine and the in-thread engine answer the same bad argument the same way, transfer
// only what a transfer cannot harm, and both reject calls still running when closed.
import { describe, expect, it } from 'vitest';
import { channelWorker } from './channel-worker.ts';
import { CtxgateError, isCtxgateError, serializeError } from '../../src/errors.ts';
import { createWorkerEngine } from '../../src/worker/client.ts';
import { createInlineEngine } from '../../src/worker/inline.ts';
import type { Engine } from '../../src/worker/engine.ts';
import { rejection } from '../fixtures/thrown.ts';
import { detached } from './wrong-kinds.ts';

async function engines(transferInputs = false): Promise<[string, Engine][]> {
  const worker = createWorkerEngine(channelWorker(), { transferInputs });
  const inline = createInlineEngine();
  await worker.init();
  await inline.init();
  return [['worker', worker], ['inline', inline]];
}

describe('the two engines agree', () => {
  it('a detached buffer is INVALID_PARAMS naming the argument in both (the worker said UNSUPPORTED_VALUE)', async () => {
    for (const [mode, engine] of await engines()) {
      for (const [call, field] of [[() => engine.crc32(detached()), 'input'], [() => engine.utf8Check(detached()), 'bytes'], [() => engine.sha256Hex(detached()), 'input']] as const) {
        const error = await rejection(call());
        expect([mode, isCtxgateError(error, 'INVALID_PARAMS'), (error as CtxgateError).details.field]).toEqual([mode, true, field]);
        expect((error as Error).message).toMatch(/is detached/);
      }
      await engine.close();
    }
  });

  it('transferInputs leaves the rest of a buffer a subarray views, and takes a SharedArrayBuffer view without a TypeError', async () => {
    const [worker, inline] = (await engines(true)).map(([, e]) => e) as [Engine, Engine];
    const parent = new Uint8Array(16).map((_, i) => i + 1);
    const part = parent.subarray(4, 8);
    expect(await worker.crc32(part)).toBe(await inline.crc32(parent.slice(4, 8)));
    expect(parent.byteLength).toBe(16);
    expect(parent[15]).toBe(16);
    const shared = new Uint8Array(new SharedArrayBuffer(4));
    shared.set([104, 105, 33, 10]);
    expect(await worker.crc32(shared)).toBe(await inline.crc32(new Uint8Array([104, 105, 33, 10])));
    // A view of a whole ArrayBuffer is still transferred, as the option promises.
    const whole = new Uint8Array([1, 2, 3, 4]);
    await worker.crc32(whole);
    expect(whole.byteLength).toBe(0);
    await worker.close();
    await inline.close();
  });

  it('closing rejects calls still running with WORKER_CLOSED in both', async () => {
    for (const [mode, engine] of await engines()) {
      const running = rejection(engine.sha256Hex('x'.repeat(4_000_000)));
      await engine.close();
      const error = await running;
      expect([mode, isCtxgateError(error, 'WORKER_CLOSED')]).toEqual([mode, true]);
    }
  });
});

describe('serializeError', () => {
  it('serialises an error whose details are a revoked Proxy (it threw a TypeError)', () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const wire = serializeError(new CtxgateError('INVALID_PARAMS', 'bad', { details: proxy as Record<string, unknown> }));
    expect(wire.code).toBe('INVALID_PARAMS');
    expect(wire.details).toEqual({ omitted: 'the details could not be read' });
  });
});
