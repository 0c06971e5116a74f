import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clipChars, truncateToFit } from '../../src/layers/truncate.ts';

const maxLen = (n: number) => (t: string) => t.length <= n;

describe('truncation rule (spec 003 truncateToTokenBudget)', () => {
  it('cuts at the last sentence end (". ") that fits and appends "..."', () => {
    expect(truncateToFit('One two. Three four. Five six seven.', maxLen(25))).toEqual({ text: 'One two. Three four...', boundary: 'sentence' });
  });

  it('treats ".\\n" as a sentence end', () => {
    expect(truncateToFit('Alpha.\nBeta gamma delta epsilon', maxLen(12))).toEqual({ text: 'Alpha...', boundary: 'sentence' });
  });

  it('falls back to the last word boundary when no sentence end fits', () => {
    expect(truncateToFit('alpha beta gamma delta', maxLen(15))).toEqual({ text: 'alpha beta...', boundary: 'word' });
  });

  it('falls back to a character cut for one long word, never splitting a surrogate pair', () => {
    expect(truncateToFit('abcdefghij', maxLen(6))).toEqual({ text: 'abc...', boundary: 'char' });
    const emoji = '😀😀😀😀😀';
    const cut = truncateToFit(emoji, maxLen(7));
    expect(cut).toEqual({ text: '😀😀...', boundary: 'char' });
  });

  it('returns null when nothing fits', () => {
    expect(truncateToFit('abcdef', maxLen(3))).toBeNull();
  });

  it('clipChars leaves short text alone', () => {
    expect(clipChars('short', 10)).toBe('short');
    expect(clipChars('one two three four', 12)).toBe('one two...');
  });

  it('property: a cut is shorter than the input, ends with "...", keeps a prefix and fits', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 0, max: 220 }), (text, n) => {
        const cut = truncateToFit(text, maxLen(n));
        if (cut === null) return;
        expect(cut.text.length).toBeLessThan(text.length);
        expect(cut.text.length).toBeLessThanOrEqual(n);
        expect(cut.text.endsWith('...')).toBe(true);
        expect(text.startsWith(cut.text.slice(0, -3))).toBe(true);
        expect(cut.text.slice(0, -3).trim()).not.toBe('');
      }),
    );
  });
});
