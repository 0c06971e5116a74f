// An incremental SHA-256 keeps its state at an address in the memory of the core instance it
// started on. When this thread's core is replaced before the digest (loadCore(source) from another
// engine, or the reset after a trap in another call), that address means nothing in the new
// instance: the hasher must fail with a typed CORE_FAILURE and never produce a digest (it used to
// return a wrong one, or trap in the new instance and cost it too), and dispose() must never throw
// (it threw NOT_INITIALIZED in the stream path's cleanup and hid the error being handled).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { getCore, initCore, withCore } from '../../src/core/core.ts';
import { createSha256Sync, sha256HexStream, sha256HexSync } from '../../src/core/sha256.ts';
import { CtxgateError } from '../../src/errors.ts';
import { createCtxgate } from '../../src/index.ts';
// Both fail the test when the call returns: a digest produced where none may be.
import { rejection, thrown } from '../fixtures/thrown.ts';
import { SHA256_ABC as ABC } from '../fixtures/known-answers.ts';

const nodeSha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');

let module: WebAssembly.Module;

beforeAll(async () => {
  module = await WebAssembly.compile(readFileSync(new URL('../../src/core/wasm/ctxgate.wasm', import.meta.url)));
});

beforeEach(async () => {
  await initCore();
});

function expectReplaced(error: unknown): void {
  expect(error).toBeInstanceOf(CtxgateError);
  expect((error as CtxgateError).code).toBe('CORE_FAILURE');
  expect((error as CtxgateError).details).toEqual({ reason: 'core-replaced' });
  expect((error as Error).message).toMatch(/replaced while this SHA-256 was in progress/);
  expect((error as Error).message).toMatch(/Hash the input again/);
}

/** Makes withCore see a trap, as a failing call into the core would: the instance is discarded. */
function trapTheCore(): void {
  const error = thrown(() =>
    withCore(() => {
      throw new WebAssembly.RuntimeError('memory access out of bounds (simulated trap)');
    }),
  );
  expect((error as CtxgateError).code).toBe('CORE_FAILURE');
}

const chunks = Array.from({ length: 8 }, (_, i) => new Uint8Array(1000).fill(65 + i));

describe('an incremental SHA-256 whose core is replaced before the digest', () => {
  it('after loadCore(source) fails with CORE_FAILURE instead of a wrong digest', async () => {
    const hasher = createSha256Sync();
    hasher.update('hello ');
    await initCore(module);
    expectReplaced(thrown(() => hasher.update('world')));
    // Never a digest afterwards either, and the error stays the same.
    expectReplaced(thrown(() => hasher.digestHex()));
    expect(() => hasher.dispose()).not.toThrow();
    // The new core works, and a new hasher on it gives the right digest.
    const again = createSha256Sync();
    expect(again.update('hello ').update('world').digestHex()).toBe(nodeSha('hello world'));
  });

  it('after loadCore(source) never touches the new instance (it used to trap there and cost it)', async () => {
    const hasher = createSha256Sync();
    for (let i = 0; i < 4; i++) hasher.update(chunks[i]!);
    const replacement = await initCore(module);
    expectReplaced(thrown(() => hasher.update(chunks[4]!)));
    expect(() => hasher.dispose()).not.toThrow();
    // The replacement is still this thread's core: the stale hasher did not get it reset.
    expect(getCore()).toBe(replacement);
    expect(sha256HexSync('abc')).toBe(ABC);
  });

  it('after a reset from a trap elsewhere fails with CORE_FAILURE, while the fresh core loads and after', async () => {
    const first = createSha256Sync().update(chunks[0]!);
    trapTheCore();
    // The replacement is still loading: the hasher says the core was replaced, not NOT_INITIALIZED.
    expectReplaced(thrown(() => first.update(chunks[1]!)));
    expect(() => first.dispose()).not.toThrow();

    await initCore();
    const second = createSha256Sync().update(chunks[0]!);
    trapTheCore();
    await initCore();
    expectReplaced(thrown(() => second.digestHex()));
    expect(() => second.dispose()).not.toThrow();
  });

  it('dispose() never throws, also while no core is loaded', () => {
    const hasher = createSha256Sync().update('x');
    trapTheCore();
    expect(() => hasher.dispose()).not.toThrow();
    expect(() => hasher.dispose()).not.toThrow();
  });

  it('untouched by a replacement, it still hashes as before', () => {
    const hasher = createSha256Sync();
    for (const c of chunks) hasher.update(c);
    expect(hasher.digestHex()).toBe(nodeSha(Buffer.concat(chunks)));
    expect(() => hasher.dispose()).not.toThrow();
  });
});

describe('stream hashing whose core is replaced mid-stream', () => {
  /** Yields the chunks, running `midway` before the fifth. */
  async function* source(midway: () => Promise<void>): AsyncIterable<Uint8Array> {
    for (let i = 0; i < chunks.length; i++) {
      if (i === 4) await midway();
      yield chunks[i]!;
    }
  }

  /** A ReadableStream that pulls from `chunks`, one chunk per read. */
  function streamOf(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
    const it = chunks[Symbol.asyncIterator]();
    return new ReadableStream<Uint8Array>({
      async pull(controller) {
        const next = await it.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
    });
  }

  it('engine.sha256Hex(stream) rejects with CORE_FAILURE when another engine loads the core from bytes', async () => {
    await using engine = await createCtxgate({ worker: false });
    const error = await rejection(() =>
      engine.sha256Hex(
        streamOf(
          source(async () => {
            await using other = await createCtxgate({ worker: false, wasm: module });
            expect(other.mode).toBe('inline');
          }),
        ),
      ),
    );
    expectReplaced(error);
    // The engine goes on working on the new core.
    expect(await engine.sha256Hex(new Uint8Array(Buffer.concat(chunks)))).toBe(nodeSha(Buffer.concat(chunks)));
  });

  it("a stream's own error is not hidden by the cleanup when the core was reset meanwhile", async () => {
    async function* broken(): AsyncIterable<Uint8Array> {
      yield chunks[0]!;
      trapTheCore(); // another call on this thread trapped: the core is being replaced
      throw new Error('the stream broke');
    }
    const error = await rejection(() => sha256HexStream(broken()));
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe('the stream broke');
  });

  it('sha256HexStream after a reset from a trap elsewhere rejects with CORE_FAILURE, not a digest', async () => {
    const error = await rejection(() =>
      sha256HexStream(
        source(async () => {
          trapTheCore();
          await initCore();
        }),
      ),
    );
    expectReplaced(error);
  });
});
