import { describe, expect, it } from 'vitest';
import { exports } from 'cloudflare:workers';
import { allContracts } from '../contract/all.contract.ts';

const harness = { describe, it, expect, runtime: 'workerd' } as const;
allContracts(harness);

describe('worker entry (workerd)', () => {
  it('a fetch handler runs the core in-thread from the statically imported module', async () => {
    const res = await (exports as { default: { fetch(r: Request): Promise<Response> } }).default.fetch(
      new Request('http://ctxgate.test/?text=123456789'),
    );
    expect(await res.json()).toEqual({ mode: 'inline', crc32: 0xcbf43926 });
  });

  it('has no Web Worker, so nothing may depend on one', () => {
    expect(typeof (globalThis as { Worker?: unknown }).Worker).toBe('undefined');
  });
});
