// Issue 5: token counting. Accuracy of ctxgate-est/1, tokenx and chars/4 against exact o200k_base
// and cl100k_base counts on the evaluation corpus (files the calibration never saw), throughput of
// every counter, and cold start (time to first count, each in a fresh Node process).
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { Tiktoken } from 'js-tiktoken/lite';
import o200kRanks from 'js-tiktoken/ranks/o200k_base';
import cl100kRanks from 'js-tiktoken/ranks/cl100k_base';
import { estimateTokenCount } from 'tokenx';
import { countTokens as gptCount } from 'gpt-tokenizer';
import { get_encoding } from 'tiktoken';
import { tokensCorpus, CATEGORIES } from './corpus/tokens-corpus.mjs';

const ENCODINGS = ['o200k_base', 'cl100k_base'];

/** The estimator from the built library when it is there, else straight from the core's raw glue. */
async function loadEstimator(root) {
  try {
    const lib = await import(pathToFileURL(join(root, 'dist/core/tokens.js')).href);
    const core = await import(pathToFileURL(join(root, 'dist/core/core.js')).href);
    await core.initCore();
    return { how: 'dist', estimate: (text, encoding) => lib.estimateTokens(text, { encoding }).tokens };
  } catch {
    const { instantiate } = await import(pathToFileURL(join(root, 'src/core/wasm/ctxgate.js')).href);
    const module = await WebAssembly.compile(readFileSync(join(root, 'src/core/wasm/ctxgate.wasm')));
    const raw = await instantiate(module, {});
    const enc = new TextEncoder();
    return {
      how: 'raw core',
      estimate(text, encoding) {
        const cap = text.length * 3;
        const ptr = raw.ioInput(cap);
        const { written } = enc.encodeInto(text, new Uint8Array(raw.memory.buffer, ptr, cap));
        return raw.tokensEstimate(ptr, written, encoding === 'o200k_base' ? 0 : 1) >>> 0;
      },
    };
  }
}

function stats(errors) {
  const s = [...errors].sort((a, b) => a - b);
  const abs = errors.map(Math.abs).sort((a, b) => a - b);
  const q = (arr, p) => arr[Math.min(arr.length - 1, Math.ceil(arr.length * p) - 1)];
  const under = errors.map((e) => Math.max(0, -e)).sort((a, b) => a - b);
  return {
    mape: abs.reduce((a, b) => a + b, 0) / abs.length,
    p95: q(abs, 0.95),
    p95Under: q(under, 0.95),
    worstUnder: Math.max(0, -s[0]),
  };
}

const COLD_SNIPPETS = {
  'ctxgate-est/1 (wasm core)': (root) => `
    const core = await import(${JSON.stringify(pathToFileURL(join(root, 'src/core/wasm/ctxgate.js')).href)});
    const fs = await import('node:fs');
    const raw = await core.instantiate(await WebAssembly.compile(fs.readFileSync(${JSON.stringify(join(root, 'src/core/wasm/ctxgate.wasm'))})), {});
    const b = new TextEncoder().encode('hello world'); const p = raw.ioInput(b.length); new Uint8Array(raw.memory.buffer, p, b.length).set(b);
    raw.tokensEstimate(p, b.length, 0);`,
  'js-tiktoken (lite + o200k ranks)': () => `
    const { Tiktoken } = await import('js-tiktoken/lite'); const r = (await import('js-tiktoken/ranks/o200k_base')).default;
    new Tiktoken(r).encode('hello world');`,
  'gpt-tokenizer (o200k)': () => `const { countTokens } = await import('gpt-tokenizer'); countTokens('hello world');`,
  'tiktoken (wasm, o200k)': () => `const { get_encoding } = await import('tiktoken'); const e = get_encoding('o200k_base'); e.encode('hello world'); e.free();`,
  'tokenx': () => `const { estimateTokenCount } = await import('tokenx'); estimateTokenCount('hello world');`,
};

function coldStart(root, snippet) {
  const script = `const t0 = performance.now(); ${snippet} console.log(JSON.stringify({ ms: performance.now() - t0 }));`;
  const times = [];
  for (let i = 0; i < 3; i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cold start failed: ${r.stderr}`);
    times.push(JSON.parse(r.stdout.trim().split('\n').at(-1)).ms);
  }
  return times.sort((a, b) => a - b)[1];
}

export default async function tokensBench({ time, fmt, root }) {
  const est = await loadEstimator(root);
  const corpus = tokensCorpus(root);
  const exact = { o200k_base: new Tiktoken(o200kRanks), cl100k_base: new Tiktoken(cl100kRanks) };
  const sections = [];

  // Accuracy.
  const methods = {
    'ctxgate-est/1': (t, e) => est.estimate(t, e),
    tokenx: (t) => estimateTokenCount(t),
    'chars/4': (t) => Math.ceil(t.length / 4),
  };
  const summary = {};
  for (const encoding of ENCODINGS) {
    const rows = [];
    const truth = corpus.map((d) => exact[encoding].encode(d.text, [], []).length);
    for (const category of [...CATEGORIES, 'all']) {
      const idx = corpus.map((d, i) => (category === 'all' || d.category === category ? i : -1)).filter((i) => i >= 0 && truth[i] > 0);
      for (const [name, fn] of Object.entries(methods)) {
        const s = stats(idx.map((i) => (fn(corpus[i].text, encoding) - truth[i]) / truth[i]));
        summary[`${encoding}/${category}/${name}`] = s;
        rows.push([category, name, String(idx.length), fmt.pct(s.mape), fmt.pct(s.p95), fmt.pct(s.p95Under), fmt.pct(s.worstUnder)]);
      }
    }
    sections.push({
      title: `Token estimate accuracy vs exact ${encoding}`,
      intro: `Per document (up to 12 KB each) of the evaluation corpus: ${corpus.length} documents from installed packages, none used for calibration. Error = (estimate - exact) / exact.`,
      columns: ['Category', 'Estimator', 'Docs', 'MAPE', 'p95 |error|', 'p95 under-estimate', 'Worst under-estimate'],
      rows,
      notes: ['Goals: ctxgate-est/1 under 3% MAPE on code, prose, JSON, Markdown; under 6% on CJK and other non-Latin; p95 under-estimate at most 3% in every category.'],
    });
  }

  // Throughput over the whole evaluation corpus (o200k_base where a peer has a choice).
  const all = corpus.map((d) => d.text);
  const bytes = all.reduce((a, t) => a + new TextEncoder().encode(t).length, 0);
  const tk = get_encoding('o200k_base');
  const peers = {
    'ctxgate-est/1 (wasm core)': () => all.reduce((a, t) => a + est.estimate(t, 'o200k_base'), 0),
    'js-tiktoken': () => all.reduce((a, t) => a + exact.o200k_base.encode(t, [], []).length, 0),
    'gpt-tokenizer': () => all.reduce((a, t) => a + gptCount(t, { disallowedSpecial: new Set() }), 0),
    'tiktoken (wasm)': () => all.reduce((a, t) => a + tk.encode(t, [], []).length, 0),
    tokenx: () => all.reduce((a, t) => a + estimateTokenCount(t), 0),
  };
  const times = {};
  for (const [name, fn] of Object.entries(peers)) times[name] = (await time(fn, { iterations: name.startsWith('ctxgate') || name === 'tokenx' ? 9 : 3, warmup: 1 })).median;
  tk.free();
  const base = times['js-tiktoken'];
  sections.push({
    title: 'Token counting throughput',
    intro: `All ${corpus.length} evaluation documents (${(bytes / 2 ** 20).toFixed(2)} MiB UTF-8), counted one by one, o200k_base.`,
    columns: ['Counter', 'Time', 'Throughput', 'vs js-tiktoken'],
    rows: Object.entries(times).map(([name, ms]) => [name, fmt.ms(ms), fmt.mbps(bytes, ms), fmt.ratio(base / ms)]),
    notes: [`Estimator loaded from ${est.how}. Goal: ctxgate-est/1 at least 50x js-tiktoken and 3x tokenx.`],
  });

  // Cold start: a fresh process per sample, import to first count.
  const coldRows = [];
  for (const [name, snippet] of Object.entries(COLD_SNIPPETS)) coldRows.push([name, fmt.ms(coldStart(root, snippet(root)))]);
  sections.push({
    title: 'Token counter cold start',
    intro: 'Time from the first import to the first count of "hello world", in a fresh Node process (median of 3).',
    columns: ['Counter', 'Time to first count'],
    rows: coldRows,
  });
  return sections;
}

// Standalone: node bench/tokens.bench.mjs
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = join(new URL('.', import.meta.url).pathname, '..');
  const time = async (fn, { iterations = 5, warmup = 1 } = {}) => {
    for (let i = 0; i < warmup; i++) await fn();
    const s = [];
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      await fn();
      s.push(performance.now() - t0);
    }
    s.sort((a, b) => a - b);
    return { median: s[Math.floor(s.length / 2)], min: s[0] };
  };
  const fmt = {
    ms: (n) => `${n.toFixed(2)} ms`,
    mbps: (b, ms) => `${(b / 2 ** 20 / (ms / 1000)).toFixed(1)} MB/s`,
    ratio: (x) => `${x.toFixed(2)}x`,
    pct: (x) => `${(x * 100).toFixed(1)}%`,
  };
  for (const s of await tokensBench({ time, fmt, root })) {
    console.log(`\n## ${s.title}\n${s.intro ?? ''}`);
    console.log(`| ${s.columns.join(' | ')} |`);
    for (const r of s.rows) console.log(`| ${r.join(' | ')} |`);
    for (const n of s.notes ?? []) console.log(n);
  }
}
