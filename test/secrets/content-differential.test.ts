import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { checkContent, detectEncoding } from '../../src/secrets/content.ts';
import * as before from './reference/content-before.ts';

// Byte soups that hit every branch: ASCII, UTF-8, BOMs, NUL, C0/C1 controls, U+FFFD, windows-1252
// high bytes and bytes undefined in it, invalid UTF-8.
const pieces = [
  [0x61, 0x62, 0x0a], [0x09], [0x0b], [0x0c], [0x0d], [0x1b], [0x00], [0x01], [0x1f], [0x7f], [0xc2, 0x85], [0xef, 0xbf, 0xbd],
  [0xc3, 0xa9], [0xe4, 0xb8, 0xad], [0xf0, 0x9f, 0x98, 0x80], [0x80], [0x81], [0x9d], [0xe9], [0xff], [0xef, 0xbb, 0xbf], [0xff, 0xfe], [0xfe, 0xff],
];
const soup = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.array(fc.integer({ min: 0x20, max: 0x7e }), { maxLength: 200 })), { maxLength: 60 }).map((parts) => new Uint8Array(parts.flat()));

describe('content gate: single-decode rewrite decides exactly as before', () => {
  it('detectEncoding and checkContent agree with the previous implementation on byte soups', () => {
    fc.assert(
      fc.property(soup, fc.constantFrom(...pieces.slice(-3), []), (body, prefix) => {
        const bytes = new Uint8Array([...prefix, ...body]);
        expect(detectEncoding(bytes)).toEqual(before.detectEncoding(bytes));
        expect(checkContent(bytes)).toEqual(before.checkContent(bytes));
      }),
      { numRuns: 3000 },
    );
  });
});
