import { describe, expect, it } from 'vitest';
import { distancePenalty, rankCandidates, sizePenalty } from '../../src/builder/rank.ts';
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

describe('spec 001 step 2: the score and its tie-breakers, at their edges', () => {
  it('size penalty: one point per 200,000 bytes, at most 30', () => {
    expect([0, 199_999, 200_000, 399_999, 400_000, 5_999_999, 6_000_000, 6_200_000, 50_000_000].map(sizePenalty)).toEqual([0, 0, 1, 1, 2, 29, 30, 30, 30]);
  });

  it('distance penalty: ten points per hop beyond the first', () => {
    expect([0, 1, 2, 3, 5].map(distancePenalty)).toEqual([0, 0, 10, 20, 40]);
  });

  it('at equal scores the candidate fewer hops away ranks first, whatever its size and path', () => {
    // b is two hops away with a base 10 higher: same score as a, one hop away.
    const a = { ...candidate('z-near.ts', 40, 900), hops: 1 };
    const b = { ...candidate('a-far.ts', 50, 10), hops: 2 };
    const ranked = rankCandidates([b, a], (c) => c.path);
    expect(ranked.map((r) => [r.path, r.score])).toEqual([
      ['z-near.ts', 40],
      ['a-far.ts', 40],
    ]);
  });
});
