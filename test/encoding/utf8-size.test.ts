import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isWellFormed, jsonStringBytes, utf8ByteLength } from '../../src/encoding/utf8-size.ts';
import { isCtxgateError } from '../../src/errors.ts';

const encoder = new TextEncoder();
/** The reference answers: the bytes the platform's own encoder writes. */
const utf8 = (s: string) => encoder.encode(s).length;
const json = (s: string) => encoder.encode(JSON.stringify(s)).length;

/** Any UTF-16 code units, lone surrogates and control characters included. */
const codeUnits = (maxLength: number) =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength }).map((units) => String.fromCharCode(...units));
/** Mostly plain text (ASCII, Latin-1, CJK, emoji) with now and then a unit JSON escapes or the encoder replaces. */
const mostlyPlain = fc
  .array(
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('a', 'Z', ' ', '.', 'é', 'ß', '構', '成', '😀', '\u007f', '\u00a0', '\uffef', '\ufffd', '\uff08') },
      { weight: 1, arbitrary: fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u001f', '\ud800', '\udfff', '\ud83d') },
    ),
    { maxLength: 300 },
  )
  .map((parts) => parts.join(''));

describe('utf8ByteLength', () => {
  it('equals the length of TextEncoder output for any string (property)', () => {
    fc.assert(
      fc.property(fc.oneof(codeUnits(60), mostlyPlain, fc.string({ unit: 'binary', maxLength: 80 })), (s) => {
        expect(utf8ByteLength(s)).toBe(utf8(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('counts known answers, across the short/long boundary and across several encoder windows', () => {
    expect(utf8ByteLength('')).toBe(0);
    expect(utf8ByteLength('a'.repeat(24))).toBe(24);
    expect(utf8ByteLength('é'.repeat(25))).toBe(50);
    expect(utf8ByteLength('😀'.repeat(12))).toBe(48);
    // A lone surrogate is written as U+FFFD: 3 bytes, short or long.
    expect(utf8ByteLength('\ud800')).toBe(3);
    expect(utf8ByteLength('x\udc00'.repeat(20))).toBe(80);
    // 200,000 units of 3 bytes: 600,000 bytes, about ten 64 KiB windows; a pair straddling each window edge.
    expect(utf8ByteLength('構'.repeat(200_000))).toBe(600_000);
    expect(utf8ByteLength('a😀'.repeat(70_000))).toBe(350_000);
  });

  it('refuses anything but a string with a typed INVALID_PARAMS naming the argument', () => {
    for (const bad of [undefined, null, 42, ['a'], new Uint8Array(3)]) {
      let error: unknown;
      try {
        utf8ByteLength(bad as unknown as string);
      } catch (e) {
        error = e;
      }
      expect(isCtxgateError(error) && error.code).toBe('INVALID_PARAMS');
      expect((error as Error).message).toMatch(/^text: must be a string, got (undefined|null|number|object)\.$/);
    }
  });
});

describe('jsonStringBytes', () => {
  it('equals the bytes of JSON.stringify(s) for any string, lone surrogates included (property)', () => {
    fc.assert(
      fc.property(fc.oneof(codeUnits(60), mostlyPlain, fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ maxLength: 200 })), (s) => {
        expect(jsonStringBytes(s)).toBe(json(s));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds an escaped or replaced unit at every byte position of a word, in the tail and past the first window', () => {
    // The long path checks encoded bytes four at a time, then the last few one by one: each kind of
    // unit is placed at every offset, after text of 1-, 2- and 3-byte characters.
    const special = ['"', '\\', '\n', '\u0001', '\u001f', '\ud800', '\udbff', '\udc00', '\ufffd', '\uffef', '\u007f'];
    for (const unit of special) {
      for (const filler of ['a', 'é', '構']) {
        for (let offset = 0; offset < 12; offset++) {
          const s = filler.repeat(30 + offset) + unit + filler.repeat(7);
          expect(jsonStringBytes(s), `${JSON.stringify(unit)} after ${30 + offset} × ${filler}`).toBe(json(s));
        }
      }
      // Far into the second window of the encoder (64 KiB), and as the very last unit.
      const far = '構'.repeat(30_000) + unit + 'é'.repeat(5);
      expect(jsonStringBytes(far)).toBe(json(far));
      const last = 'é'.repeat(40_000) + unit;
      expect(jsonStringBytes(last)).toBe(json(last));
    }
  });

  it('counts known answers', () => {
    expect(jsonStringBytes('')).toBe(2);
    expect(jsonStringBytes('a'.repeat(100))).toBe(102);
    expect(jsonStringBytes('é'.repeat(100))).toBe(202);
    // U+FFFD written by the caller is 3 bytes; a lone surrogate is `\udXXX`, 6.
    expect(jsonStringBytes('\ufffd'.repeat(30))).toBe(92);
    expect(jsonStringBytes('\ud800'.repeat(30))).toBe(182);
    expect(jsonStringBytes('x'.repeat(100) + '\u0000')).toBe(108);
    expect(jsonStringBytes('"'.repeat(30))).toBe(62);
  });
});

describe('isWellFormed', () => {
  it('is true exactly when the string has no lone surrogate (property)', () => {
    fc.assert(
      fc.property(codeUnits(40), (s) => {
        expect(isWellFormed(s)).toBe(new TextDecoder('utf-8', { ignoreBOM: true }).decode(encoder.encode(s)) === s);
      }),
      { numRuns: 1000 },
    );
  });
});
