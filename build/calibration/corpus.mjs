// The token corpus: real text already on the machine (installed npm packages), split into two
// disjoint sets of FILES, `calibration` (fits the estimator's tables at build time) and
// `evaluation` (the benchmark measures accuracy on it). Every choice below is deterministic:
// paths are sorted, and a file's side is fixed by its path, so the same node_modules gives the same
// corpus.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';

/** Categories reported by the benchmark and balanced by the calibration. */
export const CATEGORIES = ['code', 'prose', 'json', 'markdown', 'minified', 'cjk', 'nonlatin'];

const MAX_DOC_BYTES = 12_000;
const MIN_DOC_BYTES = 300;
const MAX_DOCS = { calibration: 160, evaluation: 80 };

function fnv(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** Side of a file: a fixed function of its path. */
function sideOf(path) {
  return (fnv(path) & 1) === 0 ? 'calibration' : 'evaluation';
}

const SKIP_DIRS = new Set(['.bin', '.cache', '@deno', 'deno', '@esbuild', 'typescript-linux-x64', '@rollup', 'workerd', '@cloudflare']);

function walk(dir, root, out) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries) {
    // Dot entries are caches (.vite, .vitest-cache, .package-lock.json) that change between runs.
    if (e.isSymbolicLink() || e.name.startsWith('.')) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      if (!SKIP_DIRS.has(e.name)) walk(p, root, out);
    } else if (e.isFile()) out.push(relative(root, p).split(sep).join('/'));
  }
}

/** Splits text into documents of at most MAX_DOC_BYTES characters, at line ends. */
function chunks(text) {
  const out = [];
  let cur = '';
  for (const line of text.split(/(?<=\n)/)) {
    if (cur.length + line.length > MAX_DOC_BYTES && cur.length >= MIN_DOC_BYTES) {
      out.push(cur);
      cur = '';
    }
    cur += line.length > MAX_DOC_BYTES ? line.slice(0, MAX_DOC_BYTES) : line;
  }
  if (cur.length >= MIN_DOC_BYTES) out.push(cur);
  return out;
}

function avgLineLength(text) {
  const lines = text.split('\n').length;
  return text.length / lines;
}

/** Prose paragraphs of a Markdown file: no fences, headings, tables, lists, HTML or link lines. */
function proseOf(markdown) {
  const paras = [];
  let inFence = false;
  let cur = [];
  for (const raw of markdown.split('\n')) {
    const line = raw.trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    if (line.trim() === '' || /^\s*([#|>*+-]|\d+\.|<|\[|!\[|=|---)/.test(line)) {
      if (cur.length) paras.push(cur.join(' '));
      cur = [];
      continue;
    }
    cur.push(line.trim());
  }
  if (cur.length) paras.push(cur.join(' '));
  return paras.filter((p) => p.length > 80 && /^[A-Z]/.test(p) && (p.match(/[a-z ]/g) ?? []).length / p.length > 0.8).join('\n\n');
}

/** Messages of a TypeScript diagnostics translation, one per line. */
function diagnosticsText(path) {
  const json = JSON.parse(readFileSync(path, 'utf8'));
  return Object.keys(json)
    .sort()
    .map((k) => json[k])
    .join('\n');
}

/** String literals of a zod locale module that contain non-ASCII text. */
function localeStrings(path) {
  const src = readFileSync(path, 'utf8');
  const out = [];
  for (const m of src.matchAll(/"((?:[^"\\\n]|\\.)*)"|`([^`]*)`/g)) {
    const s = m[1] ?? m[2];
    if (/[^\x00-\x7f]/.test(s)) out.push(s.replace(/\$\{[^}]*\}/g, '{x}'));
  }
  return out.join('\n');
}

// Translations are assigned to a side by hand so both sides cover the same scripts.
const TS_DIAG = 'typescript-compiler-api/lib';
const DIAGNOSTICS = {
  calibration: { cjk: ['zh-cn', 'ja'], prose: ['de', 'es', 'fr', 'it'], nonlatin: [] },
  evaluation: { cjk: ['zh-tw', 'ko'], prose: ['cs', 'pl', 'pt-br', 'tr'], nonlatin: ['ru'] },
};
const ZOD_LOCALES = 'zod/v4/locales';
const LOCALES = {
  calibration: {
    cjk: ['ko', 'zh-TW'],
    nonlatin: ['ar', 'be', 'bn', 'el', 'gu', 'he', 'hy', 'ka', 'km', 'mk', 'ps', 'ta', 'th', 'uk', 'ru'],
  },
  evaluation: {
    cjk: ['ja', 'zh-CN'],
    nonlatin: ['bg', 'ckb', 'fa', 'hi', 'kn', 'ne', 'tg', 'ur', 'ua'],
  },
};

const CODE_EXT = /\.(c|h|py|go|sh|css|php|html|mjs|cjs|js|ts|rs|java|rb|yml)$/;

/**
 * Loads one side of the corpus: `{ category, name, text }[]`, sorted by category then name.
 * `root` is the package root (the folder holding node_modules).
 */
export function loadCorpus(side, root) {
  const nm = join(root, 'node_modules');
  const files = [];
  walk(nm, nm, files);
  files.sort();
  const docs = [];
  const add = (category, name, text) => {
    chunks(text).forEach((t, i) => docs.push({ category, name: `${name}#${i}`, text: t }));
  };
  const read = (p) => {
    try {
      if (statSync(join(nm, p)).size > 4_000_000) return '';
      return readFileSync(join(nm, p), 'utf8');
    } catch {
      return '';
    }
  };

  for (const [category, langs] of Object.entries(DIAGNOSTICS[side])) {
    for (const l of langs) add(category, `${TS_DIAG}/${l}`, diagnosticsText(join(nm, TS_DIAG, l, 'diagnosticMessages.generated.json')));
  }
  for (const [category, langs] of Object.entries(LOCALES[side])) {
    for (const l of langs) add(category, `${ZOD_LOCALES}/${l}`, localeStrings(join(nm, ZOD_LOCALES, `${l}.js`)));
  }

  // Code: several languages, taking each extension in turn so no one language dominates.
  const perExt = new Map();
  for (const p of files) {
    if (sideOf(p) !== side || p.includes('/locales/') || p.endsWith('.d.ts') && fnv(p) % 3 !== 0) continue;
    const m = CODE_EXT.exec(p);
    if (!m || p.endsWith('.min.js')) continue;
    const ext = m[1];
    if (!perExt.has(ext)) perExt.set(ext, []);
    perExt.get(ext).push(p);
  }
  for (const [ext, list] of [...perExt].sort()) {
    let taken = 0;
    for (const p of list) {
      if (taken >= 12) break;
      const text = read(p);
      if (text.length < MIN_DOC_BYTES || avgLineLength(text) > 160 || /[^\x00-\x7f]{8}/.test(text)) continue;
      add('code', p, text.slice(0, MAX_DOC_BYTES * 2));
      taken++;
    }
    void ext;
  }

  // Minified JavaScript: *.min.js and bundles with very long lines.
  for (const p of files) {
    if (sideOf(p) !== side || !/\.(m|c)?js$/.test(p)) continue;
    if (!p.endsWith('.min.js') && !/dist|bundle|build/.test(p)) continue;
    const text = read(p);
    if (text.length < 2000 || avgLineLength(text) < 400) continue;
    add('minified', p, text.slice(0, MAX_DOC_BYTES * 3));
  }

  // JSON: package manifests and data files (not translations or encoding tables).
  for (const p of files) {
    if (sideOf(p) !== side || !p.endsWith('.json') || /locale|diagnosticMessages|encodings\/tables/.test(p)) continue;
    const text = read(p);
    if (text.length < MIN_DOC_BYTES) continue;
    add('json', p, text.slice(0, MAX_DOC_BYTES * 2));
  }

  // Markdown, whole; prose, the paragraphs of Markdown files and licence texts.
  for (const p of files) {
    if (sideOf(p) !== side) continue;
    const base = p.slice(p.lastIndexOf('/') + 1);
    if (p.endsWith('.md')) {
      const text = read(p);
      add('markdown', p, text.slice(0, MAX_DOC_BYTES * 2));
      add('prose', p, proseOf(text));
    } else if (/^LICEN[CS]E(\.txt)?$/i.test(base) && fnv(p) % 8 === 0) {
      add('prose', p, read(p));
    }
  }

  // Cap each category, keeping an even spread through the sorted list.
  const out = [];
  for (const category of CATEGORIES) {
    const list = docs.filter((d) => d.category === category).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const cap = MAX_DOCS[side];
    if (list.length <= cap) out.push(...list);
    else for (let i = 0; i < cap; i++) out.push(list[Math.floor((i * list.length) / cap)]);
  }
  return out;
}
