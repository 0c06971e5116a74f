import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonEscapeKernel } from '../../src/core/json-escapes.ts';
import { isWellFormed } from '../../src/encoding/utf16.ts';
import { jsonStringBytes, jsonStringBytesEncoded, jsonStringBytesPortable, utf8ByteLength } from '../../src/encoding/utf8-size.ts';
import { isCtxgateError } from '../../src/errors.ts';

const encoder = new TextEncoder();
/** The reference answers: the bytes the platform's own encoder writes. */
const utf8 = (s: string) => encoder.encode(s).length;
const json = (s: string) => encoder.encode(JSON.stringify(s)).length;

/** Any UTF-16 code units, lone surrogates and control characters included. */
const codeUnits = (maxLength: number) =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength, size: 'max' }).map((units) => String.fromCharCode(...units));
/** Mostly plain text (ASCII, Latin-1, CJK, emoji) with now and then a unit JSON escapes or the encoder replaces. */
const mostlyPlain = fc
  .array(
    fc.oneof(
      { weight: 12, arbitrary: fc.constantFrom('a', 'Z', ' ', '.', 'é', 'ß', '構', '成', '😀', '\u007f', '\u00a0', '\uffef', '\ufffd', '\uff08') },
      { weight: 1, arbitrary: fc.constantFrom('"', '\\', '\n', '\t', '\u0000', '\u001f', '\ud800', '\udfff', '\ud83d') },
    ),
    // size 'max': up to 300 parts (fast-check's default size stops near ten), so strings reach
    // the long-string counters too.
    { maxLength: 300, size: 'max' },
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
  // Three ways of counting a long string: the kernel from the string's UTF-16 code units (Node),
  // the kernel on the encoder's bytes (Deno, browsers), and JavaScript alone (workerd, or a page
  // whose policy forbids compiling WebAssembly). All are held to the platform's own JSON.stringify
  // and encoder here.
  const counters = { 'kernel, UTF-16': jsonStringBytes, 'kernel, encoded': jsonStringBytesEncoded, portable: jsonStringBytesPortable };

  it('has the kernel, with its UTF-16 count, in Node', () => {
    expect(jsonEscapeKernel()).not.toBeNull();
    expect(jsonEscapeKernel()!.window.byteLength).toBe(65536);
    expect(jsonEscapeKernel()!.utf16).not.toBeNull();
    expect(jsonEscapeKernel()!.maxUnits).toBe(32768);
  });

  for (const [name, count] of Object.entries(counters)) {
    it(`${name}: equals the bytes of JSON.stringify(s) for any string, lone surrogates included (property)`, () => {
      fc.assert(
        fc.property(fc.oneof(codeUnits(60), mostlyPlain, fc.string({ unit: 'binary', maxLength: 80 }), fc.string({ maxLength: 200 })), (s) => {
          expect(count(s)).toBe(json(s));
        }),
        { numRuns: 3000 },
      );
    });

    it(`${name}: finds an escaped or replaced unit at every byte position of a block, in the tail and past the first window`, () => {
      // The long paths check encoded bytes sixteen (kernel) or four (portable) at a time, then the
      // last few one by one: each kind of unit is placed at every offset of a 16-byte block, after
      // text of 1-, 2- and 3-byte characters.
      const special = ['"', '\\', '\n', '\u0001', '\u000b', '\u001f', '\ud800', '\udbff', '\udc00', '\ufffd', '\uffef', '\u007f'];
      for (const unit of special) {
        for (const filler of ['a', 'é', '構']) {
          for (let offset = 0; offset < 20; offset++) {
            const s = filler.repeat(30 + offset) + unit + filler.repeat(7);
            expect(count(s), `${JSON.stringify(unit)} after ${30 + offset} × ${filler}`).toBe(json(s));
          }
        }
        // Far into the second window of the encoder (64 KiB), and as the very last unit.
        const far = '構'.repeat(30_000) + unit + 'é'.repeat(5);
        expect(count(far)).toBe(json(far));
        const last = 'é'.repeat(40_000) + unit;
        expect(count(last)).toBe(json(last));
      }
    });

    it(`${name}: counts known answers`, () => {
      expect(count('')).toBe(2);
      expect(count('a'.repeat(100))).toBe(102);
      expect(count('é'.repeat(100))).toBe(202);
      // U+FFFD written by the caller is 3 bytes; a lone surrogate is `\udXXX`, 6.
      expect(count('\ufffd'.repeat(30))).toBe(92);
      expect(count('\ud800'.repeat(30))).toBe(182);
      expect(count('x'.repeat(100) + '\u0000')).toBe(108);
      expect(count('"'.repeat(30))).toBe(62);
      // Every control character: the five short escapes (\b \t \n \f \r) take 2 bytes, the rest 6.
      const controls = Array.from({ length: 32 }, (_, c) => String.fromCharCode(c)).join('');
      expect(count(controls)).toBe(2 + 5 * 2 + 27 * 6);
      // 300,000 units over five windows, one escape in each 100.
      expect(count(('a'.repeat(99) + '\n').repeat(3000))).toBe(2 + 300_000 + 3000);
      // A window holds 32,768 code units: a pair, or a lone half, at that edge.
      for (const at of [32_766, 32_767, 32_768]) {
        for (const unit of ['😀', '\ud800', '\udc00', '\ud800\ud800']) {
          const s = 'a'.repeat(at) + unit + 'b'.repeat(5);
          expect(count(s), `${JSON.stringify(unit)} at ${at}`).toBe(json(s));
        }
      }
    });
  }
});

describe('the JSON-escape kernel', () => {
  const kernel = jsonEscapeKernel()!;
  const write = (bytes: number[]) => {
    kernel.window.set(bytes);
    return bytes.length;
  };

  it('returns twice the bytes escapes add, plus 1 when an 0xEF byte was seen', () => {
    expect(kernel.count(write(Array(40).fill(0x61)))).toBe(0);
    expect(kernel.count(write([0x22, 0x5c, 0x0a, 0x01, ...Array(36).fill(0x61)]))).toBe(2 * (1 + 1 + 1 + 5));
    expect(kernel.count(write([0xef, 0xbf, 0xbd, ...Array(37).fill(0x61)]))).toBe(1);
    expect(kernel.count(write([...Array(39).fill(0x61), 0xef]))).toBe(1);
    // Only the first `length` bytes are read.
    write([0x61, 0x61, 0x22, 0x22]);
    expect(kernel.count(2)).toBe(0);
    // Each byte value, alone at every position of a block and in the tail.
    for (let b = 0; b < 256; b++) {
      const extra = b === 0x22 || b === 0x5c || (b >= 0x08 && b <= 0x0d && b !== 0x0b) ? 1 : b < 0x20 ? 5 : 0;
      for (let at = 0; at < 40; at++) {
        const bytes = Array(40).fill(0x20);
        bytes[at] = b;
        expect(kernel.count(write(bytes)), `byte ${b} at ${at}`).toBe(2 * extra + (b === 0xef ? 1 : 0));
      }
    }
  });

  it('never reads past its window, whatever length it is given', () => {
    kernel.window.fill(0x22);
    expect(kernel.count(65536)).toBe(2 * 65536);
    expect(kernel.count(1 << 30)).toBe(2 * 65536);
    // As UTF-16: 32,768 units of 0x2222 ('∢', 3 bytes each), however many are asked for.
    expect(kernel.utf16!.count(1 << 30)).toBe(3 * 32768);
    kernel.window.fill(0);
  });

  it('counts the JSON size of UTF-16 code units: each kind of unit at every position of a block', () => {
    const utf16 = kernel.utf16!;
    // Ends of every range the count tells apart, lone halves and a pair among them.
    const units = [
      0x00, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x1f, 0x20, 0x22, 0x5c, 0x7e, 0x7f, 0x80, 0xef, 0xff, 0x100,
      0x7ff, 0x800, 0x7fff, 0x8000, 0xd7ff, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xe000, 0xfeff, 0xfffd, 0xffff,
    ];
    const pieces = [...units.map((u) => String.fromCharCode(u)), '😀', '\udbff\udfff'];
    for (const piece of pieces) {
      for (const filler of ['a', 'é', '構']) {
        for (let at = 0; at < 40; at++) {
          const s = filler.repeat(at) + piece + filler.repeat(40 - at);
          expect(utf16.write(s)).toBe(2 * s.length);
          expect(utf16.count(s.length), `${JSON.stringify(piece)} after ${at} × ${filler}`).toBe(json(s) - 2);
        }
      }
    }
    // Only the first `units` code units are read: a pair cut there is a lone half.
    utf16.write('ab😀');
    expect(utf16.count(3)).toBe(2 + 6);
    expect(utf16.count(4)).toBe(2 + 4);
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
