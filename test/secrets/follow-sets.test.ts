import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mergeFollowSets } from '../../build/follow-sets.mjs';

/** A 256-bit set of the given bytes, as the build holds it (32 bytes). */
function setOf(bytes: Iterable<number>): number[] {
  const bits = new Array<number>(32).fill(0);
  for (const b of bytes) bits[b >> 3]! |= 1 << (b & 7);
  return bits;
}
/** The bytes of a 256-bit set, in order. */
function bytesOf(bits: readonly number[]): number[] {
  const out: number[] = [];
  for (let b = 0; b < 256; b++) if ((bits[b >> 3]! & (1 << (b & 7))) !== 0) out.push(b);
  return out;
}
const code = (s: string) => [...s].map((c) => c.charCodeAt(0));
const QUOTES = code('"\'`');

describe('mergeFollowSets (the build fitting follow sets into the core\'s byte-wide numbers)', () => {
  it('leaves sets that fit as they are, numbered in order', () => {
    const given = [setOf(code('a')), setOf(code('bc'))];
    expect(mergeFollowSets(given, 2, QUOTES)).toEqual({ sets: given, numbers: [0, 1] });
  });

  it('merges the two sets whose union adds the fewest bytes (known answer)', () => {
    const got = mergeFollowSets([setOf(code('a')), setOf(code('wxyz')), setOf(code('ab'))], 2, QUOTES);
    expect(got.sets.map(bytesOf)).toEqual([code('ab'), code('wxyz')]);
    expect(got.numbers).toEqual([0, 1, 0]);
  });

  it('never merges a set holding a quote with one that does not', () => {
    // Merging the quote's set with `a` costs what merging `a` with `b` does, and comes first.
    const got = mergeFollowSets([setOf(code('"')), setOf(code('a')), setOf(code('b'))], 2, QUOTES);
    expect(got.sets.map(bytesOf)).toEqual([code('"'), code('ab')]);
    expect(got.numbers).toEqual([0, 1, 1]);
  });

  it('fails with a message when no two sets can be merged', () => {
    expect(() => mergeFollowSets([setOf(code('"')), setOf(code('a'))], 1, QUOTES)).toThrow(/too many follow sets \(2, at most 1\)/);
  });

  it('fits any sets into the limit, each within the set it is numbered to, its quotes unchanged', () => {
    const byteSet = fc.uniqueArray(fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(...QUOTES)), { maxLength: 12 });
    // Three quotes make at most eight kinds of set, and sets of one kind can always be merged: a
    // limit of eight or more always fits.
    fc.assert(
      fc.property(fc.array(byteSet, { minLength: 1, maxLength: 24 }), fc.integer({ min: 8, max: 24 }), (lists, max) => {
        const given = lists.map(setOf);
        const { sets, numbers } = mergeFollowSets(given, max, QUOTES);
        expect(sets.length).toBe(Math.min(given.length, max));
        expect(numbers).toHaveLength(given.length);
        given.forEach((set, k) => {
          const into = new Set(bytesOf(sets[numbers[k]!]!));
          for (const b of bytesOf(set)) expect(into.has(b)).toBe(true);
          for (const q of QUOTES) expect(into.has(q)).toBe(bytesOf(set).includes(q));
        });
      }),
      { numRuns: 300 },
    );
  });
});
