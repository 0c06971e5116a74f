// The inputs of test/tokens/estimate-vectors.json: real files from installed packages and
// generated adversarial text, in groups. The fixture records what ctxgate-est/1 gives for each
// input (estimate-vectors.gen.ts); estimate-vectors.test.ts checks the shipped core still gives it.
// Everything here is deterministic (sorted paths, a seeded generator, fast-check with fixed seeds),
// and each group's inputs are digested too, so a changed input reads as such, not as a changed
// estimator. Node only: it reads node_modules.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';

/** One group of inputs; `perInput` groups keep every count in the fixture, others a digest. */
export interface VectorGroup {
  name: string;
  perInput: boolean;
  /** Labels (paths) for per-input groups, else indices. */
  labels: string[];
  texts: string[];
}

/** Fixture entry of a group: counts per encoding (or their digest) and the inputs' digest. */
export interface GroupRecord {
  inputs: number;
  inputDigest: string;
  total: [number, number];
  /** Per-input groups: [o200k_base, cl100k_base] per input, in order. */
  counts?: [number, number][];
  /** Other groups: digest of the count sequence. */
  countDigest?: string;
}

/** SHA-256 of a sequence of strings (each length-prefixed), first 16 hex digits. */
export function digestTexts(texts: readonly string[]): string {
  const h = createHash('sha256');
  for (const t of texts) h.update(`${t.length}:`).update(t, 'utf8');
  return h.digest('hex').slice(0, 16);
}

/** Digest of a count sequence. */
export function digestCounts(counts: readonly (readonly number[])[]): string {
  return digestTexts(counts.map((c) => c.join(',')));
}

function walk(dir: string, rel: string, out: string[]): void {
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    if (e.name.startsWith('.') || e.isSymbolicLink()) continue;
    const p = `${rel}/${e.name}`;
    if (e.isDirectory()) walk(join(dir, e.name), p, out);
    else if (e.isFile()) out.push(p);
  }
}

function fileGroup(root: string, name: string, paths: string[]): VectorGroup {
  const nm = join(root, 'node_modules');
  return { name, perInput: true, labels: paths, texts: paths.map((p) => readFileSync(join(nm, p), 'utf8')) };
}

// A small seeded generator (mulberry32): the same numbers in every run and Node version.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RUN_CHARS = [
  'a', 'Z', 'ß', 'é', '1', ' ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u3000', '=', '-', '/', '.', "'", '_', '"', '中', 'ж',
  'क', '\u0301', '😀', '\ud800', '\udfff', 'ab', 'aB', ' a', ' \n', 'a1', '1a', "a's", '+/', 'A9', '\n ',
];
const RUN_LENGTHS = [
  ...Array.from({ length: 34 }, (_, i) => i + 1), 40, 47, 48, 49, 50, 63, 64, 65, 66, 96, 100, 127, 128, 129, 255, 256, 257, 1000, 4099,
];

// Fragments reaching every branch of the pre-tokeniser (cases, caseless letters, marks, digits,
// contractions, every kind of space and newline, punctuation, scripts of every word class, astral
// characters, lone surrogates).
const FRAGMENTS = [
  'a', 'Z', 'hello', 'World', 'HTTPServer', 'x9', 'AbC', ' ', '  ', '\t', '\n', '\r\n', '\r', '\n\n', '\u00a0',
  '\u3000', '\u2028', '\u0085', '\u1680', '\ufeff', '\u200b', '\u000b', '\u000c', '0', '7', '123', '4567', "'s", "'LL", "'re",
  "'", '/', '//', '.', '...', ',', '==', '+', '{"a":1}', '=>', '<|endoftext|>', 'dGVzdA', 'QUJD+/9=', 'deadbeef',
  '0123456789abcdef', 'é', 'É', 'ß', 'ǅ', 'ʰ', '\u0301', 'ª', '²', '½', 'Ω', 'ά', 'ж', 'Ж', 'Ա', 'ա', 'ა', 'א',
  '\u05b7', 'ع', '\u064b', '٣', 'क', '\u093f', '\u094d', '५', 'ก', '\u0e31', '๓', '中', '文字', 'あ', 'カタカナ', 'ｶ',
  '한국', 'ᄀ', 'ａ', 'Ａ', '１', '😀', '👍🏽', '𝐀', '𠀀', '\ud800', '\udc00', '\udbff\udbff', '©', '→', '∑', '①', 'Ⅻ',
  '\u20dd', '\ufe0f', '\u{e0101}', '\u{10ffff}', '\uffff', '\u0000', '\u007f', '\u0080', '\u00ff', '\u0100', '\u07ff',
  '\u0800',
];
const SPACES = [' ', '  ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u3000', '\u2028', '\u2029', '\u1680', '\ufeff', '\u000b', '\u000c', '\u0085', '\u200b', 'x', 'é'];
const BLOB_PARTS = ['abc', 'XYZ', 'q', 'Qz', '+', '/', '=', '==', '7', '42', '901', '5a', 'deadbeef', '0', 'A1b2'];

function generated(seed: number, count: number, make: (r: () => number) => string): string[] {
  const r = rng(seed);
  return Array.from({ length: count }, () => make(r));
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: () => number, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

/** Every input group, in fixture order. `root` is the package root (holds node_modules). */
export function vectorGroups(root: string): VectorGroup[] {
  const groups: VectorGroup[] = [];
  const nm = join(root, 'node_modules');
  for (const pkg of ['zod', 'lodash']) {
    const paths: string[] = [];
    walk(join(nm, pkg), pkg, paths);
    groups.push(fileGroup(root, `files:${pkg}`, paths));
  }
  const diag = 'typescript-compiler-api/lib';
  const langs = readdirSync(join(nm, diag), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  groups.push(fileGroup(root, 'files:ts-diagnostics', langs.map((l) => `${diag}/${l}/diagnosticMessages.generated.json`)));
  groups.push(fileGroup(root, 'files:base64-ranks', ['js-tiktoken/dist/ranks/gpt2.js']));

  // Slices of the translated diagnostics at arbitrary code-unit offsets: pieces and characters
  // (and surrogate pairs) cut anywhere.
  const diagTexts = groups.find((g) => g.name === 'files:ts-diagnostics')!.texts;
  groups.push({
    name: 'slices',
    perInput: false,
    labels: [],
    texts: generated(0x511ce, 2000, (r) => {
      const t = pick(r, diagTexts);
      const at = int(r, 0, t.length - 1);
      return t.slice(at, at + int(r, 1, 700));
    }),
  });

  const runs: string[] = [];
  for (const c of RUN_CHARS) for (const n of RUN_LENGTHS) runs.push(c.repeat(n));
  // Runs inside context: what precedes and follows a run changes its pieces.
  for (const c of RUN_CHARS) for (const n of [1, 2, 3, 31, 32, 33, 64, 65]) for (const [a, b] of [['x', 'y'], [' ', ' '], ['\n', '1'], ['中', 'é']]) runs.push(a + c.repeat(n) + b);
  groups.push({ name: 'runs', perInput: false, labels: [], texts: runs });

  groups.push({
    name: 'whitespace',
    perInput: false,
    labels: [],
    texts: generated(0x5ace, 1500, (r) => Array.from({ length: int(r, 1, 120) }, () => pick(r, SPACES.slice(0, r() < 0.8 ? 16 : SPACES.length))).join('')),
  });
  groups.push({
    name: 'fragments',
    perInput: false,
    labels: [],
    texts: generated(0xf4a9, 4000, (r) => Array.from({ length: int(r, 1, 80) }, () => pick(r, FRAGMENTS)).join('')),
  });
  groups.push({
    name: 'code-units',
    perInput: false,
    labels: [],
    texts: generated(0xc0de, 2000, (r) => {
      // Mostly ASCII, some Latin-1, BMP and surrogates (paired or not), in varying mixes.
      const wide = r();
      return String.fromCharCode(...Array.from({ length: int(r, 1, 300) }, () => (r() < wide ? int(r, 0, 0xffff) : r() < 0.9 ? int(r, 0x20, 0x7e) : int(r, 0, 0xff))));
    }),
  });
  groups.push({
    name: 'code-points',
    perInput: false,
    labels: [],
    texts: generated(0xc0d3, 1500, (r) =>
      String.fromCodePoint(...Array.from({ length: int(r, 1, 150) }, () => {
        const k = r();
        if (k < 0.4) return int(r, 0x20, 0x7e);
        if (k < 0.6) return int(r, 0x80, 0x7ff);
        if (k < 0.85) return int(r, 0x800, 0xffff);
        return int(r, 0x10000, 0x10ffff);
      })),
    ),
  });
  groups.push({
    name: 'digits',
    perInput: false,
    labels: [],
    texts: generated(0xd161, 800, (r) => Array.from({ length: int(r, 1, 60) }, () => pick(r, ['0', '12', '345', '6789', '٣', '१', '１', '²', '½', 'Ⅻ', '.', ',', ' ', 'e', 'x', '-', '\n'])).join('')),
  });
  groups.push({
    name: 'blobs',
    perInput: false,
    labels: [],
    texts: generated(0xb10b, 1500, (r) => {
      const sep = pick(r, ['', ' ', '\n', '-', 'x', '"', '中']);
      return `key${sep}${Array.from({ length: int(r, 4, 70) }, () => pick(r, BLOB_PARTS)).join('')}${sep}end`;
    }),
  });
  groups.push({
    name: 'mixed-scripts',
    perInput: false,
    labels: [],
    texts: generated(0x5c41, 800, (r) => {
      // Words of several scripts, cases and marks, glued or spaced, with punctuation between.
      const words = ['Hello', 'мир', 'Привет', 'κόσμε', 'שלום', 'مرحبا', 'नमस्ते', 'สวัสดี', '你好', '世界', 'こんにちは', 'カタカナ', '안녕하세요', 'Ǆemal', 'naïve', 'e\u0301', 'ABCdef', 'getHTTPResponse', "don't", "WE'LL"];
      return Array.from({ length: int(r, 1, 40) }, () => pick(r, words) + pick(r, ['', ' ', '  ', ', ', '.', '\n', '\r\n', '-', '_', '/', '1', '１'])).join('');
    }),
  });
  groups.push({
    name: 'large',
    perInput: false,
    labels: [],
    texts: [
      groups.find((g) => g.name === 'fragments')!.texts.join(''),
      groups.find((g) => g.name === 'code-points')!.texts.join('\n'),
      groups.find((g) => g.name === 'runs')!.texts.join(''),
      'a'.repeat(200_000),
      ' '.repeat(100_000) + 'x',
      '\n'.repeat(100_000),
      '中'.repeat(100_000),
      '😀'.repeat(50_000),
    ],
  });

  // fast-check with fixed seeds: grapheme strings (every script), binary strings (lone
  // surrogates), and strings over every code unit. Sizes are pinned ('small', as recorded): the
  // test suite's default size is larger (test/setup/fast-check.ts) and would draw other texts.
  const sample = (arb: fc.Arbitrary<string>, seed: number, numRuns: number) => fc.sample(arb, { seed, numRuns });
  groups.push({
    name: 'fast-check',
    perInput: false,
    labels: [],
    texts: [
      ...sample(fc.string({ unit: 'grapheme', maxLength: 200, size: 'small' }), 1, 3000),
      ...sample(fc.string({ unit: 'binary', maxLength: 200, size: 'small' }), 2, 3000),
      ...sample(fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)), maxLength: 120, size: 'small' }), 3, 2000),
      ...sample(fc.string({ unit: 'grapheme-ascii', maxLength: 300, size: 'small' }), 4, 2000),
    ],
  });
  return groups;
}
