import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { textFacts } from '../../src/core/text.ts';
import { checkContent } from '../../src/secrets/content.ts';
import { gateContent } from '../../src/builder/content-gate.ts';
import { countLines } from '../../src/builder/lines.ts';

beforeAll(async () => {
  await initCore();
});

/** What the gate must say, from the reference gate in src/secrets/content.ts. */
function reference(bytes: Uint8Array) {
  const d = checkContent(bytes, { maxBytes: Number.MAX_SAFE_INTEGER });
  return d.allowed
    ? { allowed: true, encoding: d.encoding, bom: d.bom, lineCount: countLines(d.text), text: d.text }
    : { allowed: false, reason: d.reason, encoding: d.encoding, detail: d.detail };
}

// Pieces that hit every branch of the core pass and of the gate: ASCII text and newlines, each
// control the gate counts and each it does not (tab..CR, ESC), NUL, C1 controls (C2 80..C2 9F) next
// to their neighbours (C2 A0), U+FFFD next to U+FFFC, 2-, 3- and 4-byte sequences, truncated and
// overlong sequences, surrogates, lone continuation bytes, BOMs and windows-1252 high bytes.
const pieces = [
  [0x61, 0x62, 0x0a], [0x0a], [0x09], [0x0b], [0x0c], [0x0d], [0x1b], [0x00], [0x01], [0x08], [0x0e], [0x1a], [0x1c], [0x1f], [0x7f],
  [0xc2, 0x80], [0xc2, 0x85], [0xc2, 0x9f], [0xc2, 0xa0], [0xef, 0xbf, 0xbd], [0xef, 0xbf, 0xbc], [0xc3, 0xa9], [0xe4, 0xb8, 0xad],
  [0xf0, 0x9f, 0x98, 0x80], [0xf4, 0x8f, 0xbf, 0xbf], [0xf4, 0x90, 0x80, 0x80], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xc0, 0xaf],
  [0xe4, 0xb8], [0xf0, 0x9f], [0x80], [0x81], [0x9d], [0xe9], [0xff], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff],
];
const ascii = fc.array(fc.integer({ min: 0x20, max: 0x7e }), { maxLength: 70 });
const soup = fc
  .array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pieces) }, { weight: 2, arbitrary: ascii }), { maxLength: 80 })
  .map((parts) => new Uint8Array(parts.flat()));

describe('content gate in the core (src/builder/content-gate.ts)', () => {
  it('decides exactly as checkContent on byte soups, with the same line count and text', () => {
    fc.assert(
      fc.property(soup, (bytes) => {
        const got = gateContent(bytes, true);
        expect(got).toEqual(reference(bytes));
        const { text: _, ...verdict } = reference(bytes) as { text?: string };
        expect(gateContent(bytes, false)).toEqual(verdict);
      }),
      { numRuns: 4000 },
    );
  });

  it('decides exactly as checkContent on any UTF-8 text, around the control-character limit', () => {
    // 0.2% of the text may be control characters: one per 500 code units; 1000 units of text with
    // 0..4 controls sit on both sides of the limit.
    const controls = fc.constantFrom('\u0001', '\u007f', '\u0085', '\ufffd', '\u001f');
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 990, maxLength: 1010 }), fc.array(fc.tuple(fc.nat(), controls), { maxLength: 4 }), (base, inserts) => {
        let text = base.replace(/[\x00-\x08\x0e-\x1a\x1c-\x1f\x7f-\x9f\ufffd]/g, 'x');
        for (const [at, c] of inserts) text = text.slice(0, at % (text.length + 1)) + c + text.slice(at % (text.length + 1));
        const bytes = new TextEncoder().encode(text);
        expect(gateContent(bytes, true)).toEqual(reference(bytes));
      }),
      { numRuns: 1500 },
    );
  });

  it('counts units, controls and newlines exactly (known answers across 16-byte blocks)', () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    expect(textFacts(enc(''))).toEqual({ status: 'utf-8', ascii: true, units: 0, controls: 0, newlines: 0 });
    // 20 ASCII bytes (one SIMD block, then the byte loop) with a DEL, a BEL, a tab and two LFs.
    expect(textFacts(enc('abc\x7fdefg\nhij\x07klm\tno\np'))).toEqual({ status: 'utf-8', ascii: true, units: 21, controls: 2, newlines: 2 });
    // A 4-byte sequence straddling the first block's end: 14 ASCII bytes, then U+1F600 (2 units).
    expect(textFacts(enc(`${'a'.repeat(14)}😀${'b'.repeat(20)}\u0085\ufffd`))).toEqual({ status: 'utf-8', ascii: false, units: 38, controls: 2, newlines: 0 });
    expect(textFacts(enc(`${'a'.repeat(40)}\0`))).toEqual({ status: 'nul' });
    expect(textFacts(new Uint8Array([...enc('a'.repeat(31)), 0xe4, 0xb8]))).toEqual({ status: 'malformed' });
  });

  it('refuses a file over the control limit and accepts one under or at it', () => {
    const under = new TextEncoder().encode(`${'a'.repeat(999)}\u0001`); // 1 of 1000: 0.1%
    const at = new TextEncoder().encode(`${'a'.repeat(998)}\u0001\u0085`); // 2 of 1000 units: exactly 0.2%, allowed
    const over = new TextEncoder().encode(`${'a'.repeat(997)}\u0001\u0001\u0001`); // 3 of 1000: 0.3%
    expect(gateContent(under, false)).toEqual({ allowed: true, encoding: 'ascii', bom: false, lineCount: 1 });
    expect(gateContent(at, false)).toEqual({ allowed: true, encoding: 'utf-8', bom: false, lineCount: 1 });
    expect(reference(at)).toMatchObject({ allowed: true });
    expect(gateContent(over, false)).toEqual({ allowed: false, reason: 'binary', encoding: 'ascii', detail: 'too many control characters for text' });
  });
});
