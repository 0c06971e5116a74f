import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { createSha256Sync, sha256HexSync, sha256ManySync } from '../../src/core/sha256.ts';
import { compareUtf8, sortBlockKeysSync, BLOCK_TYPE_ORDER, PRIORITIES, type BlockSortKey } from '../../src/core/sort.ts';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';

const nodeSha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');
const webSha = async (b: Uint8Array): Promise<string> =>
  Buffer.from(await crypto.subtle.digest('SHA-256', b as Uint8Array<ArrayBuffer>)).toString('hex');

beforeAll(async () => {
  await initCore();
});

describe('sha256 properties', () => {
  it('equals node:crypto and WebCrypto on random bytes, whole and in random chunks', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 5000 }), fc.array(fc.nat(300), { maxLength: 20 }), async (bytes, cuts) => {
        const expected = nodeSha(bytes);
        expect(sha256HexSync(bytes)).toBe(expected);
        expect(await webSha(bytes)).toBe(expected);
        const h = createSha256Sync();
        let off = 0;
        for (const cut of cuts) {
          h.update(bytes.subarray(off, off + cut));
          off += cut;
        }
        h.update(bytes.subarray(off));
        expect(h.digestHex()).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  it('equals node:crypto on random strings (UTF-8), including astral characters', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'grapheme', maxLength: 200 }), { maxLength: 12 }), (texts) => {
        expect(sha256ManySync(texts)).toEqual(texts.map((t) => nodeSha(t)));
      }),
      { numRuns: 200 },
    );
  });
});

const blockArb = fc.record({
  priority: fc.constantFrom(...PRIORITIES),
  blockType: fc.constantFrom(...BLOCK_TYPE_ORDER),
  key: fc.oneof(fc.string({ unit: 'binary', maxLength: 24 }).map((s) => s.toWellFormed()), fc.constantFrom('a', 'ab', 'abcdefgh', 'abcdefghi', 'abcdefgh\u00e9', '\u{1F600}', '\uff61')),
});

function reference(blocks: readonly BlockSortKey[]): number[] {
  const rank = (b: BlockSortKey): number => PRIORITIES.indexOf(b.priority) * 16 + BLOCK_TYPE_ORDER.indexOf(b.blockType);
  return blocks
    .map((b, i) => i)
    .sort((i, j) => rank(blocks[i]!) - rank(blocks[j]!) || compareUtf8(blocks[i]!.key, blocks[j]!.key) || i - j);
}

describe('block sort properties', () => {
  it('equals a reference comparator sort (priority, type rank, UTF-8 bytes, input order)', () => {
    fc.assert(
      fc.property(fc.array(blockArb, { maxLength: 300 }), (blocks) => {
        expect(Array.from(sortBlockKeysSync(blocks))).toEqual(reference(blocks));
      }),
      { numRuns: 300 },
    );
  });

  it('is permutation invariant: any shuffle of the input gives the same sequence of blocks', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(blockArb, { maxLength: 200, selector: (b) => `${b.priority}|${b.blockType}|${b.key}` }),
        fc.infiniteStream(fc.nat()),
        (blocks, randoms) => {
          const shuffled = [...blocks];
          for (let i = shuffled.length - 1; i > 0; i--) {
            const j = randoms.next().value % (i + 1);
            [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
          }
          const a = Array.from(sortBlockKeysSync(blocks), (i) => blocks[i]);
          const b = Array.from(sortBlockKeysSync(shuffled), (i) => shuffled[i]);
          expect(b).toEqual(a);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('compareUtf8 agrees with comparing TextEncoder bytes', () => {
    const enc = new TextEncoder();
    const bytesCmp = (a: string, b: string): number => {
      const x = enc.encode(a);
      const y = enc.encode(b);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! < y[i]! ? -1 : 1;
      return Math.sign(x.length - y.length);
    };
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (a, b) => {
        expect(Math.sign(compareUtf8(a, b))).toBe(bytesCmp(a, b));
      }),
      { numRuns: 500 },
    );
  });
});

describe('canonicalize properties', () => {
  it('is idempotent: parse(canonicalize(x)) canonicalizes to the same text', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const once = canonicalize(value);
        expect(canonicalize(JSON.parse(once))).toBe(once);
      }),
      { numRuns: 500 },
    );
  });

  it('agrees with JSON.parse on the data (nothing lost or invented), key order aside', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        // -0 is the one JSON value JCS writes differently (as 0)
        const normal = JSON.parse(JSON.stringify(value, (_k, v) => (Object.is(v, -0) ? 0 : v)));
        expect(JSON.parse(canonicalize(value))).toEqual(normal);
      }),
      { numRuns: 500 },
    );
  });
});
