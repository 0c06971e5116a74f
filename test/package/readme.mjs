// Every TypeScript/JavaScript example in README.md, run against the packed package the way a user
// would run it. The blocks are read from README.md at test time (never copied here), so editing an
// example re-tests it. What each block stands for and what it must show lives in readme-cases.mjs.
//
// How a block runs: its fence is cut out of the Markdown (extractFences), transpiled by esbuild
// (types stripped, `await using` lowered for the installed Node, every import kept), padded so
// that its line numbers are README.md's, and written into the consumer project that run.mjs
// installed the tarball into. esbuild, not TypeScript: the devDependency `typescript` is 7.x, the
// native compiler, which has no JavaScript transpile API (no transpileModule); esbuild (a
// devDependency, the version wrangler and Vite use too) inlines its `using` helpers and needs no
// type information. readme-harness/runner.mjs then sets the globals that stand for the
// user's own things (`source`, `send`, `file`…), imports the block, and asserts what the README
// claims. The block's `import … from 'ctxgate'` reaches the installed package through a recording
// wrapper (readme-harness/probe.mjs) so the assertions can see what the calls returned.
//
// CTXGATE_README=path runs the suite on another copy of the README (to show that it fails).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CASES, SYNC_SAMPLES } from './readme-cases.mjs';

const here = dirname(fileURLToPath(import.meta.url));

/** Fence languages that are examples to run, and the esbuild loader for each. */
export const RUNNABLE = { ts: 'ts', typescript: 'ts', mts: 'ts', cts: 'ts', tsx: 'tsx', js: 'js', javascript: 'js', mjs: 'js', cjs: 'js', jsx: 'jsx' };

/**
 * The fenced code blocks of a Markdown document (CommonMark fences: up to three spaces of
 * indentation, three or more backticks or tildes, closed by a fence of the same character at least
 * as long). Returns { lang, info, code, line } with `line` the 1-based line of the first code line.
 * An unclosed fence throws: it would swallow the rest of the README.
 */
export function extractFences(markdown) {
  const lines = markdown.split(/\r?\n/);
  const fences = [];
  let open = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!open) {
      const m = /^( {0,3})(`{3,}|~{3,})(.*)$/.exec(line);
      if (!m || (m[2][0] === '`' && m[3].includes('`'))) continue;
      const info = m[3].trim();
      open = { indent: m[1].length, char: m[2][0], size: m[2].length, info, lang: info.split(/\s+/)[0].toLowerCase(), start: i + 1, body: [] };
      continue;
    }
    const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
    if (close && close[1][0] === open.char && close[1].length >= open.size) {
      fences.push({ lang: open.lang, info: open.info, code: open.body.join('\n') + '\n', line: open.start + 1 });
      open = null;
      continue;
    }
    open.body.push(line.replace(new RegExp(`^ {0,${open.indent}}`), ''));
  }
  if (open) throw new Error(`the fence opened at line ${open.start} is never closed`);
  return fences;
}

/**
 * Which README blocks are examples, and which case of readme-cases.mjs each one is. Every example
 * must match exactly one case (by its `match` substring) and every case exactly one example; an
 * unlabelled fence, or a ```ts/```js line the fence parser did not see (in a quote or a list, say),
 * is an error too, so that nothing is skipped silently.
 */
export function classify(markdown, cases = CASES, label = 'README.md') {
  const fences = extractFences(markdown);
  const problems = [];
  for (const f of fences) if (!f.lang) problems.push(`${label}:${f.line - 1}: a fence without a language; label it (\`\`\`ts, \`\`\`sh…) so the test knows whether to run it`);
  const examples = fences.filter((f) => Object.hasOwn(RUNNABLE, f.lang));
  const mentioned = markdown.split(/\r?\n/).filter((l) => new RegExp(`(\`{3,}|~{3,})\\s*(${Object.keys(RUNNABLE).join('|')})\\b`, 'i').test(l)).length;
  if (mentioned !== examples.length) problems.push(`${label} has ${mentioned} lines that open a TS/JS fence but ${examples.length} were parsed as fences; a fence inside a quote or a list is not supported, move it out`);
  const pairs = [];
  for (const block of examples) {
    const hits = cases.filter((c) => block.code.includes(c.match));
    if (hits.length === 0) problems.push(`${label}:${block.line}: a ${block.lang} block no case in readme-cases.mjs matches; add one (variants with assertions, or notRunnable with the reason):\n${indent(block.code)}`);
    if (hits.length > 1) problems.push(`${label}:${block.line}: matched by several cases (${hits.map((c) => c.id).join(', ')}); make their \`match\` strings distinctive`);
  }
  for (const c of cases) {
    if (!c.notRunnable && !c.variants?.length) problems.push(`case ${c.id}: neither variants to run nor a notRunnable reason`);
    const hits = examples.filter((b) => b.code.includes(c.match));
    if (hits.length === 0) problems.push(`case ${c.id}: no README block contains ${JSON.stringify(c.match)} any more; the example was removed or changed, update readme-cases.mjs`);
    if (hits.length > 1) problems.push(`case ${c.id}: ${JSON.stringify(c.match)} is in ${hits.length} blocks (${label}:${hits.map((b) => b.line).join(', ')}); make it distinctive`);
    if (hits.length === 1) pairs.push({ case: c, block: hits[0] });
  }
  return { examples, pairs, problems };
}

const indent = (text) => text.replace(/^/gm, '    ');

/** A block as an ES module for the installed Node: its README line numbers kept (source map). */
export function transpile(block, readmePath) {
  const require = createRequire(import.meta.url);
  let esbuild;
  try {
    esbuild = require('esbuild');
  } catch (error) {
    throw new Error(`esbuild is needed to strip TypeScript and lower \`await using\` for Node ${process.versions.node} (${error.message})`);
  }
  const out = esbuild.transformSync('\n'.repeat(block.line - 1) + block.code, {
    loader: RUNNABLE[block.lang],
    format: 'esm',
    target: `node${process.versions.node}`,
    sourcemap: 'inline',
    sourcefile: readmePath,
    // Keep every import, even one used only as a type: a name the package does not export must fail
    // here as it would for a user (type-only imports have to say `import type`).
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
  });
  return out.code;
}

/** README prose claims that are not code blocks but are checked the same way. */
export function proseClaims(markdown, label = 'README.md') {
  const lines = markdown.split(/\r?\n/);
  const lineOf = (needle) => lines.findIndex((l) => l.includes(needle)) + 1;
  const flat = markdown.replace(/\s*\n\s*/g, ' ');
  const sync = /Synchronous forms \(([^)]*)\)[^.;]*need `await (\w+)\(\)` once[^.]*`NOT_INITIALIZED`/.exec(flat);
  const row = lines.find((l) => /^\|\s*`NOT_INITIALIZED`\s*\|/.test(l));
  const rowRemedy = row && /`await (\w+)\(\)`/.exec(row.split('|')[3] ?? '');
  const box = markdown.split(/^## What is in the box\s*$/m)[1]?.split(/^## /m)[0] ?? '';
  const apiRows = box.split(/\r?\n/).filter((l) => /^\|/.test(l) && !/^\|\s*(area|-)/.test(l));
  return {
    sync: sync && {
      names: [...sync[1].matchAll(/`(\w+)`/g)].map((m) => m[1]),
      remedies: [
        { fn: sync[2], where: `${label}:${lineOf('need `await ' + sync[2])}, the synchronous forms paragraph` },
        ...(rowRemedy ? [{ fn: rowRemedy[1], where: `${label}:${lineOf(row)}, the NOT_INITIALIZED row of the errors table` }] : []),
      ],
      line: lineOf('Synchronous forms ('),
    },
    api: {
      line: lineOf('## What is in the box'),
      names: apiRows.flatMap((r) => {
        const [, , functions = '', contract = ''] = r.split('|');
        return [...[...functions.matchAll(/`([^`]+)`/g)].map((m) => m[1].replace(/\(\)$/, '')), ...[...contract.matchAll(/`(\w+Error)`/g)].map((m) => m[1])];
      }),
      rules: Number(/(\d+) rules/.exec(box)?.[1] ?? NaN),
    },
    sizes: {
      line: lineOf('written to `dist/sizes.json`'),
      core: /WebAssembly core is ([\d.]+) KiB raw \/ ([\d.]+) KiB brotli/.exec(flat)?.slice(1).map(Number),
      js: /JavaScript is ([\d.]+) KiB raw \/ ([\d.]+) KiB brotli/.exec(flat)?.slice(1).map(Number),
    },
  };
}

/**
 * Whether the README's sizes are those of the build (dist/sizes.json, written by every build),
 * within a tenth: they drift a little with each rule, and were once 20 to 60% stale.
 */
export function sizeProblems(claimed, sizes) {
  const problems = [];
  const kib = (n) => n / 1024;
  for (const [name, key] of [['core', 'core .wasm'], ['js', Object.keys(sizes).find((k) => k.startsWith('library JS'))]]) {
    const said = claimed[name];
    const built = sizes[key];
    if (!said || !built) {
      problems.push(`no ${name} sizes ${said ? 'in dist/sizes.json' : 'in the README (update proseClaims)'}`);
      continue;
    }
    const [raw, brotli] = [kib(built.raw), kib(built.brotli)];
    for (const [what, readme, actual] of [['raw', said[0], raw], ['brotli', said[1], brotli]]) {
      if (Math.abs(readme / actual - 1) > 0.1) problems.push(`README says the ${name === 'core' ? 'WebAssembly core' : "library's JavaScript"} is ${readme} KiB ${what}; the build measured ${actual.toFixed(0)} KiB`);
    }
  }
  return problems;
}

/** Runs the README suite in `dir`, the consumer project with the packed package installed. */
export function readmeSuite({ root, dir, check }) {
  try {
    suite({ root, dir, check });
  } catch (error) {
    check('README examples', () => {
      throw error;
    });
  }
}

function suite({ root, dir, check }) {
  const readmePath = resolve(process.env.CTXGATE_README ?? join(root, 'README.md'));
  const label = readmePath.startsWith(root + sep) ? relative(root, readmePath) : readmePath;
  const markdown = readFileSync(readmePath, 'utf8');
  const casesUrl = pathToFileURL(join(here, 'readme-cases.mjs')).href;
  const harness = join(dir, 'readme-harness');
  cpSync(join(here, 'readme-harness'), harness, { recursive: true });
  mkdirSync(join(dir, 'readme-blocks'), { recursive: true });
  if (!existsSync(join(dir, 'deno.json'))) writeFileSync(join(dir, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }));
  const totals = { blocks: 0, runs: 0, assertions: 0 };

  let classified;
  check(`${label}: every TS/JS code block is run or listed as not runnable, with a reason`, () => {
    classified = classify(markdown, CASES, label);
    const notRunnable = classified.pairs.filter((p) => p.case.notRunnable).map((p) => `${p.case.id} (line ${p.block.line}): ${p.case.notRunnable}`);
    if (classified.problems.length) throw new Error(classified.problems.join('\n'));
    totals.blocks = classified.examples.length;
    return `${classified.examples.length} blocks, ${classified.pairs.length - notRunnable.length} run in Node; not runnable: ${notRunnable.join('; ') || 'none'}`;
  });

  const child = (args, runtime = 'node') => {
    const cmd = runtime === 'deno' ? join(root, 'node_modules/.bin/deno') : process.execPath;
    const argv = runtime === 'deno' ? ['run', '--allow-read', '--allow-env', ...args] : ['--enable-source-maps', ...args];
    const env = { ...process.env, NO_COLOR: '1' };
    const out = execFileSync(cmd, argv, { cwd: dir, env, encoding: 'utf8', timeout: 120_000, stdio: ['ignore', 'pipe', 'pipe'] });
    const line = out.split('\n').find((l) => l.startsWith('README-RESULT '));
    if (!line) throw new Error(`no result line from the harness:\n${out}`);
    const result = JSON.parse(line.slice('README-RESULT '.length));
    totals.assertions += result.assertions;
    totals.runs++;
    return result;
  };

  for (const { case: c, block } of classified?.pairs ?? []) {
    const file = join(dir, 'readme-blocks', `${c.id}.mjs`);
    let code;
    try {
      code = transpile(block, readmePath);
      writeFileSync(file, code);
    } catch (error) {
      check(`${label}:${block.line} ${c.title}: transpiles`, () => {
        throw error;
      });
      continue;
    }
    for (const variant of c.variants ?? []) {
      check(`${label}:${block.line} ${c.title}${c.notRunnable ? ' (loaded, not run by its tool)' : ''}: ${variant.name}`, () => {
        const result = child(['readme-harness/runner.mjs', casesUrl, c.id, variant.name, file]);
        return `${result.assertions} assertions`;
      });
    }
  }

  // The synchronous forms need the core loaded first and throw NOT_INITIALIZED before; the remedy
  // the README names (in the prose and in the errors table) must work, in Node and in Deno.
  const claims = proseClaims(markdown, label);
  check(`${label}:${claims.sync?.line ?? '?'} the synchronous-forms claim is found`, () => {
    if (!claims.sync || claims.sync.names.length === 0) throw new Error('README no longer says which synchronous forms need `await loadCore()` and throw NOT_INITIALIZED; update proseClaims in readme.mjs');
    const unknown = claims.sync.names.filter((n) => !Object.hasOwn(SYNC_SAMPLES, n));
    if (unknown.length) throw new Error(`no sample arguments for ${unknown.join(', ')}; add them to SYNC_SAMPLES in readme-cases.mjs`);
    return `${claims.sync.names.join(', ')}; remedies: ${claims.sync.remedies.map((r) => `${r.fn}() (${r.where})`).join(', ')}`;
  });
  for (const remedy of claims.sync?.remedies ?? []) {
    for (const runtime of ['node', 'deno']) {
      check(`${remedy.where}: before it the synchronous forms throw NOT_INITIALIZED, after \`await ${remedy.fn}()\` they work (${runtime === 'deno' ? 'Deno, Web Worker engine' : 'Node'})`, () => {
        const names = Object.fromEntries(claims.sync.names.filter((n) => Object.hasOwn(SYNC_SAMPLES, n)).map((n) => [n, SYNC_SAMPLES[n]]));
        const result = child(['readme-harness/claims.mjs', 'sync', JSON.stringify({ names, remedy: remedy.fn })], runtime);
        return `${result.assertions} assertions`;
      });
    }
  }
  check(`${label}:${claims.api.line} every name in the "What is in the box" table is exported by the package, and the rule count is right`, () => {
    if (claims.api.names.length === 0) throw new Error('no names found in the "What is in the box" table; update proseClaims in readme.mjs');
    const result = child(['readme-harness/claims.mjs', 'api', JSON.stringify(claims.api)]);
    return `${claims.api.names.length} names, ${result.assertions} assertions`;
  });

  check(`${label}:${claims.sizes.line} the sizes are the build's (dist/sizes.json, within 10%)`, () => {
    const problems = sizeProblems(claims.sizes, JSON.parse(readFileSync(join(root, 'dist/sizes.json'), 'utf8')));
    if (problems.length) throw new Error(problems.join('\n'));
    return `core ${claims.sizes.core.join(' / ')} KiB, JavaScript ${claims.sizes.js.join(' / ')} KiB (raw / brotli)`;
  });

  console.log(`README: ${totals.blocks} code blocks, ${totals.runs} runs, ${totals.assertions} assertions`);
}
