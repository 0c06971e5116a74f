// The core's limits on one call, and a default .wasm that cannot be read: typed errors that say
// what to do, never a trap, a hang or a raw ENOENT.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCtxgate, isCtxgateError, loadCore } from '../../src/index.ts';
import { MAX_INPUT_BYTES, getCore } from '../../src/core/core.ts';

describe('core input limits', () => {
  it('an input over 512 MiB is INVALID_PARAMS naming the limit and how to split it, and the core keeps working', async () => {
    await using cg = await createCtxgate({ worker: false });
    // Zero-filled and never written: the pages are not touched.
    const big = new Uint8Array(MAX_INPUT_BYTES + 1);
    const error = await cg.crc32(big).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isCtxgateError(error, 'INVALID_PARAMS')).toBe(true);
    expect((error as Error).message).toMatch(/takes at most 536,870,912 bytes .* Split it into parts: crc32 takes a seed/);
    expect((error as { details: unknown }).details).toEqual({ field: 'input', bytes: MAX_INPUT_BYTES + 1, maxBytes: MAX_INPUT_BYTES });
    expect(await cg.crc32('123456789')).toBe(0xcbf43926);
  });

  it('the window is refused before the core is asked for it', async () => {
    await loadCore();
    const core = getCore();
    expect(() => core.reserve(MAX_INPUT_BYTES + 1)).toThrow(/in one call/);
    // 2^31 + 1 bytes wrapped the core's doubling to 0 and looped for ever; the host refuses it.
    expect(() => core.reserve(2 ** 31 + 1)).toThrow(/2,147,483,649 bytes/);
    expect(core.reserve(16)).toBeGreaterThan(0);
  });
});

describe('a default .wasm that cannot be read', () => {
  afterEach(() => {
    vi.doUnmock('#wasm-source');
    vi.resetModules();
  });

  it('is WASM_LOAD_FAILED with the cause and what to check, not a raw ENOENT; a later load may succeed', async () => {
    vi.resetModules();
    let fail = true;
    vi.doMock('#wasm-source', async () => {
      const real = await vi.importActual<typeof import('../../src/core/source.node.ts')>('../../src/core/source.node.ts');
      return {
        loadDefaultModule: () => (fail ? Promise.reject(Object.assign(new Error("ENOENT: no such file or directory, open 'ctxgate.wasm'"), { code: 'ENOENT' })) : real.loadDefaultModule()),
      };
    });
    const { initCore, resetCore } = await import('../../src/core/core.ts');
    resetCore();
    const error = await initCore().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isCtxgateError(error, 'WASM_LOAD_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/could not be read \(Error: ENOENT: no such file.*Deno: --allow-read/);
    expect(((error as Error).cause as { code?: string }).code).toBe('ENOENT');
    fail = false;
    const core = await initCore();
    expect(core.memoryBytes).toBeGreaterThan(0);
  });
});
