// The golden views are checked by the shared layers contract (test/contract/layers.contract.ts),
// which runs here and in Chromium, Deno and workerd. This file keeps the human-readable copies in
// ./golden/*.txt honest: each must equal the text in ./golden.json that the runtimes check.
import { describe, expect, it } from 'vitest';
import golden from './golden.json' with { type: 'json' };

const copies = import.meta.glob<string>('./golden/*.txt', { query: '?raw', import: 'default', eager: true });

describe('golden/*.txt', () => {
  it('has one copy per golden case, equal to golden.json', () => {
    const cases = golden.cases as Record<string, { text: string }>;
    const byName = Object.fromEntries(Object.entries(copies).map(([path, text]) => [path.slice('./golden/'.length, -'.txt'.length), text]));
    expect(Object.keys(byName).sort()).toEqual(Object.keys(cases).sort());
    for (const [name, c] of Object.entries(cases)) expect([name, byName[name]]).toEqual([name, c.text]);
  });
});
