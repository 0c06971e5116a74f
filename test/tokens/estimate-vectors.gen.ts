// Regenerates test/tokens/estimate-vectors.json, the estimates ctxgate-est/1 gives for the inputs
// of estimate-vectors.ts: `npm run golden -- test/tokens`. Not a test. The estimator's model is
// frozen (its counts are in golden bundles), so regenerate only when the INPUTS change (a package
// update), from a core whose estimator is known to be unchanged, and review the diff.
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';
import { initCore } from '../../src/core/core.ts';
import { estimateTokens } from '../../src/core/tokens.ts';
import { digestCounts, digestTexts, vectorGroups, type GroupRecord } from './estimate-vectors.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

it('writes the estimate vectors', async () => {
  await initCore();
  const groups: Record<string, GroupRecord> = {};
  for (const g of vectorGroups(root)) {
    const counts = g.texts.map((t) => [estimateTokens(t, { encoding: 'o200k_base' }).tokens, estimateTokens(t, { encoding: 'cl100k_base' }).tokens] as [number, number]);
    const total: [number, number] = [counts.reduce((a, c) => a + c[0], 0), counts.reduce((a, c) => a + c[1], 0)];
    groups[g.name] = { inputs: g.texts.length, inputDigest: digestTexts(g.texts), total, ...(g.perInput ? { counts } : { countDigest: digestCounts(counts) }) };
  }
  // One line per group (counts inline): a small file and a readable diff.
  const lines = Object.entries(groups).map(([name, r]) => `  ${JSON.stringify(name)}: ${JSON.stringify(r)}`);
  const text = `{\n "source": "ctxgate-est/1 estimates (o200k_base, cl100k_base) of test/tokens/estimate-vectors.ts inputs. Regenerate only when the inputs change (npm run golden -- test/tokens), from a core whose estimator is unchanged.",\n "groups": {\n${lines.join(',\n')}\n }\n}\n`;
  if (process.env.GOLDEN === '1') writeFileSync(join(root, 'test/tokens/estimate-vectors.json'), text);
  console.log(Object.entries(groups).map(([n, r]) => `${n}: ${r.inputs} inputs, total ${r.total.join('/')}`).join('\n'));
}, 300_000);
