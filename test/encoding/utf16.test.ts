import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codePointLength, safeCutIndex, safeCutIndexForward } from '../../src/encoding/utf16.ts';

/** Any UTF-16 code units, surrogates (paired or lone) included. */
const units = fc.array(fc.oneof(fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0xd800, max: 0xdfff })), { maxLength: 30 }).map((u) => String.fromCharCode(...u));
const splitsPair = (s: string, i: number) => i > 0 && i < s.length && (s.charCodeAt(i - 1) & 0xfc00) === 0xd800 && (s.charCodeAt(i) & 0xfc00) === 0xdc00;

describe('code points and safe cuts', () => {
  it('codePointLength counts what string iteration counts (property)', () => {
    fc.assert(
      fc.property(fc.oneof(units, fc.string({ unit: 'grapheme', maxLength: 20 })), (s) => {
        expect(codePointLength(s)).toBe([...s].length);
      }),
      { numRuns: 2000 },
    );
    expect(codePointLength('a😀é\ud800')).toBe(4);
  });

  it('a cut moves at most one unit, the right way, and never splits a pair (property)', () => {
    fc.assert(
      fc.property(units, fc.integer({ min: -2, max: 34 }), (s, i) => {
        const back = safeCutIndex(s, i);
        const forward = safeCutIndexForward(s, i);
        const clamped = Math.min(Math.max(i, 0), s.length);
        expect(splitsPair(s, back) || splitsPair(s, forward)).toBe(false);
        expect(clamped - back).toBeGreaterThanOrEqual(0);
        expect(clamped - back).toBeLessThanOrEqual(1);
        expect(forward - clamped).toBeGreaterThanOrEqual(0);
        expect(forward - clamped).toBeLessThanOrEqual(1);
      }),
      { numRuns: 2000 },
    );
    expect(safeCutIndex('a😀b', 2)).toBe(1);
    expect(safeCutIndexForward('a😀b', 2)).toBe(3);
  });
});
