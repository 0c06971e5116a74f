import { describe, expect, it } from 'vitest';
import { allContracts } from './all.contract.ts';
import { workerCrashContract } from './worker-crash.contract.ts';
import { createCtxgate } from '../../src/index.ts';

const harness = { describe, it, expect, runtime: 'chromium' } as const;
allContracts(harness);
workerCrashContract(harness);

describe('engine options (chromium)', () => {
  it('a URL object as the wasm source reaches the worker (as its href) and loads the core', async () => {
    await using cg = await createCtxgate({ wasm: new URL('../../src/core/wasm/ctxgate.wasm', import.meta.url) });
    expect(cg.mode).toBe('worker');
    expect(await cg.crc32('123456789')).toBe(0xcbf43926);
  });
});
