// Labelled corpus for the secret-scanning bench: realistic files of many types with planted
// secrets (taken from each rule's own positive examples, placed in new surroundings) and hard
// negatives (placeholders, hashes, UUIDs, lockfile integrity strings, data URLs, minified code,
// vendors' published example keys, every rule's negative examples). Includes non-ASCII text
// before secrets, CRLF files, very long lines and a few multi-megabyte files. Deterministic.
import cloud from '../../build/rules/cloud.mjs';
import code from '../../build/rules/code.mjs';
import ai from '../../build/rules/ai.mjs';
import saas from '../../build/rules/saas.mjs';
import keys from '../../build/rules/keys.mjs';
import generic from '../../build/rules/generic.mjs';

const FAMILIES = { cloud, 'code hosts & registries': code, 'AI providers': ai, 'payments, messaging & SaaS': saas, 'keys, JWT, URLs & headers': keys, 'generic assignments': generic };

function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

const FILLER = {
  ts: ['import { readFile } from "node:fs/promises";', 'export function add(a: number, b: number): number {', '  return a + b;', '}', 'const config = { retries: 3, timeoutMs: 5000 };', '// TODO: handle the error path', 'const tokenizer = createTokenizer("cl100k_base");', 'if (user.passwordResetRequired) redirect("/reset");'],
  py: ['def main():', '    parser = argparse.ArgumentParser()', '    args = parser.parse_args()', 'API_KEY = os.environ["API_KEY"]', 'password = getpass.getpass()', 'max_tokens = 4096', '# the token is read from the environment', 'logging.info("started")'],
  yaml: ['version: "3.9"', 'services:', '  web:', '    image: nginx:1.25', '    ports: ["8080:80"]', '    environment:', '      - DB_PASSWORD=${DB_PASSWORD}', 'secretKeyRef: { name: app-secrets, key: token }'],
  env: ['NODE_ENV=production', 'PORT=3000', 'LOG_LEVEL=info', 'API_KEY=<YOUR_API_KEY>', 'DATABASE_URL=postgres://localhost:5432/app', 'TOKEN=${TOKEN}'],
  md: ['# Déploiement', 'Configurez la clé dans `.env` — ne la commitez jamais.', '設定ファイルにトークンを書かないでください。', 'Use `sk-xxxxxxxx` as a placeholder in docs.', 'The example key is AKIA' + 'IOSFODNN7EXAMPLE.', 'Пароль хранится в менеджере секретов.'],
  json: ['{', '  "name": "app",', '  "version": "1.0.0",', '  "integrity": "sha512-' + 'q1b0ZCq4mzN3wn7VGJ3BZQ9C6tGg4yYyfz0m9SC7aLz8y2b9fVb2Pp0MmHh6yY0G1X1o8pXk6X3Lz4s5mAa2bQ==",', '  "resolved": "https://registry.npmjs.org/x/-/x-1.0.0.tgz",', '  "id": "123e4567-e89b-42d3-a456-426614174000"', '}'],
  sh: ['#!/usr/bin/env bash', 'set -euo pipefail', 'echo "deploying $VERSION"', 'curl -H "Authorization: Bearer $TOKEN" https://api.example.com', 'git log --format=%H | head -1', 'export PATH="$HOME/bin:$PATH"'],
  toml: ['[package]', 'name = "app"', 'edition = "2021"', '[dependencies]', 'serde = "1"', 'checksum = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"'],
};
const HARD_NEGATIVES = [
  'commit 3f786850e387550fdab836ed7e6dc881de23001b',
  'sha256sum: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'const key = process.env.API_KEY;',
  'password = os.environ["DB_PASSWORD"]',
  'OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx',
  'img = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="',
  'function a(t){return t.token=e.token,n(t)}var token=o.getToken(),r=t.password||"";',
  'request_id = "123e4567-e89b-42d3-a456-426614174000"',
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCY' + 'EXAMPLEKEY',
  'Authorization: Bearer <token>',
  'redis://localhost:6379/0',
  '"integrity": "sha1-' + 'Wb6Yzqs2H6nPYqmHkO3FMu7CXMs="',
];

const EXT = Object.keys(FILLER);

/** Builds the corpus: `{ files: [{ path, text, planted: [{ kind, family, start, end }] }], bytes }`. */
export function generateSecretsCorpus({ seed = 42, bigFiles = 2, bigFileBytes = 3 * 2 ** 20 } = {}) {
  const rand = rng(seed);
  const pick = (a) => a[Math.floor(rand() * a.length)];
  const positives = [];
  const negatives = [...HARD_NEGATIVES];
  for (const [family, rules] of Object.entries(FAMILIES)) {
    for (const rule of rules) {
      for (const ex of rule.examples.pos) positives.push({ kind: rule.id, family, ...ex });
      negatives.push(...rule.examples.neg);
    }
  }
  const files = [];
  const addFile = (path, parts, crlf) => {
    // parts: strings or { positive }
    let text = '';
    const planted = [];
    const nl = crlf ? '\r\n' : '\n';
    for (const p of parts) {
      if (typeof p === 'string') text += p + nl;
      else {
        const at = text.length + p.positive.text.indexOf(p.positive.secret);
        planted.push({ kind: p.positive.kind, family: p.positive.family, start: at, end: at + p.positive.secret.length });
        text += p.positive.text.replace(/\n/g, nl) + nl;
      }
    }
    // CRLF replacement inside a positive shifts later offsets; recompute from the values.
    if (crlf) {
      let from = 0;
      for (const p of planted) {
        const value = parts.find((x) => typeof x !== 'string' && x.positive.kind === p.kind && !x.used);
        const secret = value.positive.secret.replace(/\n/g, nl);
        value.used = true;
        const at = text.indexOf(secret, from);
        p.start = at;
        p.end = at + secret.length;
        from = p.end;
      }
    }
    files.push({ path, text, planted });
  };
  // Small files: every positive planted once, mixed with filler and negatives.
  let k = 0;
  for (let i = 0; i < positives.length; i += 3) {
    const ext = EXT[k++ % EXT.length];
    const parts = [];
    for (let j = 0; j < 40; j++) parts.push(pick(FILLER[ext]));
    for (const pos of positives.slice(i, i + 3)) parts.splice(Math.floor(rand() * parts.length), 0, { positive: pos });
    for (let j = 0; j < 4; j++) parts.splice(Math.floor(rand() * parts.length), 0, negatives[(i + j) % negatives.length]);
    addFile(`src/f${i}.${ext}`, parts, k % 5 === 0);
  }
  // Every remaining negative, in prose files with non-ASCII text.
  for (let i = 0; i < negatives.length; i += 20) {
    const parts = [];
    for (const n of negatives.slice(i, i + 20)) parts.push(pick(FILLER.md), n);
    addFile(`docs/n${i}.md`, parts, false);
  }
  // Very long lines: minified bundles with a few secrets inside string literals.
  for (let i = 0; i < 4; i++) {
    let line = '';
    while (line.length < 400_000) line += `function f${line.length}(a,b){return a.token=b.token,a.value+b.value}var c${line.length}="${Math.floor(rand() * 1e9).toString(36)}";`;
    const pos = pick(positives.filter((p) => !p.text.includes('\n')));
    addFile(`dist/bundle${i}.min.js`, [line.slice(0, 200_000) + ';', { positive: { ...pos, text: pos.text } }, line.slice(200_000)], false);
  }
  // Multi-megabyte files: logs with rare secrets.
  for (let b = 0; b < bigFiles; b++) {
    const parts = [];
    let size = 0;
    let n = 0;
    while (size < bigFileBytes) {
      const line = `2024-05-0${1 + (n % 9)}T12:00:${String(n % 60).padStart(2, '0')}Z INFO request id=${Math.floor(rand() * 1e12).toString(16)} path=/api/v1/items/${n} status=200 durationMs=${n % 997} user=ünïcödé`;
      parts.push(line);
      size += line.length + 1;
      if (++n % 20000 === 0) parts.push({ positive: pick(positives.filter((p) => !p.text.includes('\n'))) });
    }
    addFile(`logs/big${b}.log`, parts, false);
  }
  const bytes = files.reduce((s, f) => s + new TextEncoder().encode(f.text).length, 0);
  return { files, bytes };
}
