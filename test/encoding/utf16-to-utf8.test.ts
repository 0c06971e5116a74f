import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { initCore, withCore, type Core } from '../../src/core/core.ts';

const encoder = new TextEncoder();

/** Any UTF-16 code units, lone surrogates included. */
const codeUnits = (maxLength: number) =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength, size: 'max' }).map((units) => String.fromCharCode(...units));
/**
 * Text as the transcoder meets it: ASCII runs of any length (so non-ASCII units fall on every lane
 * of a 16-unit block and runs cross block ends), then accented, CJK, emoji and broken units.
 */
const mixed = (maxParts: number) =>
  fc
    .array(
      fc.oneof(
        { weight: 6, arbitrary: fc.stringMatching(/^[ -~\n\t]{0,40}$/) },
        { weight: 3, arbitrary: fc.constantFrom('é', 'ß', 'ÿ', '\u0080', '\u07ff', '\u0800', '構成', '\u7fff', '\u8000', '\uffff', '\ufffd') },
        { weight: 2, arbitrary: fc.constantFrom('😀', '\u{10000}', '\u{10ffff}', '\ud800', '\udfff', '\ud83d\ud83d\ude00', '\ude00\ud83d') },
      ),
      // size 'max': lengths up to maxParts, so texts span many 16- and 32-unit blocks.
      { maxLength: maxParts, size: 'max' },
    )
    .map((parts) => parts.join(''));

/** Puts `text`'s code units at `src` and runs the core's transcoder into `dst`; returns its bytes. */
function transcode(core: Core, text: string, layout: 'in-place' | 'apart'): Uint8Array {
  const n = text.length;
  const ptr = core.reserve(n * 5 + 64);
  const src = layout === 'in-place' ? ptr + n : ptr + n * 3 + 32;
  const units = new DataView(core.view(src, n * 2).buffer);
  for (let k = 0; k < n; k++) units.setUint16(src + k * 2, text.charCodeAt(k), true);
  const len = core.raw.utf16ToUtf8(src, n, ptr);
  return core.view(ptr, len).slice();
}

describe('utf16ToUtf8 (the core transcoder behind writeString in Node)', () => {
  beforeAll(async () => {
    await initCore();
  });

  it('writes what TextEncoder writes for any code units, in place and apart (property)', () => {
    withCore((core) => {
      fc.assert(
        fc.property(fc.oneof(codeUnits(200), mixed(60), fc.string({ unit: 'binary', maxLength: 120 })), (s) => {
          const expected = encoder.encode(s);
          expect(transcode(core, s, 'in-place')).toEqual(expected);
          expect(transcode(core, s, 'apart')).toEqual(expected);
        }),
        { numRuns: 3000 },
      );
    });
  });

  it('known answers at the edges of each UTF-8 length and of the 16-unit blocks', () => {
    withCore((core) => {
      const hex = (s: string) => Buffer.from(transcode(core, s, 'in-place')).toString('hex');
      expect(hex('')).toBe('');
      expect(hex('\u007f\u0080\u07ff\u0800\uffff')).toBe('7fc280dfbfe0a080efbfbf');
      // U+8000 and up: the signed narrowing would read these lanes as 0 without the cap.
      expect(hex('a'.repeat(15) + '\u8000')).toBe('61'.repeat(15) + 'e88080');
      expect(hex('\u8000' + 'a'.repeat(15))).toBe('e88080' + '61'.repeat(15));
      // A pair across the end of a block, a lone high surrogate at the very end, a lone low one.
      expect(hex('a'.repeat(15) + '😀' + 'b')).toBe('61'.repeat(15) + 'f09f988062');
      expect(hex('a'.repeat(31) + '\ud83d')).toBe('61'.repeat(31) + 'efbfbd');
      expect(hex('\ude00a')).toBe('efbfbd61');
      // A high surrogate before another high surrogate, then the pair it makes with the low one.
      expect(hex('\ud83d\ud83d\ude00')).toBe('efbfbdf09f9880');
      expect(hex('\u{10ffff}')).toBe('f48fbfbf');
    });
  });

  it('writeString takes the transcoder for long strings in Node and gives the encoder bytes at every length around the switch', () => {
    withCore((core) => {
      for (const n of [1, 15, 16, 17, 255, 256, 257, 1000, 70_000]) {
        for (const unit of ['a', 'é', '構', '\ud800']) {
          const s = ('x'.repeat(7) + unit).repeat(Math.ceil(n / 8)).slice(0, n);
          const { ptr, len } = core.writeString(s);
          expect(core.view(ptr, len)).toEqual(encoder.encode(s));
        }
      }
    });
  });

  it('writeStrings writes the UTF-8 of the concatenation, each part by its own path (property)', () => {
    withCore((core) => {
      // Parts that do not split a surrogate pair between them (writeStrings' precondition).
      // Short parts take the encoder; repeated ones (hundreds of units) the code-unit path in Node.
      const part = fc
        .oneof(mixed(40), fc.tuple(mixed(40), fc.integer({ min: 8, max: 40 })).map(([s, k]) => s.repeat(k)))
        .map((s) => s.replace(/[\ud800-\udbff]$/, 'x'));
      fc.assert(
        fc.property(part, part, (first, second) => {
          const expected = encoder.encode(first + second);
          const { ptr, len } = core.writeStrings(first, second);
          expect(core.view(ptr, len)).toEqual(expected);
          const bytes = core.writeStrings(first, encoder.encode(second));
          expect(core.view(bytes.ptr, bytes.len)).toEqual(expected);
        }),
        { numRuns: 400 },
      );
    });
  });

  it('in Node a string of 256 units or more goes in as code units, a shorter one through the encoder', () => {
    withCore((core) => {
      // The units are copied to the window's last 2n bytes; the encoder never writes there.
      const lastUnit = (s: string) => {
        core.writeBytes(new Uint8Array(s.length * 3).fill(0xee));
        const { ptr } = core.writeString(s);
        return [...core.view(ptr + s.length * 3 - 2, 2)];
      };
      expect(lastUnit('b'.repeat(256))).toEqual([0x62, 0]);
      expect(lastUnit('é'.repeat(300))).toEqual([0xe9, 0]);
      expect(lastUnit('b'.repeat(255))).toEqual([0xee, 0xee]);
    });
  });
});
