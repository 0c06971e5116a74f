// The batched SHA-256 (sha256ManySync -> the core's sha256Batch) hashes up to four inputs at once in
// the lanes of a SIMD vector, hands a lane the next input when its message ends, takes the inputs
// largest size class first, and finishes the last message on the scalar path. These tests pin the
// digests to FIPS 180-4 answers and to node:crypto across every place a message can start, end and
// be handed over: block and padding boundaries, batches smaller than, equal to and just above the
// lane count, and mixes of empty, tiny and large inputs.
import { createHash } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { sha256HexSync, sha256ManySync } from '../../src/core/sha256.ts';
import { toHex, toHexRecords } from '../../src/core/hex.ts';
import sha256Vectors from '../vectors/sha256.json' with { type: 'json' };
import { SHA256_ABC as ABC } from '../fixtures/known-answers.ts';

const nodeSha = (b: Uint8Array | string): string => createHash('sha256').update(b).digest('hex');

/** Deterministic pseudo-random bytes (xorshift32), so failures reproduce. */
function bytes(length: number, seed: number): Uint8Array {
  const out = new Uint8Array(length);
  let x = seed | 1;
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const EMPTY = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
const TWO_BLOCKS = '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1';
const TWO_BLOCKS_TEXT = 'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq';
const LONG_896 = 'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1';
const LONG_896_TEXT = 'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu';
const MILLION_A = 'cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0';

beforeAll(async () => {
  await initCore();
});

describe('sha256ManySync known answers (FIPS 180-4)', () => {
  it('hashes the standard examples in one batch, in every lane position', () => {
    const texts = ['', 'abc', TWO_BLOCKS_TEXT, LONG_896_TEXT, 'a'.repeat(1_000_000)];
    const digests = [EMPTY, ABC, TWO_BLOCKS, LONG_896, MILLION_A];
    expect(sha256ManySync(texts)).toEqual(digests);
    // Rotations move each message to another lane and another start order.
    for (let r = 1; r < texts.length; r++) {
      const rotated = [...texts.slice(r), ...texts.slice(0, r)];
      expect(sha256ManySync(rotated)).toEqual([...digests.slice(r), ...digests.slice(0, r)]);
    }
  });

  it('hashes each example alone, in pairs and in batches of one to nine copies', () => {
    expect(sha256ManySync(['abc'])).toEqual([ABC]);
    expect(sha256ManySync([''])).toEqual([EMPTY]);
    expect(sha256ManySync(['abc', ''])).toEqual([ABC, EMPTY]);
    expect(sha256ManySync(['', 'abc'])).toEqual([EMPTY, ABC]);
    for (let n = 1; n <= 9; n++) {
      expect(sha256ManySync(Array.from({ length: n }, () => TWO_BLOCKS_TEXT))).toEqual(Array.from({ length: n }, () => TWO_BLOCKS));
    }
  });

  it('matches every golden vector batched with short neighbours', () => {
    type Case = { name: string; text?: string; repeat?: string; count?: number; extra?: string; sha256: string };
    const cases = sha256Vectors.cases as Case[];
    const input = (c: Case): string => c.text ?? c.repeat!.repeat(c.count!) + (c.extra ?? '');
    const batch: string[] = [];
    const expected: string[] = [];
    for (const c of cases) {
      batch.push(input(c), 'abc');
      expected.push(c.sha256, ABC);
    }
    expect(sha256ManySync(batch)).toEqual(expected);
  });
});

describe('sha256ManySync at block and padding boundaries', () => {
  const lengths = Array.from({ length: 201 }, (_, i) => i);
  const boundaries = [55, 56, 57, 63, 64, 65, 119, 120, 121, 127, 128, 129, 183, 184, 191, 192];

  it('every length 0..200 in one batch, ascending and descending', () => {
    const inputs = lengths.map((n) => bytes(n, n + 1));
    const expected = inputs.map(nodeSha);
    expect(sha256ManySync(inputs)).toEqual(expected);
    expect(sha256ManySync([...inputs].reverse())).toEqual([...expected].reverse());
  });

  it('each boundary length as the long message among one-block neighbours, and as the last one', () => {
    for (const n of boundaries) {
      const long = bytes(n, 7 * n + 3);
      const others = [0, 1, 2, 30].map((m) => bytes(m, m + 100));
      const batches = [
        [long, ...others],
        [...others, long],
        [others[0]!, long],
        [long, others[0]!],
        [long, long, long, long, long],
      ];
      for (const batch of batches) expect([n, sha256ManySync(batch)]).toEqual([n, batch.map(nodeSha)]);
    }
  });

  it('same-length messages that finish in the same step in all four lanes', () => {
    for (const n of boundaries) {
      const batch = Array.from({ length: 8 }, (_, i) => bytes(n, n * 31 + i));
      expect([n, sha256ManySync(batch)]).toEqual([n, batch.map(nodeSha)]);
    }
  });

  it('agrees with the one-shot path for every length 0..200', () => {
    const inputs = lengths.map((n) => bytes(n, 3 * n + 11));
    expect(sha256ManySync(inputs)).toEqual(inputs.map((b) => sha256HexSync(b)));
  });
});

describe('sha256ManySync on mixed batches', () => {
  it('empty, one byte, a large input and many tiny ones', () => {
    const tiny = Array.from({ length: 300 }, (_, i) => bytes(i % 9, i + 1));
    const large = bytes(2_500_001, 99);
    const batches = [
      [new Uint8Array(0), new Uint8Array([0x61]), large, ...tiny],
      [...tiny, large],
      [large, ...tiny, new Uint8Array(0)],
      [large, new Uint8Array(0)],
      [new Uint8Array(0), large],
      [large, bytes(70_000, 5), bytes(3, 6), bytes(1_000_000, 7)],
    ];
    for (const batch of batches) expect(sha256ManySync(batch)).toEqual(batch.map(nodeSha));
  });

  it('across the groups it hashes in (64 KiB doubling to 16 MiB): fills, one byte over, strings, 70,000 tiny inputs', () => {
    const MiB = 1 << 20;
    const batches: (Uint8Array | string)[][] = [
      [bytes(MiB / 2, 1), bytes(MiB / 2, 2), bytes(1, 3)],
      [bytes(MiB - 1, 4), bytes(1, 5), bytes(1, 6), bytes(MiB + 1, 7), bytes(0, 8)],
      ['é'.repeat(MiB / 6), 'x'.repeat(MiB / 3), bytes(10, 9), '😀'.repeat(1000)],
      Array.from({ length: 70_000 }, (_, i) => bytes(i % 17, i + 1)),
      [bytes(65_535, 10), bytes(1, 11), bytes(1, 12), bytes(131_072, 13), bytes(17 * MiB, 14), bytes(3, 15)],
    ];
    for (const batch of batches) expect(sha256ManySync(batch)).toEqual(batch.map(nodeSha));
  });

  it('sizes from 200 B to 64 KB in file order, with duplicates', () => {
    let seed = 17;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    const inputs = Array.from({ length: 400 }, (_, i) => bytes(200 + (next() % 65_336), i + 1));
    inputs.push(inputs[3]!, inputs[3]!, inputs[200]!);
    expect(sha256ManySync(inputs)).toEqual(inputs.map(nodeSha));
  });

  it('strings (UTF-8) and bytes mixed in one batch', () => {
    const inputs = ['', 'héllo', bytes(65, 1), '😀'.repeat(40), bytes(0, 2), 'x'.repeat(10_000), bytes(64, 3)];
    expect(sha256ManySync(inputs)).toEqual(inputs.map((x) => nodeSha(x)));
  });

  it('a digest follows its input whatever order the batch is in', () => {
    const inputs = [bytes(100_000, 1), bytes(5, 2), bytes(64, 3), bytes(700, 4), bytes(0, 5), bytes(20_000, 6)];
    const expected = inputs.map(nodeSha);
    const order = [4, 2, 0, 5, 1, 3];
    expect(sha256ManySync(order.map((i) => inputs[i]!))).toEqual(order.map((i) => expected[i]));
  });
});

describe('sha256ManySync properties', () => {
  it('random batches of random bytes hash like node:crypto one by one', () => {
    const input = fc.oneof(
      { weight: 4, arbitrary: fc.uint8Array({ maxLength: 200 }) },
      { weight: 2, arbitrary: fc.uint8Array({ minLength: 50, maxLength: 2_000 }) },
      { weight: 1, arbitrary: fc.integer({ min: 0, max: 70_000 }).map((n) => bytes(n, n + 1)) },
    );
    fc.assert(
      fc.property(fc.array(input, { maxLength: 24 }), (batch) => {
        expect(sha256ManySync(batch)).toEqual(batch.map(nodeSha));
      }),
      { numRuns: 300 },
    );
  });

  it('random batches of lengths around the padding boundaries hash like node:crypto', () => {
    const length = fc.oneof(fc.integer({ min: 0, max: 200 }), fc.constantFrom(55, 56, 63, 64, 119, 120, 127, 128));
    fc.assert(
      fc.property(fc.array(fc.tuple(length, fc.integer()), { minLength: 1, maxLength: 12 }), (spec) => {
        const batch = spec.map(([n, seed]) => bytes(n, seed));
        expect(sha256ManySync(batch)).toEqual(batch.map(nodeSha));
      }),
      { numRuns: 300 },
    );
  });
});

describe('toHexRecords (the batch digests as hex)', () => {
  it('spells every byte value and splits at record boundaries', () => {
    const all = Uint8Array.from({ length: 256 }, (_, i) => i);
    const expected = Array.from({ length: 8 }, (_, r) => Buffer.from(all.subarray(r * 32, r * 32 + 32)).toString('hex'));
    expect(toHexRecords(all, 8, 32)).toEqual(expected);
    expect(toHexRecords(all, 8, 32)).toEqual(expected.map((_, r) => toHex(all, r * 32, r * 32 + 32)));
    expect(toHexRecords(all, 2, 3)).toEqual(['000102', '030405']);
    expect(toHexRecords(all, 0, 32)).toEqual([]);
  });
});
