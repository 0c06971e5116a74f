#!/usr/bin/env node
// The published package, as a consumer gets it: `npm pack`, install the tarball into an empty
// project, then use it from Node and from Deno (which resolves the "deno" conditions and runs the
// core in a Web Worker). Catches what tests of the sources cannot: files missing from the package,
// broken export maps, URLs that tsc does not rewrite. Then every TS/JS example of README.md runs
// against the installed package (readme.mjs). Prints `N passed, M failed`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readmeSuite } from './readme.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'ctxgate-package-'));
let passed = 0;
let failed = 0;
const check = (name, fn) => {
  try {
    const out = fn();
    console.log(`✓ ${name}${out ? `: ${out}` : ''}`);
    passed++;
  } catch (error) {
    console.log(`✗ ${name}\n${String(error.stdout ?? '')}${String(error.stderr ?? error.message ?? error)}`);
    failed++;
  }
};

const script = `
import { createCtxgate, sha256Hex, fingerprint, buildContext, indexProject, scanSecrets, loadCore, estimateTokens, shutdown } from 'ctxgate';
const cg = await createCtxgate();
const sha = await cg.sha256Hex('abc');
const fp = await fingerprint({ b: 1, a: [true] });
const files = [{ path: 'src/a.ts', text: 'export const a = 1;\\n' }, { path: '.env', text: 'K=v' }];
const projectIndex = await indexProject(files, { engine: cg });
const r = await buildContext({ purpose: 'diff', intent: null, planStep: { id: 's', targetFiles: ['src/a.ts'] }, projectIndex, constraints: {},
  tokenBudget: { provider: 'p', model: 'm', maxInputTokens: 10000, maxOutputTokens: 100, responseTokenReserve: 100, softLimitThresholdPct: 80 },
  createdAt: '2026-01-01T00:00:00.000Z' }, { contents: new Map(files.map((f) => [f.path, f.text])), engine: cg });
await loadCore();
const tokens = estimateTokens('hello world').tokens;
const findings = scanSecrets('token = ' + ['ghp', '_', 'R7k2Qp9Xw4Lm8Zt1Vb6Nc3Hd5Jf0Gs2Ae7Ky'].join('')).map((f) => f.ruleId);
console.log(JSON.stringify({ mode: cg.mode, sha, fp, blocks: r.bundle.blocks.length, fingerprint: r.manifest.fingerprints.bundleFingerprint, tokens, findings }));
await cg.close();
await shutdown();
`;

try {
  check('npm pack', () => {
    const out = execFileSync('npm', ['pack', '--silent', '--pack-destination', dir], { cwd: root, encoding: 'utf8' }).trim().split('\n').pop();
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--silent', join(dir, out)], { cwd: dir, encoding: 'utf8' });
    return out;
  });
  check('every source map in the package carries its sources (the package has no src/)', () => {
    const dist = join(dir, 'node_modules', 'ctxgate', 'dist');
    const maps = readdirSync(dist, { recursive: true }).filter((f) => String(f).endsWith('.js.map'));
    const bare = maps.filter((f) => {
      const map = JSON.parse(readFileSync(join(dist, String(f)), 'utf8'));
      return !Array.isArray(map.sourcesContent) || map.sourcesContent.length !== map.sources.length || map.sourcesContent.some((c) => typeof c !== 'string' || c === '');
    });
    if (maps.length < 50 || bare.length > 0) throw new Error(`${maps.length} maps, without sources: ${bare.slice(0, 5).join(', ')}`);
    return `${maps.length} maps`;
  });
  writeFileSync(join(dir, 'use.mjs'), script);
  writeFileSync(join(dir, 'deno.json'), JSON.stringify({ nodeModulesDir: 'manual' }));
  const results = {};
  check('Node uses the installed package (in-thread engine)', () => {
    results.node = JSON.parse(execFileSync(process.execPath, ['use.mjs'], { cwd: dir, encoding: 'utf8' }).trim());
    if (results.node.mode !== 'inline') throw new Error(`mode ${results.node.mode}`);
    return JSON.stringify(results.node);
  });
  check('Deno uses the installed package (Web Worker engine)', () => {
    const deno = join(root, 'node_modules/.bin/deno');
    results.deno = JSON.parse(execFileSync(deno, ['run', '--allow-read', '--allow-env', 'use.mjs'], { cwd: dir, encoding: 'utf8' }).trim());
    if (results.deno.mode !== 'worker') throw new Error(`mode ${results.deno.mode}`);
    return JSON.stringify(results.deno);
  });
  check('Deno: a script that only calls package-level functions ends by itself, without shutdown()', () => {
    writeFileSync(
      join(dir, 'plain.mjs'),
      "import { indexProject, sha256Hex } from 'ctxgate';\nconst index = await indexProject([{ path: 'a.ts', text: 'x' }]);\nconsole.log(JSON.stringify({ files: index.files.length, sha: await sha256Hex('abc') }));\n",
    );
    // The timeout only stops a hung run (the process used to wait for the shared Web Worker forever).
    const out = execFileSync(join(root, 'node_modules/.bin/deno'), ['run', '--allow-read', '--allow-env', 'plain.mjs'], { cwd: dir, encoding: 'utf8', timeout: 120_000 }).trim();
    if (out !== '{"files":1,"sha":"ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}') throw new Error(out);
    return out;
  });
  check('Node and Deno give identical answers', () => {
    const { mode: _a, ...n } = results.node ?? {};
    const { mode: _b, ...d } = results.deno ?? {};
    if (JSON.stringify(n) !== JSON.stringify(d)) throw new Error(`node ${JSON.stringify(n)}\ndeno ${JSON.stringify(d)}`);
    if (n.sha !== 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad') throw new Error('wrong sha256');
    if (!n.findings?.includes('github-pat')) throw new Error('scanner found nothing');
  });
  readmeSuite({ root, dir, check });
  check('a Vite production build of a page using the package runs the core in a Web Worker (Chromium)', () => {
    writeFileSync(join(dir, 'index.html'), '<!doctype html><meta charset="utf-8"><pre id="out">pending</pre><script type="module" src="./page.js"></script>');
    writeFileSync(
      join(dir, 'page.js'),
      "import { createCtxgate } from 'ctxgate';\nconst cg = await createCtxgate();\ndocument.querySelector('#out').textContent = JSON.stringify({ mode: cg.mode, sha: await cg.sha256Hex('abc') });\n",
    );
    writeFileSync(join(dir, 'browser.mjs'), browserCheck(root));
    execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: dir, encoding: 'utf8' });
    const out = JSON.parse(execFileSync(process.execPath, ['browser.mjs'], { cwd: dir, encoding: 'utf8' }).trim());
    if (out.mode !== 'worker' || out.sha !== 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad') throw new Error(JSON.stringify(out));
    return JSON.stringify(out);
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** A script that serves dist/ with Vite preview and reads the page's answer in headless Chromium. */
function browserCheck(root) {
  const url = (p) => JSON.stringify(new URL(p, `file://${root}/`).href);
  return `
import { chromium } from ${url('node_modules/playwright-core/index.mjs')};
import { preview } from ${url('node_modules/vite/dist/node/index.js')};
const server = await preview({ root: process.cwd(), preview: { port: 0, host: '127.0.0.1' }, logLevel: 'silent' });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'] });
try {
  const page = await browser.newPage();
  await page.goto(server.resolvedUrls.local[0]);
  await page.waitForFunction(() => document.querySelector('#out').textContent !== 'pending', null, { timeout: 30000 });
  console.log(await page.textContent('#out'));
} finally {
  await browser.close();
  server.httpServer.close();
}
`;
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
