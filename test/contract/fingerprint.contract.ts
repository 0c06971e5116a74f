import { createCtxgate, isCtxgateError } from '../../src/index.ts';
import { initCore } from '../../src/core/core.ts';
import { createSha256Sync, sha256HexSync, sha256ManySync } from '../../src/core/sha256.ts';
import { sortBlockKeysSync, type BlockSortKey } from '../../src/core/sort.ts';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import { fingerprintSync } from '../../src/fingerprint/fingerprint.ts';
import sha256Vectors from '../vectors/sha256.json' with { type: 'json' };
import jcsVectors from '../vectors/jcs.json' with { type: 'json' };
import orderVectors from '../vectors/block-order.json' with { type: 'json' };
import type { Harness } from './harness.ts';
import { SHA256_ABC } from '../fixtures/known-answers.ts';

type Sha256Case = { name: string; text?: string; repeat?: string; count?: number; extra?: string; sha256: string };
const inputOf = (c: Sha256Case): string => c.text ?? c.repeat!.repeat(c.count!) + (c.extra ?? '');

function doubleFromHex(hex: string): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setBigUint64(0, BigInt(`0x${hex}`));
  return view.getFloat64(0);
}

const refuse = (value: unknown): unknown => {
  try {
    canonicalize(value);
  } catch (e) {
    return e;
  }
  return undefined;
};

/** Issue 3's golden vectors, identical in every runtime. */
export function fingerprintContract({ describe, it, expect, runtime }: Harness): void {
  describe(`sha256 (${runtime})`, () => {
    it('matches every FIPS 180-4 and padding-boundary vector, one-shot', async () => {
      await initCore();
      for (const c of sha256Vectors.cases as Sha256Case[]) expect([c.name, sha256HexSync(inputOf(c))]).toEqual([c.name, c.sha256]);
    });

    it('matches the vectors as bytes, in uneven streaming chunks, and batched', async () => {
      await initCore();
      const enc = new TextEncoder();
      const cases = sha256Vectors.cases as Sha256Case[];
      for (const c of cases) {
        const bytes = enc.encode(inputOf(c));
        expect(sha256HexSync(bytes)).toBe(c.sha256);
        const h = createSha256Sync();
        for (let off = 0, step = 1; off < bytes.length; off += step, step = (step * 7 + 3) % 100_003) h.update(bytes.subarray(off, off + step));
        expect([c.name, h.digestHex()]).toEqual([c.name, c.sha256]);
      }
      expect(sha256ManySync(cases.map(inputOf))).toEqual(cases.map((c) => c.sha256));
      expect(sha256ManySync([])).toEqual([]);
    });

    it('through the engine: strings, bytes, Blobs and streams', async () => {
      await using cg = await createCtxgate();
      expect(await cg.sha256Hex('abc')).toBe(SHA256_ABC);
      expect(await cg.sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(SHA256_ABC);
      expect(await cg.sha256Hex(new Blob(['a', 'bc']))).toBe(SHA256_ABC);
      expect(await cg.sha256Hex(new Blob(['ab', 'c']).stream())).toBe(SHA256_ABC);
      const million = (sha256Vectors.cases as Sha256Case[]).find((c) => c.count === 1_000_000)!;
      expect(await cg.sha256Hex(new Blob([inputOf(million)]))).toBe(million.sha256);
      expect(await cg.sha256Many(['abc', ''])).toEqual([SHA256_ABC, 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855']);
    });

    it('a finished hasher refuses more input with a typed error', async () => {
      await initCore();
      const h = createSha256Sync().update('x');
      h.digestHex();
      let thrown: unknown;
      try {
        h.update('y');
      } catch (e) {
        thrown = e;
      }
      expect(isCtxgateError(thrown, 'INVALID_PARAMS')).toBe(true);
    });
  });

  describe(`canonicalize and fingerprint (${runtime})`, () => {
    it('RFC 8785 samples canonicalize exactly', () => {
      for (const c of jcsVectors.cases) expect([c.name, canonicalize(JSON.parse(c.inputJson))]).toEqual([c.name, c.canonical]);
    });

    it('RFC 8785 Appendix B numbers serialise exactly', () => {
      for (const n of jcsVectors.numbers) expect([n.ieeeHex, canonicalize(doubleFromHex(n.ieeeHex))]).toEqual([n.ieeeHex, n.canonical]);
    });

    it('refuses what JCS cannot represent, with UNSUPPORTED_VALUE and the path', () => {
      for (const hex of jcsVectors.rejectedNumbers) expect(isCtxgateError(refuse({ a: [doubleFromHex(hex)] }), 'UNSUPPORTED_VALUE')).toBe(true);
      const cyclic: Record<string, unknown> = { a: 1 };
      cyclic.self = { back: cyclic };
      const cases: [unknown, string][] = [
        [[1, undefined], '$[1]'],
        [undefined, '$'],
        [{ n: 10n }, '$.n'],
        [cyclic, '$.self.back'],
        [{ s: 'ok\ud800' }, '$.s'],
        [{ ['k\udc00']: 1 }, '$ (member name)'],
        [{ m: new Map() }, '$.m'],
        [{ t: new Uint8Array(2) }, '$.t'],
        [[() => 1], '$[0]'],
        [{ sym: Symbol('x') }, '$.sym'],
      ];
      for (const [value, path] of cases) {
        const error = refuse(value);
        expect(isCtxgateError(error, 'UNSUPPORTED_VALUE')).toBe(true);
        expect((error as { details: { path: string } }).details.path).toBe(path);
      }
    });

    it('writes 1,000 levels of nesting and refuses 1,001, the same in every runtime', async () => {
      await initCore();
      let v: unknown = 1;
      for (let i = 0; i < 1000; i++) v = [v];
      expect(fingerprintSync(v)).toBe(sha256HexSync('['.repeat(1000) + '1' + ']'.repeat(1000)));
      const error = refuse([v]);
      expect(isCtxgateError(error, 'UNSUPPORTED_VALUE')).toBe(true);
      expect((error as { details: { path: string } }).details.path).toBe('$' + '[0]'.repeat(1000));
      // Far deeper data is refused the same way, before any engine's stack runs out.
      for (let i = 0; i < 4000; i++) v = { a: v };
      await using cg = await createCtxgate();
      await expect(cg.fingerprint(v)).rejects.toMatchObject({ code: 'UNSUPPORTED_VALUE' });
      expect(sha256HexSync('abc')).toBe(SHA256_ABC);
    });

    it('omits undefined members, honours toJSON, and is key-order independent', async () => {
      await initCore();
      expect(canonicalize({ b: 1, a: undefined, d: new Date(0) })).toBe('{"b":1,"d":"1970-01-01T00:00:00.000Z"}');
      expect(canonicalize(Object.assign(Object.create(null), { z: -0, y: [] }))).toBe('{"y":[],"z":0}');
      const a = fingerprintSync({ x: 1, y: [true, 'é'] });
      const b = fingerprintSync({ y: [true, 'é'], x: 1 });
      expect(a).toBe(b);
      // fingerprint = SHA-256 of the canonical UTF-8 bytes
      expect(a).toBe(sha256HexSync('{"x":1,"y":[true,"é"]}'));
      expect(fingerprintSync({})).toBe('44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
    });

    it('the engine fingerprints the same as the synchronous path', async () => {
      await using cg = await createCtxgate();
      const value = JSON.parse(jcsVectors.cases[0]!.inputJson);
      await initCore();
      expect(await cg.fingerprint(value)).toBe(fingerprintSync(value));
      const error = await cg.fingerprint({ bad: Number.NaN }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isCtxgateError(error, 'UNSUPPORTED_VALUE')).toBe(true);
    });
  });

  describe(`block order (${runtime})`, () => {
    it('every committed block list sorts to its expected order, in the core and through the engine', async () => {
      await initCore();
      await using cg = await createCtxgate();
      for (const c of orderVectors.cases) {
        const blocks = c.blocks as BlockSortKey[];
        expect([c.name, Array.from(sortBlockKeysSync(blocks))]).toEqual([c.name, c.order]);
        expect([c.name, Array.from(await cg.sortBlockKeys(blocks))]).toEqual([c.name, c.order]);
      }
    });

    it('an unknown priority or block type is INVALID_PARAMS naming the field', async () => {
      await initCore();
      for (const [bad, field] of [
        [{ priority: 'P4', blockType: 'file', key: 'a' }, 'priority'],
        [{ priority: 'P0', blockType: 'image', key: 'a' }, 'blockType'],
      ] as const) {
        let thrown: unknown;
        try {
          sortBlockKeysSync([bad as unknown as BlockSortKey]);
        } catch (e) {
          thrown = e;
        }
        expect(isCtxgateError(thrown, 'INVALID_PARAMS')).toBe(true);
        expect((thrown as { details: { field: string } }).details.field).toBe(field);
      }
      expect(Array.from(sortBlockKeysSync([]))).toEqual([]);
    });
  });
}
