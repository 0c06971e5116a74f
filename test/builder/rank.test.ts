import { describe, expect, it } from 'vitest';
import { rankCandidates } from '../../src/builder/rank.ts';
import type { Candidate } from '../../src/builder/candidates.ts';

const candidate = (path: string, base: number, byteSize = 100): Candidate => ({
  path,
  reason: 'caller',
  base,
  hops: 1,
  priority: 'P2',
  target: false,
  symbols: [],
  file: { path, byteSize, hash: 'a'.repeat(64), encoding: 'ascii' },
});

describe('spec 001 step 2: the duplicate signal penalty', () => {
  it('takes 5 from a later candidate whose content an earlier one carries, and ranks it again', () => {
    const content: Record<string, string> = { 'a.ts': 'same', 'b.ts': 'same', 'c.ts': 'other' };
    const ranked = rankCandidates([candidate('c.ts', 38), candidate('b.ts', 40), candidate('a.ts', 40)], (c) => content[c.path]!);
    expect(ranked.map((r) => [r.path, r.score, r.penalties.duplicate])).toEqual([
      ['a.ts', 40, 0],
      ['c.ts', 38, 0],
      ['b.ts', 35, 5],
    ]);
  });

  it('leaves the order of distinct contents to the tie-breakers: score, hops, size, path', () => {
    const ranked = rankCandidates([candidate('z.ts', 40, 10), candidate('b.ts', 40, 50), candidate('a.ts', 40, 50), candidate('y.ts', 55)], (c) => c.path);
    expect(ranked.map((r) => r.path)).toEqual(['y.ts', 'z.ts', 'a.ts', 'b.ts']);
    expect(ranked.every((r) => r.penalties.duplicate === 0)).toBe(true);
  });
});
