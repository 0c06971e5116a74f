import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { derivedUuid, derivedUuids } from '../../src/builder/ids.ts';

beforeAll(async () => {
  await initCore();
});

describe('derived ids', () => {
  it('derivedUuids gives derivedUuid of each list, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.array(fc.string({ unit: 'grapheme', maxLength: 30 }), { maxLength: 6 }), { maxLength: 40 }), (lists) => {
        expect(derivedUuids(lists)).toEqual(lists.map((parts) => derivedUuid(...parts)));
      }),
      { numRuns: 300 },
    );
  });

  it('is a version-8 UUID over SHA-256 of the NUL-joined parts (known answer)', () => {
    const h = createHash('sha256').update('block\u0000file\u0000P0\u0000src/a.ts', 'utf8').digest('hex');
    const variant = ((parseInt(h[16]!, 16) & 3) | 8).toString(16);
    const expected = `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
    expect(derivedUuids([['block', 'file', 'P0', 'src/a.ts']])).toEqual([expected]);
    expect(expected).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});
