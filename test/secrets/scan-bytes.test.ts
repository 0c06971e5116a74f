import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { rules } from '../../build/rules/index.mjs';
import { initCore } from '../../src/core/core.ts';
import { findSecrets } from '../../src/secrets/scan.ts';

beforeAll(async () => {
  await initCore();
});

// Every rule's positive examples, to plant among arbitrary text (accents, CJK, emoji, CRLF).
const planted = rules.flatMap((r: { examples: { pos: { text: string }[] } }) => r.examples.pos.map((p) => p.text));

describe('findSecrets on the bytes the caller already holds', () => {
  it('finds exactly what it finds when it encodes the text itself', () => {
    const filler = fc.string({ unit: 'grapheme', maxLength: 40 });
    const text = fc.array(fc.oneof(filler, fc.constantFrom(...planted), fc.constant('\r\n')), { maxLength: 12 }).map((parts) => parts.join(' '));
    fc.assert(
      fc.property(text, (t) => {
        const utf8 = new TextEncoder().encode(t);
        expect(findSecrets(t, {}, utf8)).toEqual(findSecrets(t));
      }),
      { numRuns: 1500 },
    );
  });

  it('reports UTF-16 positions after non-ASCII text (known answer)', () => {
    const t = `café → ${planted.find((p: string) => p.includes('ghp_'))}`;
    const got = findSecrets(t, {}, new TextEncoder().encode(t));
    expect(got.map((f) => [f.ruleId, f.start, f.line, f.column])).toEqual(findSecrets(t).map((f) => [f.ruleId, f.start, f.line, f.column]));
    expect(got.length).toBe(1);
    expect(got[0]!.start).toBe(t.indexOf('ghp_'));
  });
});
