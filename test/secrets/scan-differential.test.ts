// Differential test of the secret scanner against frozen references of itself: the core as it was
// before the SIMD prefilter (test/secrets/reference/scan-before.as, compiled here with asc over the
// same compiled rule tables) and the host pipeline as it was before its speed work
// (reference/find-before.ts). The rewrites were for speed only: every match of the core and every
// finding (rule, confidence, start, end, line, column) must be exactly what it was, on the benchmark
// corpus and on fuzzed text with planted secrets. Node only (it runs the compiler).
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import asc from 'assemblyscript/asc';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { rules } from '../../build/rules/index.mjs';
// @ts-expect-error: benchmark JavaScript module without type declarations
import { generateSecretsCorpus } from '../../bench/corpus/secrets-gen.mjs';
import { initCore } from '../../src/core/core.ts';
import { scanSecretBytes, scanSecretText, type RawSecretMatch } from '../../src/core/scan.ts';
import { scanSecrets } from '../../src/secrets/scan.ts';
import { RULES } from '../../src/secrets/rules.generated.ts';
import type { ScanOptions } from '../../src/secrets/types.ts';
import { PLACEHOLDER_FRAGMENTS } from '../../src/secrets/filters.ts';
import { findSecretsBefore } from './reference/find-before.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const refDir = join(root, 'test', 'secrets', 'reference');

interface Reference {
  /** Matches in UTF-8 byte offsets. */
  bytes(text: string): RawSecretMatch[];
  /** Matches in UTF-16 offsets, as the host asks for them. */
  text(text: string): { matches: RawSecretMatch[] };
}

/** Compiles the frozen core (served from its .as files) and wraps its two scan modes. */
async function compileReference(): Promise<Reference> {
  let wasm: Uint8Array | undefined;
  const { error, stderr } = await asc.main(
    ['test/secrets/reference/entry.ts', '-O3', '--runtime', 'incremental', '--use', 'abort=', '--outFile', 'reference.wasm'],
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
    ioInput(len: number): number;
    ioOutput(): number;
    secretScan(ptr: number, len: number): number;
    secretOffsetsUtf16(count: number): void;
  };
  const encoder = new TextEncoder();
  const run = (text: string, utf16: boolean): RawSecretMatch[] => {
    const cap = text.length * 3;
    const ptr = x.ioInput(cap);
    const { written } = encoder.encodeInto(text, new Uint8Array(x.memory.buffer, ptr, cap));
    const n = x.secretScan(ptr, written);
    if (utf16 && n > 0 && written !== text.length) x.secretOffsetsUtf16(n);
    const words = new Uint32Array(x.memory.buffer, x.ioOutput(), n * 4);
    const out: RawSecretMatch[] = [];
    for (let k = 0; k < n; k++) {
      out.push({ rule: words[k * 4]!, start: words[k * 4 + 1]!, end: words[k * 4 + 2]!, confidence: words[k * 4 + 3] === 1 ? 1 : 2 });
    }
    return out;
  };
  return { bytes: (text) => run(text, false), text: (text) => ({ matches: run(text, true) }) };
}

// Pieces of fuzzed text: every rule's positive and negative examples, keywords on their own and
// glued to values, separators, CRLF, non-ASCII (2-, 3- and 4-byte UTF-8, lone surrogates), long
// runs of key-like characters and filler that moves everything across 16-byte block boundaries.
const examples = rules.flatMap((r) => [...r.examples.pos.map((p) => p.text), ...r.examples.neg]);
const keywords = [...new Set(rules.flatMap((r) => r.keywords))];
const PIECES = [
  ' ', '  ', '\n', '\r\n', '\t', '=', ': ', '"', "'", '`', ',', ';', '.', '/', '-', '_', '://', '@', '$', '{', '}', '(', ')', '[', ']',
  'x', 'A', '7', 'abc', 'Q', 'ZZ', 'é', '日本', '😀', '\ud800', '\udc00', 'ünïcödé', '\u00a0', '\u2028',
  'a'.repeat(17), '-'.repeat(12), 'A'.repeat(40), '0123456789abcdef0123456789abcdef', 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij0123456789+/=',
  'token', 'Token=', 'password', 'PASSWORD="', 'path=/api', 'secret_key: ', 'api-key', 'sk-', 'ghp_', 'eyJ', 'xoxb-', 'Bearer ', '-----BEGIN',
  'postgres://user:', '@db:5432/app', 'data:image/png;base64,', 'xxxx', 'EXAMPLE', '${', '{{', 'process.env.', 'sha256-', 'aaaaaaa',
  'change-me', 'test-password', '%env(', ')%', '$$', '@@', 'Server=db;', 'curl -u ', ' -p', '&amp;', '<password>', 'export ', 'ENV ', ', default=', "config('SECRET_KEY'", '</key>', '<string>', 'android:value="', 'btoa(\'', 'WiFi.',
  'cast=str, ', 'cast=bool,\n    ', 'htpasswd -nb ', '"Authorization", "Basic ', 'Authorization "Basic ',
];
const fragment = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...PIECES) },
  { weight: 2, arbitrary: fc.constantFrom(...examples) },
  { weight: 2, arbitrary: fc.constantFrom(...keywords) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 24 }) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Za-z0-9_\-+/=]{8,120}$/) },
);
const fuzzText = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''));

describe('secret scanner vs the frozen references', () => {
  let reference: Reference;

  beforeAll(async () => {
    await initCore();
    reference = await compileReference();
  }, 120_000);

  /** The first difference between the current scanner and the reference on `text`, if any. */
  const differ = (text: string, options?: ScanOptions) => {
    const bytes = scanSecretBytes(text, RULES.length).matches;
    const refBytes = reference.bytes(text);
    if (JSON.stringify(bytes) !== JSON.stringify(refBytes)) return { what: 'core matches (bytes)', actual: bytes, expected: refBytes };
    const utf16 = scanSecretText(text, RULES.length).matches.map(({ rule, start, end, confidence }) => ({ rule, start, end, confidence }));
    const refUtf16 = reference.text(text).matches;
    if (JSON.stringify(utf16) !== JSON.stringify(refUtf16)) return { what: 'core matches (UTF-16)', actual: utf16, expected: refUtf16 };
    const findings = scanSecrets(text, options);
    const refFindings = findSecretsBefore(text, reference.text, options);
    if (JSON.stringify(findings) !== JSON.stringify(refFindings)) return { what: 'findings', actual: findings, expected: refFindings };
    return undefined;
  };

  it('the reference is the model of the rules', () => {
    const gh = 'ghp_' + 'Zq8mK2vX9pL4nR7tY1wE3sD6fG0hJ5kA2bC4';
    expect(findSecretsBefore(`é\r\ntoken: ${gh}`, reference.text)).toEqual([
      { ruleId: 'github-pat', confidence: 'high', start: 10, end: 50, line: 2, column: 8 },
    ]);
  });

  it('finds exactly the same on every file of the benchmark corpus', () => {
    const { files } = generateSecretsCorpus() as { files: { path: string; text: string }[] };
    expect(files.length).toBeGreaterThan(400);
    const mismatches = [];
    let findings = 0;
    for (const f of files) {
      const d = differ(f.text);
      if (d) mismatches.push({ path: f.path, ...d });
      findings += scanSecrets(f.text).length;
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
    expect(findings).toBeGreaterThan(1000);
  }, 120_000);

  it('finds exactly the same in fuzzed text with planted secrets', () => {
    fc.assert(
      fc.property(fuzzText, (text) => {
        expect(differ(text)).toBeUndefined();
      }),
      { numRuns: 4_000, seed: 0x5ec2e7 },
    );
  }, 120_000);

  it('reads a quoted value to its closing quote, whatever printable characters and escapes it holds (property)', () => {
    // The follow filter's quoted rows against the reference (which has no follow filter), and the
    // value read whole: a finding in a quoted value is the whole value, never a head that leaves
    // the rest of a password in the text.
    const forms: [string, string][] = [
      ['{"password": "', '"}'],
      ["db_password = '", "'"],
      ['const apiToken = `', '`;'],
      ['  client_secret: "', '"\n'],
      ['env("API_KEY", "', '")'],
    ];
    // Printable characters, and escapes: a backslash and the printable character after it, the
    // quote included (`\"` in "…"). A lone backslash is not drawn: it would escape what follows.
    const printable = '!#$%&()*+,-./:;<=>?@[]^_{|}~"\'`ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
    const piece = fc.oneof({ weight: 9, arbitrary: fc.constantFrom(...printable) }, { weight: 1, arbitrary: fc.constantFrom(...printable, '\\').map((c) => `\\${c}`) });
    fc.assert(
      fc.property(fc.constantFrom(...forms), fc.array(piece, { minLength: 12, maxLength: 48 }), ([open, close], pieces) => {
        const quote = open[open.length - 1]!;
        const value = pieces.filter((c) => c !== quote).join('');
        const text = `${open}${value}${close}`;
        expect(differ(text)).toBeUndefined();
        for (const f of scanSecrets(text)) expect([f.start, f.end]).toEqual([open.length, open.length + value.length]);
      }),
      { numRuns: 2_000, seed: 0x9007ed },
    );
  });

  it('finds exactly the same at every offset and cut of planted secrets', () => {
    // Every rule's positive examples behind 0..40 bytes of ASCII or non-ASCII filler, cut short at
    // the end: keywords and values land at every position of a 16-byte block and at the input's end.
    const mismatches = [];
    for (const text of examples) {
      for (let pad = 0; pad <= 40; pad += 3) {
        for (const filler of ['x', ' ', 'é', '\n']) {
          const t = filler.repeat(pad) + text;
          for (const cut of [t.length, t.length - 1, t.length - 5]) {
            const d = differ(t.slice(0, cut));
            if (d) mismatches.push({ text: t.slice(0, cut), ...d });
          }
        }
      }
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
  }, 120_000);

  it('judges placeholders exactly as before (the core sees fragments and runs on ASCII values)', () => {
    // Every fragment, in both cases, at the start, middle and end of values of rules whose values
    // can hold it, in ASCII and non-ASCII values; and runs of six.
    const mismatches = [];
    // Short fragments in mixed case too (xXxx, tOdO: no stand-in; Xxxx, Todo: one).
    const mixed = ['xXxx', 'XxxX', 'Xxxx', 'tOdO', 'Todo', 'ToDo', 'eXaMpLe'];
    const inserts = [...PLACEHOLDER_FRAGMENTS, ...PLACEHOLDER_FRAGMENTS.map((f) => f.toUpperCase()), ...mixed, 'aaaaaa', 'aaaaa', '000000', 'éééééé', 'İnsert_', 'yourto\u212aen'];
    for (const f of inserts) {
      for (const [a, b] of [['', 'K2vX9pL4nQz7Wq'], ['Zq8m', 'K2vX9pL4nQ'], ['Zq8mK2vX9pL4nQ', ''], ['Zé8m', 'K2vX9pL4nQ'], ['Zq8m', 'K2vX9pL4é']]) {
        for (const text of [`x;password=${a}${f}${b};`, `password = "${a}${f}${b}"`, `api_key: ${a}${f}${b}`, `https://u:${a}${f}${b}@db.example.org/x`]) {
          const d = differ(text);
          if (d) mismatches.push({ text, ...d });
        }
      }
    }
    expect(mismatches.slice(0, 3)).toEqual([]);
  });

  it('finds exactly the same on adversarial input', () => {
    const make = (unit: string) => unit.repeat(Math.ceil(20_000 / unit.length)).slice(0, 20_000);
    for (const unit of ['a', '-', '-----BEGIN RSA PRIVATE KEY-----\n', 'password=password=', 'ghp_sk-AKIAeyJtoken=xoxb-://', 'Authorization: Bearer ', 'tokentoken ', 'ééé日本😀']) {
      expect(differ(make(unit))).toBeUndefined();
    }
  }, 60_000);

  it('finds exactly the same with rule selections and user rules', () => {
    const options: ScanOptions[] = [
      { denyRules: ['generic-token', 'github-pat'] },
      { allowRules: ['generic-password', 'url-password', 'aws-access-key-id'] },
      { extraRules: [{ id: 'acme-key', prefix: 'acme_', charset: 'A-Za-z0-9', minLength: 8, maxLength: 40 }] },
    ];
    fc.assert(
      fc.property(fuzzText, fc.constantFrom(...options), (text, opts) => {
        expect(differ(`${text} acme_Zx81Kq0PLm3 ${text}`, opts)).toBeUndefined();
      }),
      { numRuns: 600, seed: 0x0b75 },
    );
  }, 120_000);
});
