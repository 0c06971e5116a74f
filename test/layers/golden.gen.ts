// Regenerates test/layers/golden.json (what every runtime must render, byte for byte) and the
// human-readable copies in test/layers/golden/*.txt: `npm run golden`. Not a test; review the diff.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { it } from 'vitest';
import { initCore } from '../../src/core/core.ts';
import { GOLDEN_CASES, SCENARIOS } from './golden-cases.ts';

it('writes the layered-view goldens', async () => {
  await initCore();
  const cases: Record<string, unknown> = {};
  const changed: string[] = [];
  for (const [name, c] of Object.entries(GOLDEN_CASES)) {
    const view = c.build(await SCENARIOS[c.scenario]());
    cases[name] = JSON.parse(JSON.stringify(view));
    const txt = `test/layers/golden/${name}.txt`;
    if (!existsSync(txt) || readFileSync(txt, 'utf8') !== view.text) changed.push(name);
    if (process.env.GOLDEN === '1') writeFileSync(txt, view.text);
  }
  const out = {
    source: 'Golden views of test/layers/golden-cases.ts. Regenerate only when the layers change on purpose (npm run golden), and review the diff.',
    cases,
  };
  if (process.env.GOLDEN === '1') writeFileSync('test/layers/golden.json', JSON.stringify(out, null, 1) + '\n');
  console.log('texts that differ from golden/*.txt:', changed);
});
