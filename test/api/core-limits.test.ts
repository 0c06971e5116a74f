// The core's limits on one call, and a default .wasm that cannot be read: typed errors that say
// what to do, never a trap, a hang or a raw ENOENT.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createCtxgate, isCtxgateError, loadCore, serializeError } from '../../src/index.ts';
import { MAX_INPUT_BYTES, getCore } from '../../src/core/core.ts';
import { rejection } from '../fixtures/thrown.ts';
import { FAKE_AWS_KEY_ID, FAKE_GITHUB_TOKEN } from '../fixtures/project.ts';

describe('core input limits', () => {
  it('an input over 512 MiB is INVALID_PARAMS naming the limit and how to split it, and the core keeps working', async () => {
    await using cg = await createCtxgate({ worker: false });
    // Zero-filled and never written: the pages are not touched.
    const big = new Uint8Array(MAX_INPUT_BYTES + 1);
    const error = await rejection(cg.crc32(big));
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
    const error = await rejection(initCore());
    expect(isCtxgateError(error, 'WASM_LOAD_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/could not be read \(Error: ENOENT: no such file.*Deno: --allow-read/);
    expect(((error as Error).cause as { code?: string }).code).toBe('ENOENT');
    fail = false;
    const core = await initCore();
    expect(core.memoryBytes).toBeGreaterThan(0);
  });
});

describe('a core URL that fails to load', () => {
  it("is WASM_LOAD_FAILED naming the file without the URL's query, fragment or user info, where signed URLs carry credentials", async () => {
    const { createServer } = await import('node:http');
    const server = createServer((_req, res) => res.writeHead(403).end('denied'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const key = FAKE_AWS_KEY_ID;
    const token = FAKE_GITHUB_TOKEN;
    try {
      const signed = `http://127.0.0.1:${port}/assets/ctxgate.wasm?X-Amz-Credential=${key}%2F20261125&X-Amz-Signature=abc#${token}`;
      const forbidden = await rejection(loadCore(signed));
      expect(isCtxgateError(forbidden, 'WASM_LOAD_FAILED')).toBe(true);
      expect((forbidden as { details: unknown }).details).toEqual({ status: 403, url: `http://127.0.0.1:${port}/assets/ctxgate.wasm (query, fragment and user info left out)` });
      const refused = await rejection(loadCore(new URL(`http://user:${token}@127.0.0.1:1/ctxgate.wasm?access_token=${token}`)));
      expect(isCtxgateError(refused, 'WASM_LOAD_FAILED')).toBe(true);
      expect((refused as { details: unknown }).details).toEqual({ source: 'http://127.0.0.1:1/ctxgate.wasm (query, fragment and user info left out)' });
      for (const error of [forbidden, refused]) {
        const text = JSON.stringify(serializeError(error));
        expect(text).not.toContain(key);
        expect(text).not.toContain(token);
      }
      // A plain URL is shown whole.
      const plain = await rejection(loadCore(`http://127.0.0.1:${port}/ctxgate.wasm`));
      expect((plain as { details: unknown }).details).toEqual({ status: 403, url: `http://127.0.0.1:${port}/ctxgate.wasm` });
    } finally {
      server.close();
    }
  });
});
