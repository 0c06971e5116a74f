// The component answers exactly as the SDK's own core does: one suite, run against the
// jco-transpiled component in Node (component.test.ts) and in workerd (component.workerd.test.ts).
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { crc32, utf8Check } from '../../src/core/checksum.ts';
import { sha256BytesSync, sha256HexSync, sha256ManySync } from '../../src/core/sha256.ts';
import { BLOCK_TYPE_ORDER, PRIORITIES, sortBlockKeysSync, type BlockSortKey } from '../../src/core/sort.ts';
import { scanSecretBytes } from '../../src/core/scan.ts';
import { estimateTokens, estimatorVersion } from '../../src/core/tokens.ts';
import { RULES } from '../../src/secrets/rules.generated.ts';
import { rules as ruleDefinitions } from '../../build/rules/index.mjs';
import sha256Vectors from '../vectors/sha256.json' with { type: 'json' };
import orderVectors from '../vectors/block-order.json' with { type: 'json' };
import type { Harness } from '../contract/harness.ts';
import type { ComponentBlockKey, CtxgateComponent } from './world.ts';

const enc = new TextEncoder();
const hex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');

interface Sha256Case {
  name: string;
  text?: string;
  repeat?: string;
  count?: number;
  extra?: string;
  sha256: string;
}

function vectorBytes(c: Sha256Case): Uint8Array {
  return enc.encode(c.text ?? (c.repeat ?? '').repeat(c.count ?? 0) + (c.extra ?? ''));
}

function toComponentKey(b: BlockSortKey): ComponentBlockKey {
  return { priority: PRIORITIES.indexOf(b.priority), blockTypeRank: BLOCK_TYPE_ORDER.indexOf(b.blockType), key: b.key };
}

/** The err payload of a `result` export (jco throws it as a ComponentError), or a marker if it returned. */
function errOf(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return (error as { payload?: unknown }).payload;
  }
  return 'returned ok';
}

/** Texts the secret scanner and the token estimator are compared on: every rule example plus prose. */
function sampleTexts(): string[] {
  const texts: string[] = [];
  for (const rule of ruleDefinitions) {
    for (const ex of rule.examples.pos) texts.push(ex.text);
    texts.push(...rule.examples.neg);
  }
  texts.push(
    '',
    'Hello, world!',
    'héllo wörld — naïve café, 中文字符 and 日本語のテキスト, 한국어, עברית, العربية, हिन्दी 😀👍🏽',
    'function add(a: number, b: number): number {\n  return a + b;\n}\n\nexport { add };\n',
    '    indented\n\n\n\ttabs\r\nand CRLF   trailing   ',
    'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0NTY3ODkrLw==' + 'deadbeef'.repeat(20),
    `config:\n  aws_secret_access_key = "${'wJalrXUtnFEMI/K7MDENG/bPxRfiCY' + 'Q2wE3rT4yU5iO'}"\n  password: hunter2hunter2\n`,
  );
  return texts;
}

/** The shared harness, with messages on `expect` (Vitest's takes one; the vectors name each case). */
export interface ComponentHarness extends Omit<Harness, 'expect'> {
  expect: (value: unknown, message?: string) => any;
}

/** The component contract: same bytes in, same answers out as the SDK's core, plus the err results. */
export function componentContract({ describe, it, expect, runtime }: ComponentHarness, load: () => Promise<CtxgateComponent>): void {
  let component: CtxgateComponent;
  const ready = async (): Promise<CtxgateComponent> => {
    if (!component) {
      await initCore();
      component = await load();
    }
    return component;
  };

  describe(`WebAssembly Component, jco-transpiled (${runtime})`, () => {
    it('sha256 / sha256-hex answer every golden vector as the SDK does', async () => {
      const c = await ready();
      for (const v of sha256Vectors.cases as Sha256Case[]) {
        const bytes = vectorBytes(v);
        const digest = c.sha256(bytes);
        expect(digest, v.name).toBeInstanceOf(Uint8Array);
        expect(hex(digest), v.name).toBe(v.sha256);
        expect(hex(digest), v.name).toBe(hex(sha256BytesSync(bytes)));
        expect(c.sha256Hex(bytes), v.name).toBe(sha256HexSync(bytes));
      }
    });

    it('sha256-batch equals the SDK batch, one digest per item in order, empty items and empty batch included', async () => {
      const c = await ready();
      const items = (sha256Vectors.cases as Sha256Case[]).filter((v) => (v.count ?? 0) < 100_000).map(vectorBytes);
      items.push(new Uint8Array(0), enc.encode('abc'));
      const digests = c.sha256Batch(items);
      expect(digests.map(hex)).toEqual(sha256ManySync(items));
      expect(digests.every((d) => d.byteLength === 32)).toBe(true);
      expect(c.sha256Batch([])).toEqual([]);
    });

    it('sha256 and sha256-batch equal the SDK on random bytes', async () => {
      const c = await ready();
      fc.assert(
        fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 8 }), (items) => {
          expect(c.sha256Batch(items).map(hex)).toEqual(sha256ManySync(items));
          for (const item of items) expect(c.sha256Hex(item)).toBe(sha256HexSync(item));
        }),
        { numRuns: 100 },
      );
    });

    it('crc32 known answers, seeds continue a running checksum, and random bytes match the SDK', async () => {
      const c = await ready();
      expect(c.crc32(enc.encode('123456789'), 0)).toBe(0xcbf43926);
      expect(c.crc32(new Uint8Array(0), 0)).toBe(0);
      expect(c.crc32(enc.encode('The quick brown fox jumps over the lazy dog'), 0)).toBe(0x414fa339);
      expect(c.crc32(enc.encode(' world'), c.crc32(enc.encode('hello'), 0))).toBe(c.crc32(enc.encode('hello world'), 0));
      fc.assert(
        fc.property(fc.uint8Array({ maxLength: 500 }), fc.integer({ min: 0, max: 0xffffffff }), (bytes, seed) => {
          expect(c.crc32(bytes, seed)).toBe(crc32(bytes, seed));
        }),
        { numRuns: 100 },
      );
    });

    it('utf8-check: ok is the code point count, err is the offset of the first invalid byte, as the SDK says', async () => {
      const c = await ready();
      expect(c.utf8Check(enc.encode('hé😀'))).toBe(3);
      expect(c.utf8Check(new Uint8Array(0))).toBe(0);
      const bad: [number[], number][] = [
        [[0x61, 0xff], 1],
        [[0xc0, 0x80], 0],
        [[0x61, 0x62, 0xed, 0xa0, 0x80], 2],
        [[0xf4, 0x90, 0x80, 0x80], 0],
        [[0x61, 0xe2, 0x82], 1],
      ];
      for (const [bytes, at] of bad) {
        expect(errOf(() => c.utf8Check(new Uint8Array(bytes))), JSON.stringify(bytes)).toBe(at);
        expect(utf8Check(new Uint8Array(bytes)).invalidAt).toBe(at);
      }
      fc.assert(
        fc.property(fc.oneof(fc.uint8Array({ maxLength: 64 }), fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => enc.encode(s))), (bytes) => {
          const sdk = utf8Check(bytes);
          if (sdk.valid) expect(c.utf8Check(bytes)).toBe(sdk.codePoints);
          else expect(errOf(() => c.utf8Check(bytes))).toBe(sdk.invalidAt);
        }),
        { numRuns: 200 },
      );
    });

    it('sort-blocks answers every block-order vector as the SDK does', async () => {
      const c = await ready();
      for (const v of orderVectors.cases) {
        const blocks = v.blocks as BlockSortKey[];
        const order = c.sortBlocks(blocks.map(toComponentKey));
        expect(Array.from(order), v.name).toEqual(v.order);
        expect(Array.from(order), v.name).toEqual(Array.from(sortBlockKeysSync(blocks)));
      }
      expect(Array.from(c.sortBlocks([]))).toEqual([]);
    });

    it('sort-blocks equals the SDK on random blocks (ties, shared prefixes, astral keys)', async () => {
      const c = await ready();
      const block = fc.record({
        priority: fc.constantFrom(...PRIORITIES),
        blockType: fc.constantFrom(...BLOCK_TYPE_ORDER),
        key: fc.oneof(fc.constantFrom('', 'a', 'src/a.ts', 'src/a.tsx', 'src/components/button/index.ts'), fc.string({ unit: 'grapheme', maxLength: 20 })),
      });
      fc.assert(
        fc.property(fc.array(block, { maxLength: 40 }), (blocks) => {
          expect(Array.from(c.sortBlocks(blocks.map(toComponentKey)))).toEqual(Array.from(sortBlockKeysSync(blocks)));
        }),
        { numRuns: 100 },
      );
    });

    it('sort-blocks returns err naming the first item with an out-of-range priority or block-type rank', async () => {
      const c = await ready();
      const ok = { priority: 0, blockTypeRank: 0, key: 'a' };
      expect(errOf(() => c.sortBlocks([ok, { priority: 4, blockTypeRank: 0, key: 'b' }]))).toBe('items[1].priority must be 0..3 (P0..P3), got 4');
      expect(errOf(() => c.sortBlocks([{ priority: 3, blockTypeRank: 7, key: 'x' }, { priority: 9, blockTypeRank: 0, key: 'y' }]))).toBe(
        'items[0].block-type-rank must be 0..6 (system, constraints, project_meta, file, symbol, error_context, diff_hint), got 7',
      );
      expect(errOf(() => c.sortBlocks([{ priority: 255, blockTypeRank: 255, key: '' }]))).toMatch(/^items\[0\]\.priority must be 0\.\.3/);
      // The component is still usable after an err result.
      expect(Array.from(c.sortBlocks([ok]))).toEqual([0]);
    });

    it('scan-secrets returns the core scanner matches the SDK gets, on every rule example', async () => {
      const c = await ready();
      const texts = sampleTexts();
      let total = 0;
      for (const text of texts) {
        const sdk = scanSecretBytes(text, RULES.length).matches.map((m) => ({
          ruleIndex: m.rule,
          ruleId: RULES[m.rule]!.id,
          confidence: m.confidence === 1 ? 'high' : 'medium',
          start: m.start,
          end: m.end,
        }));
        expect(c.scanSecrets(enc.encode(text)), text.slice(0, 60)).toEqual(sdk);
        total += sdk.length;
      }
      // The examples really exercise the scanner (every rule has positive examples).
      expect(total).toBeGreaterThanOrEqual(RULES.length);
      const [first] = c.scanSecrets(enc.encode('key: AKIA' + 'Z7QRSTUVWXYZ2345'));
      expect(first).toEqual({ ruleIndex: 0, ruleId: 'aws-access-key-id', confidence: 'high', start: 5, end: 25 });
      expect(c.scanSecrets(new Uint8Array(0))).toEqual([]);
    });

    it('secret-rules lists the SDK rule table in index order', async () => {
      const c = await ready();
      expect(c.secretRules()).toEqual(RULES.map((r) => ({ id: r.id, description: r.description, confidence: r.confidence })));
    });

    it('estimate-tokens equals the SDK estimate for both encodings', async () => {
      const c = await ready();
      expect(c.estimatorVersion()).toBe(estimatorVersion());
      for (const text of sampleTexts()) {
        expect(c.estimateTokens(text, 'o200k-base'), text.slice(0, 60)).toBe(estimateTokens(text, { encoding: 'o200k_base' }).tokens);
        expect(c.estimateTokens(text, 'cl100k-base'), text.slice(0, 60)).toBe(estimateTokens(text, { encoding: 'cl100k_base' }).tokens);
      }
      expect(c.estimateTokens('', 'o200k-base')).toBe(0);
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme', maxLength: 200 }), (text) => {
          expect(c.estimateTokens(text, 'o200k-base')).toBe(estimateTokens(text, { encoding: 'o200k_base' }).tokens);
        }),
        { numRuns: 100 },
      );
    });
  });
}
