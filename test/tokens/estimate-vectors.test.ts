// ctxgate-est/1 must give every text exactly the estimate it always gave (golden bundles embed
// them, and the calibration is fitted to them): the core's estimates for the inputs of
// estimate-vectors.ts, real files and adversarial text, against those recorded in
// estimate-vectors.json before the estimator was last optimised. Node only (reads node_modules).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { initCore } from '../../src/core/core.ts';
import { estimateTokens } from '../../src/core/tokens.ts';
import { digestCounts, digestTexts, vectorGroups, type GroupRecord, type VectorGroup } from './estimate-vectors.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixture = JSON.parse(readFileSync(join(root, 'test/tokens/estimate-vectors.json'), 'utf8')) as { groups: Record<string, GroupRecord> };
const groups = vectorGroups(root);

const estimates = (t: string): [number, number] => [estimateTokens(t, { encoding: 'o200k_base' }).tokens, estimateTokens(t, { encoding: 'cl100k_base' }).tokens];

describe('ctxgate-est/1 estimates are unchanged (estimate-vectors.json)', () => {
  beforeAll(async () => {
    await initCore();
  });

  it('covers the same groups as the fixture', () => {
    expect(groups.map((g) => g.name)).toEqual(Object.keys(fixture.groups));
  });

  it.each(groups.map((g) => [g.name, g] as [string, VectorGroup]))('%s', (name, g) => {
    const want = fixture.groups[name]!;
    // Inputs first: a different package version is a fixture to regenerate, not an estimator bug.
    expect({ inputs: g.texts.length, inputDigest: digestTexts(g.texts) }).toEqual({ inputs: want.inputs, inputDigest: want.inputDigest });
    const counts = g.texts.map(estimates);
    if (want.counts) {
      const wrong = counts.flatMap((c, i) => (c[0] === want.counts![i]![0] && c[1] === want.counts![i]![1] ? [] : [{ input: g.labels[i], got: c, want: want.counts![i] }]));
      expect(wrong.slice(0, 5)).toEqual([]);
    } else {
      // Digest groups: test/tokens/estimate-differential.test.ts finds the text that differs.
      expect(digestCounts(counts)).toBe(want.countDigest);
    }
    expect([counts.reduce((a, c) => a + c[0], 0), counts.reduce((a, c) => a + c[1], 0)]).toEqual(want.total);
  }, 60_000);
});
