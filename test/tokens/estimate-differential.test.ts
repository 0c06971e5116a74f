// Differential test of the estimator's single-pass core against the frozen reference build of
// ctxgate-est/1 (test/tokens/reference/*.as, compiled here with asc). The rewrite was for speed
// only: every text must get exactly the estimate it got before, on real files and on fuzzed text.
// Node only (it reads the corpus from node_modules and runs the compiler).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { initCore } from '../../src/core/core.ts';
import { estimateTokens } from '../../src/core/tokens.ts';
import type { TokenEncoding } from '../../src/tokens/encoding.ts';
// @ts-expect-error: build-time JavaScript module without type declarations
import { loadCorpus } from '../../build/calibration/corpus.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const refDir = join(root, 'test', 'tokens', 'reference');
const ENCODINGS: readonly TokenEncoding[] = ['o200k_base', 'cl100k_base'];
const ENC_CODE: Record<TokenEncoding, number> = { o200k_base: 0, cl100k_base: 1 };

type Reference = (text: string, encoding: TokenEncoding) => number;

/** Compiles the reference sources (served from their .as files) and returns its estimate. */
async function compileReference(): Promise<Reference> {
  let wasm: Uint8Array | undefined;
  const { error, stderr } = await asc.main(
    ['test/tokens/reference/entry.ts', '-O3', '--runtime', 'incremental', '--use', 'abort=', '--outFile', 'reference.wasm'],
    {
      readFile(filename: string, baseDir: string) {
        const path = resolve(root, baseDir, filename);
        // Only the flags above: not the project's asconfig.json targets.
        if (path.endsWith('asconfig.json')) return null;
        // The reference modules are stored as .as so that tsc does not type-check them.
        const source = path.startsWith(refDir) ? path.replace(/\.ts$/, '.as') : path;
        try {
          return readFileSync(source, 'utf8');
        } catch {
          return null;
        }
      },
      writeFile(filename: string, contents: Uint8Array | string) {
        if (filename.endsWith('.wasm') && typeof contents !== 'string') wasm = contents;
      },
      listFiles: () => [],
    },
  );
  if (error || !wasm) throw new Error(`reference build failed: ${error?.message ?? 'no output'}\n${stderr.toString()}`);
  const instance = await WebAssembly.instantiate(await WebAssembly.compile(new Uint8Array(wasm)), {});
  const x = instance.exports as unknown as {
    memory: WebAssembly.Memory;
    refInput(len: number): number;
    tokensEstimate(ptr: number, len: number, enc: number): number;
  };
  const encoder = new TextEncoder();
  return (text, encoding) => {
    const cap = text.length * 3;
    const ptr = x.refInput(cap);
    const { written } = encoder.encodeInto(text, new Uint8Array(x.memory.buffer, ptr, cap));
    return x.tokensEstimate(ptr, written, ENC_CODE[encoding]) >>> 0;
  };
}

// Fragments that reach every branch of the pre-tokeniser: cases and caseless letters, marks,
// digits, contractions, spaces and newlines of every kind, punctuation runs, blob-like runs,
// scripts of every word class, astral and lone-surrogate characters, invalid-ish boundaries.
const FRAGMENTS = [
  'a', 'Z', 'hello', 'World', 'HTTPServer', 'x9', 'AbC', ' ', '  ', '\t', '\n', '\r\n', '\n\n', '\u00a0',
  '\u3000', '\u2028', '\u0085', '\u1680', '\ufeff', '\u200b', '0', '7', '123', '4567', "'s", "'LL", "'re",
  "'", '/', '//', '.', '...', ',', '==', '+', '{"a":1}', '=>', '<|endoftext|>', 'dGVzdA', 'QUJD+/9=',
  'deadbeef', '0123456789abcdef', 'é', 'É', 'ß', 'ǅ', 'ʰ', '\u0301', 'ª', '²', '½', 'Ω', 'ά', 'ж', 'Ж',
  'Ա', 'ա', 'ა', 'א', '\u05b7', 'ع', '\u064b', '٣', 'क', '\u093f', '\u094d', '५', 'ก', '\u0e31', '๓',
  '中', '文字', 'あ', 'カタカナ', 'ｶ', '한국', 'ᄀ', 'ａ', 'Ａ', '１', '😀', '👍🏽', '𝐀', '𠀀', '\ud800',
  '\udc00', '©', '→', '∑', '①', 'Ⅻ', '\u20dd', '\ufe0f', '\u{e0101}',
];

const fragmentText = fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 80 }).map((parts) => parts.join(''));
// Runs of the base64/hex alphabet near the blob thresholds (64 bytes, 4 pieces that start with a
// digit): few or many digit pieces, long or short runs, broken or not by other bytes.
const blobText = fc
  .tuple(
    fc.array(fc.constantFrom('abc', 'XYZ', 'q', 'Qz', '+', '/', '=', '==', '7', '42', '901', '5a', 'deadbeef'), { minLength: 4, maxLength: 60 }),
    fc.constantFrom('', ' ', '\n', '-', 'x'),
  )
  .map(([parts, sep]) => `key${sep}${parts.join('')}${sep}end`);

// The core reads eight bytes at a time (a piece's window, runs, blob stretches in aligned blocks of
// 32): pieces of 1 to 12 ASCII characters of every kind, so that runs end on every lane of a word
// and just past it, with contractions, tails of newlines and slashes, and now and then a non-ASCII
// character where it decides the piece.
const windowText = fc
  .array(
    fc.oneof(
      fc.tuple(fc.constantFrom('a', 'Z', 'q', 'M'), fc.integer({ min: 1, max: 12 })).map(([c, n]) => c.repeat(n)),
      fc.constantFrom('camelCase', 'HTTPServer', 'ABCDEFGHIJ', 'abcdefghijk', 'Word', "it's", "WE'LL", "x'd", 'don', "'re"),
      fc.constantFrom(' ', '  ', '\t', '\n', '\r\n', ' \n  ', '\n\n    ', '        ', '         ', '\u000b', '\u000c'),
      fc.constantFrom('(', ');', '});\n', '=>', '//', '/*', ' =', ' {', '.', '...', '"', "'", '/\n/', ';\n\n', '========'),
      fc.constantFrom('0', '12', '345', '6789', '1234567'),
      fc.constantFrom('é', '中', '\u0301', 'ж', '٣', '\u00a0', '😀', '\ud800'),
    ),
    { minLength: 1, maxLength: 60 },
  )
  .map((parts) => parts.join(''));

// Blob-alphabet stretches around the 64-byte threshold, at every alignment, next to pieces that
// start before them or run past them, and at the start and end of the text.
const stretchText = fc
  .tuple(
    fc.string({ unit: fc.constantFrom('x', ' ', '.', '\n', '中'), maxLength: 40 }),
    fc.array(fc.tuple(fc.integer({ min: 40, max: 140 }), fc.constantFrom('', ' ', '-', '"', '\n', 'é')), { minLength: 1, maxLength: 4 }),
    fc.integer({ min: 0, max: 1 << 30 }),
  )
  .map(([pad, runs, seed]) => {
    let z = seed;
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';
    const next = () => (z = (Math.imul(z, 1103515245) + 12345) >>> 0) % alphabet.length;
    return pad + runs.map(([n, sep]) => Array.from({ length: n }, () => alphabet[next()]).join('') + sep).join('');
  });

// Words of several scripts, cases, caseless letters and marks: the word scanners keep the word's
// script while they read it, including when o200k gives the run back to its last caseless letter
// and drops the upper-case letters after it (`ʰЖ.`: a Latin caseless letter, a Cyrillic capital).
const scriptText = fc
  .array(
    fc.constantFrom('A', 'a', 'É', 'é', 'Ж', 'ж', 'Ω', 'ω', 'あ', 'カ', '中', '한', 'क', '\u093f', 'ع', 'ก', '\u0301', 'ǅ', 'ʰ', 'ª', '𝐀', '𠀀', 'ʰЖ', 'ªΩ', 'ʰÉЖ', "'s", ' ', '1', '.'),
    { minLength: 1, maxLength: 40 },
  )
  .map((parts) => parts.join(''));

describe('ctxgate-est/1 single-pass core vs the frozen reference', () => {
  let reference: Reference;

  beforeAll(async () => {
    await initCore();
    reference = await compileReference();
  }, 120_000);

  const same = (text: string) => {
    for (const encoding of ENCODINGS) {
      const expected = reference(text, encoding);
      const actual = estimateTokens(text, { encoding }).tokens;
      if (actual !== expected) return { encoding, expected, actual, text: text.slice(0, 120) };
    }
    return undefined;
  };

  it('the reference is the model of the goldens', () => {
    expect(reference('hello world', 'o200k_base')).toBe(2);
    expect(reference('The quick brown fox jumps over the lazy dog.', 'cl100k_base')).toBe(10);
    expect(reference('', 'o200k_base')).toBe(0);
  });

  it('gives the same estimate for every real document of both corpus sides', () => {
    const docs = [...loadCorpus('calibration', root), ...loadCorpus('evaluation', root)] as { name: string; text: string }[];
    expect(docs.length).toBeGreaterThan(800);
    const mismatches = [];
    for (const doc of docs) {
      const m = same(doc.text);
      if (m) mismatches.push({ name: doc.name, ...m });
      // Slices cut pieces and UTF-8 sequences at arbitrary points.
      for (const cut of [1, 7, 64, 1000]) {
        const s = same(doc.text.slice(cut, cut + 777));
        if (s) mismatches.push({ name: `${doc.name}@${cut}`, ...s });
      }
    }
    expect(mismatches.slice(0, 5)).toEqual([]);
  }, 120_000);

  it('gives the same estimate for fuzzed text made of tricky fragments', () => {
    fc.assert(fc.property(fragmentText, (text) => same(text) === undefined), { numRuns: 20_000, seed: 0x5eed });
  }, 120_000);

  it('gives the same estimate for long base64/hex runs (blob relabelling)', () => {
    fc.assert(fc.property(blobText, (text) => same(text) === undefined), { numRuns: 3_000, seed: 0xb10b });
  }, 60_000);

  it('gives the same estimate for arbitrary code units, including lone surrogates', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => same(text) === undefined), { numRuns: 10_000, seed: 7 });
    fc.assert(fc.property(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 120 }), (text) => same(text) === undefined), {
      numRuns: 10_000,
      seed: 11,
    });
  }, 120_000);

  it('gives the same estimate around the eight-byte windows of the ASCII path', () => {
    fc.assert(fc.property(windowText, (text) => same(text) === undefined), { numRuns: 20_000, seed: 0x8b17e });
  }, 120_000);

  it('gives the same estimate around blob-alphabet stretches of every length and alignment', () => {
    fc.assert(fc.property(stretchText, (text) => same(text) === undefined), { numRuns: 5_000, seed: 0x5717c });
  }, 120_000);

  it('gives the same estimate for words mixing scripts, cases and marks', () => {
    fc.assert(fc.property(scriptText, (text) => same(text) === undefined), { numRuns: 10_000, seed: 0x5c417 });
  }, 60_000);

  it('gives the same estimate for long single pieces (the uncached greedy path)', () => {
    const long = fc.tuple(fc.constantFrom('a', 'Z', '中', 'ж', 'क', '=', '-', ' ', '1'), fc.integer({ min: 30, max: 400 })).map(([c, n]) => c.repeat(n));
    fc.assert(fc.property(long, (text) => same(text) === undefined), { numRuns: 2_000, seed: 3 });
  }, 60_000);
});
