// Issue 3: SHA-256 throughput and the block sort, side by side with peers in one run.
import { createHash, webcrypto } from 'node:crypto';
import { createSHA256, sha256 as hashWasmSha256 } from 'hash-wasm';
import { loadCore, sha256HexSync, sha256ManySync, sortBlockKeysSync, compareUtf8 } from '../dist/index.js';

export default async function fingerprintBench({ time, fmt }) {
  await loadCore();
  const sections = [];

  // One 64 MiB buffer of pseudo-random bytes.
  const big = new Uint8Array(64 * 2 ** 20);
  let x = 0x9e3779b9;
  for (let i = 0; i < big.length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    big[i] = x & 0xff;
  }
  const expected = createHash('sha256').update(big).digest('hex');
  const hw = await createSHA256();
  const peers = {
    'ctxgate (wasm core)': () => sha256HexSync(big),
    'hash-wasm': () => hw.init().update(big).digest('hex'),
    'node:crypto (OpenSSL, native)': () => createHash('sha256').update(big).digest('hex'),
    'WebCrypto (crypto.subtle)': async () => Buffer.from(await webcrypto.subtle.digest('SHA-256', big)).toString('hex'),
  };
  const bigRows = [];
  const bigTimes = {};
  for (const [name, fn] of Object.entries(peers)) {
    if ((await fn()) !== expected) throw new Error(`${name} gave a wrong digest`);
    bigTimes[name] = (await time(fn, { iterations: 7, warmup: 1 })).median;
  }
  for (const [name, ms] of Object.entries(bigTimes)) {
    bigRows.push([name, fmt.ms(ms), fmt.mbps(big.length, ms), fmt.ratio(bigTimes['hash-wasm'] / ms)]);
  }

  // 10,000 strings of about 2 KB (mixed ASCII and some non-ASCII), hashed as UTF-8.
  const words = ['context', 'budget', 'secret', 'fingerprint', 'déjà', 'naïve', '構成', 'token', 'ordering', 'agent'];
  const strings = Array.from({ length: 10_000 }, (_, i) => {
    let s = `// file ${i}\n`;
    let k = i;
    while (s.length < 2000) {
      k = (k * 1103515245 + 12345) >>> 0;
      s += words[k % words.length] + (k % 7 === 0 ? '\n' : ' ');
    }
    return s;
  });
  const stringsExpected = strings.map((s) => createHash('sha256').update(s).digest('hex'));
  const manyPeers = {
    'ctxgate sha256ManySync (one call)': () => sha256ManySync(strings),
    'ctxgate sha256HexSync (per string)': () => strings.map((s) => sha256HexSync(s)),
    'hash-wasm (per string)': async () => {
      const out = [];
      for (const s of strings) out.push(await hashWasmSha256(s));
      return out;
    },
    'node:crypto (per string)': () => strings.map((s) => createHash('sha256').update(s).digest('hex')),
    'WebCrypto (per string)': () =>
      Promise.all(strings.map(async (s) => Buffer.from(await webcrypto.subtle.digest('SHA-256', new TextEncoder().encode(s))).toString('hex'))),
  };
  const manyTimes = {};
  const totalBytes = strings.reduce((n, s) => n + Buffer.byteLength(s), 0);
  for (const [name, fn] of Object.entries(manyPeers)) {
    const got = await fn();
    if (got.join() !== stringsExpected.join()) throw new Error(`${name} gave wrong digests`);
    manyTimes[name] = (await time(fn, { iterations: 7, warmup: 1 })).median;
  }
  const manyRows = Object.entries(manyTimes).map(([name, ms]) => [
    name,
    fmt.ms(ms),
    fmt.mbps(totalBytes, ms),
    fmt.ratio(manyTimes['hash-wasm (per string)'] / ms),
  ]);

  // A project's files: 5,000 byte arrays of 200 B to 64 KB (log-uniform, so most are small and a
  // few large, like source trees), hashed as bytes the way the builder hashes files read from disk.
  let fseed = 0x2545f491;
  const frand = () => (fseed = (Math.imul(fseed, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const files = Array.from({ length: 5_000 }, (_, i) => {
    const b = new Uint8Array(Math.round(200 * 320 ** frand()));
    for (let j = 0; j < b.length; j++) b[j] = 32 + ((i * 31 + j * 7 + (j >> 5)) % 95);
    return b;
  });
  const filesBytes = files.reduce((n, b) => n + b.byteLength, 0);
  const filesExpected = files.map((b) => createHash('sha256').update(b).digest('hex'));
  const filePeers = {
    'ctxgate sha256ManySync (one call)': () => sha256ManySync(files),
    'hash-wasm (per file)': () => files.map((b) => hw.init().update(b).digest('hex')),
    'node:crypto (per file)': () => files.map((b) => createHash('sha256').update(b).digest('hex')),
  };
  const fileTimes = {};
  for (const [name, fn] of Object.entries(filePeers)) {
    if ((await fn()).join() !== filesExpected.join()) throw new Error(`${name} gave wrong digests`);
    fileTimes[name] = (await time(fn, { iterations: 7, warmup: 1 })).median;
  }
  const fileRows = Object.entries(fileTimes).map(([name, ms]) => [
    `5,000 files, ${(filesBytes / 2 ** 20).toFixed(1)} MiB: ${name}`,
    fmt.ms(ms),
    fmt.mbps(filesBytes, ms),
    fmt.ratio(fileTimes['hash-wasm (per file)'] / ms),
  ]);

  sections.push({
    title: 'SHA-256 throughput',
    intro: 'One 64 MiB buffer, 10,000 strings of about 2 KB hashed as UTF-8, and 5,000 files of 200 B to 64 KB (log-uniform sizes) hashed as bytes. Every digest is checked against node:crypto before timing. Ratio = hash-wasm time / this time (higher is faster; goal for the core: at least 0.90x on the buffer).',
    columns: ['implementation', 'median', 'throughput', 'vs hash-wasm'],
    rows: [
      ...bigRows.map((r) => ['64 MiB buffer: ' + r[0], ...r.slice(1)]),
      ...manyRows.map((r) => ['10,000 × 2 KB: ' + r[0], ...r.slice(1)]),
      ...fileRows,
    ],
  });

  // Sort of 100,000 blocks: the core's sort against Array.prototype.sort with an equivalent
  // bytewise comparator over pre-encoded keys (the fastest fair JS equivalent).
  const priorities = ['P0', 'P1', 'P2', 'P3'];
  const types = ['system', 'constraints', 'project_meta', 'file', 'symbol', 'error_context', 'diff_hint'];
  const dirs = ['src', 'src/components', 'src/server/api', 'lib', 'test', 'docs', 'packages/core/src', 'ünïcode/目录'];
  let seed = 42;
  const rnd = () => (seed = (seed * 1664525 + 1013904223) >>> 0);
  const blocks = Array.from({ length: 100_000 }, (_, i) => ({
    priority: priorities[rnd() % 4],
    blockType: types[rnd() % 7],
    key: `${dirs[rnd() % dirs.length]}/module_${rnd() % 5000}/file_${i % 977}.ts`,
  }));
  const enc = new TextEncoder();
  const jsSort = () => {
    const keyed = blocks.map((b, i) => ({ g: priorities.indexOf(b.priority) * 16 + types.indexOf(b.blockType), k: enc.encode(b.key), i }));
    keyed.sort((a, b) => {
      if (a.g !== b.g) return a.g - b.g;
      const x = a.k;
      const y = b.k;
      const n = Math.min(x.length, y.length);
      for (let j = 0; j < n; j++) if (x[j] !== y[j]) return x[j] - y[j];
      return x.length - y.length || a.i - b.i;
    });
    return keyed.map((k) => k.i);
  };
  const stringSort = () =>
    blocks
      .map((b, i) => i)
      .sort((i, j) => {
        const a = blocks[i];
        const b = blocks[j];
        const g = priorities.indexOf(a.priority) * 16 + types.indexOf(a.blockType) - (priorities.indexOf(b.priority) * 16 + types.indexOf(b.blockType));
        return g || compareUtf8(a.key, b.key) || i - j;
      });
  const coreOrder = Array.from(sortBlockKeysSync(blocks));
  if (coreOrder.join() !== jsSort().join() || coreOrder.join() !== stringSort().join()) throw new Error('sort results differ');
  const sortPeers = {
    'ctxgate sortBlockKeysSync (wasm core, includes encoding)': () => sortBlockKeysSync(blocks),
    'Array.prototype.sort, bytewise comparator on pre-encoded keys': jsSort,
    'Array.prototype.sort, code point comparator on strings': stringSort,
  };
  const sortTimes = {};
  for (const [name, fn] of Object.entries(sortPeers)) sortTimes[name] = (await time(fn, { iterations: 7, warmup: 1 })).median;
  const jsName = 'Array.prototype.sort, bytewise comparator on pre-encoded keys';
  sections.push({
    title: 'Block sort, 100,000 blocks',
    intro: 'Priority, block-type rank, then key bytewise in UTF-8, stable; all three give the identical permutation (checked). Ratio = JS comparator sort time / this time (goal: the core faster than the JS comparator sort).',
    columns: ['implementation', 'median', 'vs JS bytewise sort'],
    rows: Object.entries(sortTimes).map(([name, ms]) => [name, fmt.ms(ms), fmt.ratio(sortTimes[jsName] / ms)]),
  });
  return sections;
}
