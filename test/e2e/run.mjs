#!/usr/bin/env node
// Browser tests of the playground in Chromium (playwright-core + /usr/bin/chromium). Builds
// nothing: serves dist-web/ (from `node build/build.mjs`) with Vite preview on 127.0.0.1, runs the
// checks in order, saves a screenshot of each state under test-output/e2e/, prints the long tasks
// seen on the main thread while scanning a large input, and ends with `N passed, M failed`.
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { preview } from 'vite';
import { fakeChars, plantedDbPassword, plantedSecret } from '../../web/app/planted.mjs';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const out = join(root, 'test-output/e2e');
const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic'];

let passed = 0;
let failed = 0;
const report = [];

async function check(name, fn) {
  const t0 = Date.now();
  try {
    await fn();
    passed++;
    console.log(`  ✓ ${name} (${Date.now() - t0} ms)`);
  } catch (error) {
    failed++;
    console.log(`  ✗ ${name}\n      ${String(error?.stack ?? error).split('\n').slice(0, 4).join('\n      ')}`);
  }
}
function assert(cond, message) {
  if (!cond) throw new Error(message);
}
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

if (!existsSync(join(root, 'dist-web/index.html'))) {
  console.error('dist-web/ is missing: run `node build/build.mjs` first.');
  console.log('0 passed, 1 failed');
  process.exit(1);
}
if (!existsSync(executablePath)) {
  console.error(`Chromium not found at ${executablePath}; install it with: apt-get install -y chromium`);
  console.log('0 passed, 1 failed');
  process.exit(1);
}
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

const port = await freePort();
const server = await preview({
  configFile: join(root, 'vite.config.ts'),
  logLevel: 'warn',
  preview: { host: '127.0.0.1', port, strictPort: true, open: false },
});
const url = `http://127.0.0.1:${port}/`;
const profile = mkdtempSync(join(tmpdir(), 'ctxgate-e2e-'));
/** The desktop viewport the checks start in and return to. */
const WIDE = { width: 1280, height: 900 };
const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ['--headless', ...ARGS], viewport: WIDE });
const page = context.pages()[0] ?? (await context.newPage());
// A test hook from outside the page: every Worker the page starts is kept, so a check can stop
// one as a crash would (terminate + an error event, which ctxgate's client listens for).
await page.addInitScript(() => {
  const Base = window.Worker;
  window.__workers = [];
  window.Worker = class extends Base {
    constructor(url, options) {
      super(url, options);
      window.__workers.push({ name: options?.name ?? '', worker: this });
    }
  };
  /** The newest of the page's analysis workers ('analyzer') or of ctxgate's engines ('engine'). */
  window.__newestWorker = (which) => window.__workers.filter((w) => (which === 'analyzer') === (w.name === 'playground-analyze')).at(-1).worker;
  window.__crash = (worker) => {
    worker.terminate();
    worker.dispatchEvent(new ErrorEvent('error', { message: 'simulated crash' }));
  };
});
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
page.on('console', (m) => {
  if (m.type() === 'error') pageErrors.push(m.text());
});

const SECRET = plantedSecret();
// A folder for the .gitignore checks: what it ignores holds a fake token that must never be indexed.
const fixtures = mkdtempSync(join(tmpdir(), 'ctxgate-e2e-folder-'));
const FOLDER = join(fixtures, 'folder-project');
const IGNORED_TOKEN = 'gh' + 'p_' + fakeChars(ALNUM, 36, 4242);
// Written in NFD (e + combining acute), as macOS file systems hand names out; the index says NFC.
const NFD_NAME = 'src/cafe\u0301.ts';
/** Writes `files` ([path, text] pairs) under `dir`. */
function writeTree(dir, files) {
  for (const [path, text] of files) {
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}
writeTree(FOLDER, [
  ['.gitignore', 'secrets/\ndist/\n*.log\n'],
  ['.env', `DB_PASSWORD=${plantedDbPassword()}\n`],
  ['src/app.ts', "import { helper } from './util';\n/** The entry. */\nexport function main(): number {\n  return helper();\n}\n"],
  ['src/util.ts', 'export function helper(): number {\n  return 1;\n}\n'],
  [NFD_NAME, 'export const cafe = 1;\n'],
  ['secrets/creds.json', `{ "token": "${IGNORED_TOKEN}" }\n`],
  ['dist/bundle.js', 'console.log("built");\n'],
  ['app.log', 'started\n'],
]);
// A folder without a .gitignore whose installed packages sit below the root, where the SDK's
// never-send default (node_modules at the root) does not reach.
const NESTED = join(fixtures, 'nested-project');
const PACKAGE_TOKEN = 'gh' + 'p_' + fakeChars(ALNUM, 36, 0x0de);
writeTree(NESTED, [
  ['apps/web/src/main.ts', 'export const main = 1;\n'],
  ['apps/web/node_modules/left-pad/index.js', `module.exports = { token: "${PACKAGE_TOKEN}" };\n`],
  ['apps/web/node_modules/left-pad/package.json', '{ "name": "left-pad" }\n'],
]);
// A folder whose one directory holds more entries than Chromium's readEntries hands out at once
// (100): a drop must read every batch. Its installed packages are not read.
const WIDE_DIR = join(fixtures, 'wide-project');
writeTree(WIDE_DIR, [
  ['.gitignore', '*.log\n'],
  ['build.log', 'done\n'],
  ['node_modules/left-pad/index.js', `module.exports = { token: "${PACKAGE_TOKEN}" };\n`],
  ...Array.from({ length: 130 }, (_, i) => [`src/gen/m${String(i).padStart(3, '0')}.ts`, `export const m${i} = ${i};\n`]),
]);
const DB_PASSWORD = plantedDbPassword();
// Two animation frames first, so a just-scrolled region is fully painted in the screenshot.
const shot = async (name, opts = {}) => {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.screenshot({ path: join(out, `${name}.png`), fullPage: true, ...opts });
};
const ready = () => page.waitForSelector('#core-status[data-ready]', { timeout: 30_000 });
const fingerprint = () => page.locator('[data-fingerprint=bundle]').textContent();
async function loadSample() {
  await page.click('#load-sample');
  await page.waitForSelector('#result-body .result', { timeout: 60_000 });
}
/** Stops the newest ctxgate engine's worker as a crash would. */
const crashEngine = () => page.evaluate(() => window.__crash(window.__newestWorker('engine')));
/** Waits for the header to say the engine is ready again. */
const engineReady = () => page.waitForFunction(() => document.querySelector('#core-status')?.dataset.ready && /Ready/.test(document.querySelector('#core-status').textContent), null, { timeout: 30_000 });
const statusOf = (id) => page.evaluate((id) => document.getElementById(id)?.textContent ?? '', id);
const atWidth = (width) => page.setViewportSize({ width, height: 780 });
/** Waits until the text of `selector` matches `re` (a regular expression without flags). */
const waitForText = (selector, re, timeout = 30_000) =>
  page.waitForFunction(([selector, source]) => new RegExp(source).test(document.querySelector(selector)?.textContent ?? ''), [selector, re.source], { timeout });
/** Starts a load with `start` and waits for it to end, indexed or failed; returns the load line. */
async function loadWith(start) {
  await page.evaluate(() => (document.querySelector('#load-text').textContent = ''));
  await start();
  await waitForText('#load-text', /Indexed|failed/, 60_000);
  return statusOf('load-text');
}
async function loadFolder(dir) {
  const text = await loadWith(() => page.setInputFiles('#pick-folder', dir));
  assert(/Indexed/.test(text), `loading the folder: ${text}`);
}
/** Drops on the drop zone files ([name, text] pairs) or, given a string, plain text. */
const dropOnZone = (what) =>
  page.evaluate((what) => {
    const dt = new DataTransfer();
    if (typeof what === 'string') dt.setData('text/plain', what);
    else for (const [name, text] of what) dt.items.add(new File([text], name));
    document.querySelector('#dropzone').dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
  }, what);
/**
 * Drops a folder from disk on the drop zone as a person does: through Chromium's input pipeline
 * (CDP Input.dispatchDragEvent), so the page gets real entries (webkitGetAsEntry) to walk, which
 * a DataTransfer built in the page never has.
 */
async function dropFolder(dir) {
  const zone = page.locator('#dropzone');
  await zone.scrollIntoViewIfNeeded();
  const box = await zone.boundingBox();
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: [dir], dragOperationsMask: 1 };
  for (const type of ['dragEnter', 'dragOver', 'drop']) await cdp.send('Input.dispatchDragEvent', { type, x: box.x + box.width / 2, y: box.y + box.height / 2, data });
  await cdp.detach();
}
/** Opens the table of the index's files and returns their paths. */
async function indexedPaths() {
  await page.click('#files-details summary');
  await page.waitForSelector('#files-table');
  return page.locator('#files-table tbody tr td:first-child').allTextContents();
}
/** Clicks Build and returns the refusal with `code` (waiting for it). */
async function buildRefusal(code) {
  await page.click('#build');
  const refusal = page.locator(`.refusal[data-code=${code}]`);
  await refusal.waitFor({ timeout: 30_000 });
  return refusal;
}
const buildRefused = async (code) => (await buildRefusal(code)).innerText();
/** The contexts the page's store keeps in IndexedDB, as JSON. */
const storedContexts = () =>
  page.evaluate(
    () =>
      new Promise((resolve, reject) => {
        const open = indexedDB.open('ctxgate-playground');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const all = open.result.transaction('contexts').objectStore('contexts').getAll();
          all.onsuccess = () => resolve(JSON.stringify(all.result));
          all.onerror = () => reject(all.error);
        };
      }),
  );
async function buildAndWait() {
  await page.evaluate(() => (document.querySelector('#build-status').textContent = ''));
  await page.click('#build');
  await waitForText('#build-status', /Built in|Refused|stopped|failed/, 60_000);
  return statusOf('build-status');
}
/** Fails when a planted secret, or one of `extra` ([name, value] pairs), is in the page's text or markup. */
async function noSecretInDom(extra = []) {
  const { text, html } = await page.evaluate(() => ({ text: document.body.innerText, html: document.documentElement.outerHTML }));
  for (const [name, value] of [['planted API key', SECRET], ['.env password', DB_PASSWORD], ...extra]) {
    assert(!text.includes(value), `${name} appears in document.body.innerText`);
    assert(!html.includes(value), `${name} appears in the page's outerHTML`);
  }
}

/** Targets the folder project's NFD-named file and builds; returns the bundle's fingerprint. */
async function buildCafe() {
  await page.fill('#intent', 'Rename cafe');
  await page.fill('#target-input', 'src/caf\u00e9.ts');
  await page.press('#target-input', 'Enter');
  const status = await buildAndWait();
  assert(/Built in/.test(status), `build: ${status} ${(await page.locator('#result-body').innerText()).slice(0, 300)}`);
  return fingerprint();
}

console.log(`ctxgate playground e2e: ${url} (Chromium ${context.browser()?.version() ?? ''})`);
let firstFingerprint = '';
try {
  await check('the page loads and starts the core in a Web Worker', async () => {
    await page.goto(url);
    await ready();
    const status = await page.locator('#core-status').textContent();
    assert(/Web Worker/.test(status), `status: ${status}`);
    assert((await page.locator('#core-status').getAttribute('data-ready')) === 'worker', 'engine mode is not worker');
    await shot('01-loaded');
  });

  await check('loading the sample builds a bundle with blocks, a budget and three fingerprints', async () => {
    await page.evaluate(() => {
      window.__longTasks = [];
      new PerformanceObserver((l) => window.__longTasks.push(...l.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
    });
    await loadSample();
    const loadTasks = await page.evaluate(() => window.__longTasks.splice(0));
    report.push(`long tasks while loading + indexing + building the sample: ${loadTasks.length} (max ${Math.max(0, ...loadTasks).toFixed(0)} ms, total ${loadTasks.reduce((a, b) => a + b, 0).toFixed(0)} ms)`);
    const blocks = await page.locator('.blocks > li').count();
    assert(blocks >= 3, `only ${blocks} blocks`);
    const types = await page.locator('.blocks .btype').allTextContents();
    assert(types[0] === 'system', `first block is ${types[0]}`);
    assert(types.includes('file'), 'no file block');
    assert(await page.locator('.budget .bar .mark.soft').count(), 'no soft mark on the budget bar');
    assert(await page.locator('.budget .bar .mark.hard').count(), 'no hard mark on the budget bar');
    const tokenLabels = await page.locator('.blocks .tokens').allTextContents();
    assert(tokenLabels.every((t) => /tok · (exact|estimated)/.test(t)), `token labels: ${tokenLabels.join(' | ')}`);
    firstFingerprint = (await fingerprint()) ?? '';
    assert(/^[0-9a-f]{64}$/.test(firstFingerprint), `bundle fingerprint: ${firstFingerprint}`);
    assert((await page.locator('.fps code.hash').count()) === 3, 'not three fingerprints');
    const summary = await page.locator('#project-line').textContent();
    // Known answers for the bundled sample and the page's toy indexer.
    assert(/^Sample project \(acme-orders\): 17 files, /.test(summary), `project summary: ${summary}`);
    assert(/36 symbols and 19 import edges/.test(summary) && /; 1 never sent/.test(summary) && /secrets found in 1 file\(s\) \(src\/services\/ai-client\.ts\)/.test(summary), `project summary: ${summary}`);
    const why = await page.locator('.blocks > li', { hasText: 'src/lib/money.ts' }).locator('p.help').first().textContent();
    assert(/imported by a target/.test(why), `money.ts is not a dependency: ${why}`);
    await shot('02-sample-built');
  });

  await check('the planted secret is redacted in place and never reaches the DOM', async () => {
    const row = page.locator('#result-body tr.pattern_redacted', { hasText: 'src/services/ai-client.ts' });
    assert((await row.count()) >= 1, 'no pattern_redacted entry for src/services/ai-client.ts');
    const block = page.locator('.blocks > li', { hasText: 'src/services/ai-client.ts' });
    assert((await block.count()) === 1, 'ai-client.ts is not a block');
    const marks = await block.locator('mark.redacted').allTextContents();
    assert(marks.length >= 1 && marks.every((m) => /^\[REDACTED:[a-z0-9-]+:\d+\]$/.test(m)), `placeholders: ${marks.join(', ')}`);
    const envExcluded = page.locator('#result-body tr', { hasText: '.env' });
    assert((await envExcluded.count()) >= 1, '.env is not listed as excluded');
    await noSecretInDom();
    await block.locator('mark.redacted').first().scrollIntoViewIfNeeded();
    await shot('03-redaction', { fullPage: false });
  });

  await check('the bundle fingerprint is stable across a rebuild and a reload', async () => {
    await page.click('#build');
    await waitForText('#build-status', /Built in/);
    assert((await fingerprint()) === firstFingerprint, 'rebuild changed the fingerprint');
    await page.reload();
    await ready();
    await loadSample();
    const again = await fingerprint();
    assert(again === firstFingerprint, `after reload: ${again} != ${firstFingerprint}`);
    await noSecretInDom();
  });

  await check('an ambiguous target symbol is refused with the definitions to choose from', async () => {
    await page.fill('#symbol-input', 'validate');
    await page.press('#symbol-input', 'Enter');
    const refusal = await buildRefusal('AMBIGUOUS_TARGET');
    const choices = await refusal.locator('.choices button').allTextContents();
    assert(choices.length === 2 && choices.some((c) => c.includes('src/models/order.ts')) && choices.some((c) => c.includes('src/models/customer.ts')), `choices: ${choices.join(' | ')}`);
    await refusal.scrollIntoViewIfNeeded();
    await shot('04a-ambiguous', { fullPage: false });
    await refusal.locator('.choices button', { hasText: 'src/models/order.ts' }).click();
    await page.waitForSelector('#result-body .result', { timeout: 30_000 });
    const block = page.locator('.blocks > li', { hasText: 'src/models/order.ts' });
    assert((await block.locator('.tier').textContent()) === 'P0', 'the chosen definition is not a P0 target');
    await page.click('button[aria-label="Remove symbol validate"]');
  });

  await check('a too-small budget shows the refusal and says what to narrow', async () => {
    await page.fill('#max-input', '200');
    await page.fill('#reserve', '100');
    const refusal = await buildRefusal('CONTEXT_TOO_LARGE');
    assert((await refusal.getAttribute('role')) === 'alert', 'refusal is not an alert');
    const text = await refusal.innerText();
    assert(/Narrow|narrow/.test(text) && /symbol/.test(text), `refusal text: ${text.slice(0, 300)}`);
    assert(await refusal.locator('.budget .bar.over').count(), 'refusal has no over-budget bar');
    await noSecretInDom();
    await refusal.scrollIntoViewIfNeeded();
    await shot('04-refusal', { fullPage: false });
    await page.selectOption('#model', 'gpt-4o-mini');
    await page.selectOption('#model', 'gpt-4o');
  });

  let storeVersion = '';
  let storeRuns = 0;
  await check('the store records each build and survives a reload', async () => {
    await page.click('#tab-store');
    await page.waitForSelector('#store-version', { timeout: 15_000 });
    storeVersion = (await page.locator('#store-version').textContent()) ?? '';
    storeRuns = await page.locator('#store-runs tbody tr').count();
    assert(Number(storeVersion) >= 4, `store version ${storeVersion} after 4 builds`);
    assert(storeRuns >= 4, `${storeRuns} runs recorded`);
    assert((await page.locator('#store-runs tbody tr').first().innerText()).includes('refused'), 'the refusal is not the newest run');
    assert((await page.locator('#store-diffs li').count()) >= 4, 'audit trail has too few diffs');
    await shot('05-store');
    await page.reload();
    await ready();
    await page.waitForSelector('#store-version', { timeout: 15_000 });
    assert((await page.locator('#store-version').textContent()) === storeVersion, 'store version changed across the reload');
    assert((await page.locator('#store-runs tbody tr').count()) === storeRuns, 'runs changed across the reload');
    await shot('06-store-after-reload');
  });

  await check('a large project (1,500 files) loads in batches with a progress bar and counts', async () => {
    await page.click('#tab-build');
    const files = [];
    for (let i = 0; i < 1500; i++) {
      const body = [`import { f${Math.max(0, i - 1)} } from './m${Math.max(0, i - 1)}';`, `/** Module ${i}. */`, `export function f${i}(x: number): number {`, ...Array.from({ length: 60 }, (_, k) => `  x = (x * ${k + 3} + ${i}) % 1000003; // step ${k}`), `  return f${Math.max(0, i - 1)}(x);`, '}'];
      if (i === 777) body.push(`const token = '${'gh' + 'p_'}${fakeChars(ALNUM, 36, 777)}';`);
      files.push({ name: `m${i}.ts`, mimeType: 'text/plain', buffer: Buffer.from(body.join('\n')) });
    }
    await page.evaluate(() => {
      window.__longTasks = [];
      window.__po?.disconnect();
      window.__po = new PerformanceObserver((l) => window.__longTasks.push(...l.getEntries().map((e) => ({ start: e.startTime, duration: e.duration }))));
      window.__po.observe({ type: 'longtask' });
      window.__t0 = performance.now();
      window.__progress = [];
      new MutationObserver(() => window.__progress.push({ at: performance.now(), text: document.querySelector('#load-text').textContent })).observe(document.querySelector('#load-text'), { childList: true, characterData: true, subtree: true });
      document.querySelector('#pick-files').addEventListener('change', () => (window.__changeAt = performance.now()), { once: true });
    });
    await page.setInputFiles('#pick-files', files);
    await waitForText('#load-text', /(?:Reading and indexing|Analysing and scanning): [1-9][\d,]* of 1,500/, 60_000);
    await page.locator('#load-progress').scrollIntoViewIfNeeded();
    await shot('07a-large-project-progress', { fullPage: false });
    await waitForText('#load-text', /Indexed 1,500 files/, 120_000);
    await page.waitForTimeout(200);
    const m = await page.evaluate(() => ({ tasks: window.__longTasks, now: performance.now(), progress: window.__progress, changeAt: window.__changeAt }));
    const counts = m.progress.filter((p) => /of 1,500/.test(p.text));
    assert(counts.length >= 5, `only ${counts.length} progress updates`);
    if (process.env.E2E_DEBUG) console.log(JSON.stringify({ changeAt: m.changeAt, tasks: m.tasks, first: m.progress[0], last: m.progress.at(-1) }));
    // A task that starts before the input's change event is Playwright creating the 1,500 File
    // objects; the page's change handler runs at its very end (the tail after changeAt).
    const ours = m.tasks.filter((t) => t.start >= m.changeAt);
    const setup = m.tasks.filter((t) => t.start < m.changeAt);
    const sum = (l) => l.reduce((a, t) => a + t.duration, 0).toFixed(0);
    const tail = setup.reduce((a, t) => a + Math.max(0, t.start + t.duration - m.changeAt), 0).toFixed(0);
    report.push(
      `long tasks while loading a 1,500-file project, from the input's change event on: ${ours.length} (max ${Math.max(0, ...ours.map((t) => t.duration)).toFixed(0)} ms, total ${sum(ours)} ms of ${(m.now - m.changeAt).toFixed(0)} ms; ${counts.length} progress updates); ` +
        `the harness setting the files: ${setup.length} task(s), ${sum(setup)} ms, of which ${tail} ms after the change event`,
    );
    const line = await page.locator('#project-line').textContent();
    assert(/1,500 files/.test(line) && /m777\.ts/.test(line), `project line: ${line}`);
    await shot('07b-large-project-loaded', { fullPage: false });
  });

  await check('tabs work with the keyboard (arrow keys, Home, End)', async () => {
    await page.focus('#tab-store');
    await page.keyboard.press('Home');
    assert((await page.locator('#tab-build').getAttribute('aria-selected')) === 'true', 'Home did not select the first tab');
    await page.keyboard.press('ArrowRight');
    assert((await page.locator('#tab-scanner').getAttribute('aria-selected')) === 'true', 'ArrowRight did not move');
    assert(await page.locator('#panel-scanner').isVisible(), 'scanner panel hidden');
    assert((await page.evaluate(() => document.activeElement?.id)) === 'tab-scanner', 'focus did not follow');
    await page.keyboard.press('End');
    assert((await page.locator('#tab-store').getAttribute('aria-selected')) === 'true', 'End did not select the last tab');
    await page.keyboard.press('ArrowRight');
    assert((await page.locator('#tab-build').getAttribute('aria-selected')) === 'true', 'ArrowRight did not wrap');
  });

  await check('scanner: findings highlighted live as placeholders (debounced, in the worker)', async () => {
    await page.click('#tab-scanner');
    await page.click('#scan-example');
    await page.waitForSelector('#scan-table tbody tr');
    const rules = await page.locator('#scan-table tbody td:first-child').allTextContents();
    assert(rules.includes('github-pat'), `rules: ${rules.join(', ')}`);
    assert((await page.locator('#scan-preview mark.redacted').count()) === rules.length, 'not every finding is highlighted');
    const preview = await page.locator('#scan-preview').innerText();
    assert(!/ghp_[A-Za-z0-9]{36}/.test(preview), 'the token value is shown in the preview');
    await page.fill('#scan-input', 'nothing secret here');
    await waitForText('#scan-status', /^0 finding/);
    await shot('07-scanner', { fullPage: false });
  });

  await check('scanner: long tasks on the main thread while scanning a 4 MB input (reported)', async () => {
    await page.evaluate(() => {
      window.__longTasks = [];
      window.__po?.disconnect();
      window.__po = new PerformanceObserver((l) => window.__longTasks.push(...l.getEntries().map((e) => ({ start: e.startTime, duration: e.duration }))));
      window.__po.observe({ type: 'longtask' });
      window.__t0 = performance.now();
    });
    await page.click('#scan-large');
    await waitForText('#scan-status', /finding\(s\) in 4,/, 60_000);
    // Let the observer deliver the last entries.
    await page.waitForTimeout(200);
    const m = await page.evaluate(() => ({ tasks: window.__longTasks, elapsed: performance.now() - window.__t0, status: document.querySelector('#scan-status').textContent }));
    const total = m.tasks.reduce((a, t) => a + t.duration, 0);
    const max = Math.max(0, ...m.tasks.map((t) => t.duration));
    report.push(`long tasks while scanning a 4 MB input: ${m.tasks.length} (max ${max.toFixed(0)} ms, total ${total.toFixed(0)} ms of ${m.elapsed.toFixed(0)} ms elapsed; ${m.status})`);
    assert(/[1-9]\d* finding/.test(m.status), `no findings: ${m.status}`);
    assert(await page.locator('#scan-preview mark.redacted').count(), 'no highlighted finding in the large preview');
    await shot('08-scanner-large', { fullPage: false });
    await page.click('#scan-clear');
  });

  await check('tokens: estimate vs exact per encoding, with the difference', async () => {
    await page.click('#tab-tokens');
    await page.waitForSelector('#tok-results tbody tr[data-encoding=cl100k_base]', { timeout: 30_000 });
    const rows = await page.locator('#tok-results tbody tr').allInnerTexts();
    assert(rows.length === 2, `${rows.length} rows`);
    for (const r of rows) assert(/\d+ estimated/.test(r) && /\d+ exact/.test(r) && /[+−]\d/.test(r), `row: ${r}`);
    await shot('09-tokens', { fullPage: false });
  });

  await check('every form control has a label; focus is visible', async () => {
    const unlabeled = await page.evaluate(() =>
      [...document.querySelectorAll('input:not([type=hidden]), select, textarea, button')]
        .filter((el) => !(el.labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby') || (el.tagName === 'BUTTON' && el.textContent.trim())))
        .map((el) => el.id || el.outerHTML.slice(0, 60)),
    );
    assert(unlabeled.length === 0, `unlabeled: ${unlabeled.join(', ')}`);
    await page.click('#tab-build');
    await page.focus('#tab-build');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert(outline !== 'none', 'focused element has no outline');
  });

  await check('usable at 360 px: no horizontal page scroll', async () => {
    await atWidth(360);
    await page.click('#tab-build');
    await loadSample();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(width <= 360, `page is ${width} px wide`);
    await page.evaluate(() => window.scrollTo(0, 0));
    await shot('10-narrow-top', { fullPage: false });
    await page.evaluate(() => document.querySelector('#blocks-h').scrollIntoView());
    await shot('11-narrow-blocks', { fullPage: false });
    await page.click('#tab-store');
    await page.waitForSelector('#store-version');
    const storeWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    assert(storeWidth <= 360, `store tab is ${storeWidth} px wide`);
    await shot('12-narrow-store', { fullPage: false });
    await page.click('#tab-build');
    await page.setViewportSize(WIDE);
  });

  await check('the tab bar is one row at every width, with short labels where the full ones do not fit', async () => {
    const bar = () =>
      page.evaluate(() => {
        const list = document.querySelector('[role=tablist]');
        const tabs = [...list.querySelectorAll('[role=tab]')];
        return { tops: new Set(tabs.map((t) => Math.round(t.getBoundingClientRect().top))).size, overflow: list.scrollWidth - list.clientWidth, labels: tabs.map((t) => t.innerText.trim()).join('|') };
      });
    const seen = {};
    for (const width of [320, 375, 560, 600, 1280]) {
      await atWidth(width);
      const b = await bar();
      assert(b.tops === 1, `at ${width} px the tabs take ${b.tops} rows`);
      assert(b.overflow <= 0, `at ${width} px the tab bar overflows by ${b.overflow} px`);
      seen[width] = b.labels;
    }
    assert(seen[375] === 'Build|Scanner|Tokens|Store', `labels at 375 px: ${seen[375]}`);
    assert(seen[1280] === 'Build a context|Secret scanner|Tokens|Store', `labels at 1280 px: ${seen[1280]}`);
    // The accessible names are the full labels at any width.
    await atWidth(375);
    const names = await page.getByRole('tab').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? e.textContent.trim()).join('|'));
    assert(names === 'Build a context|Secret scanner|Tokens|Store', `tab names at 375 px: ${names}`);
    assert((await page.getByRole('tab', { name: 'Secret scanner' }).count()) === 1, 'no tab is named Secret scanner at 375 px');
    await page.setViewportSize(WIDE);
  });

  await check('exact counting labels every block as exact', async () => {
    await page.check('input[name=counting][value=exact]');
    await page.click('#build');
    await waitForText('#build-status', /Built in/);
    const labels = await page.locator('.blocks .tokens').allTextContents();
    assert(labels.length > 0 && labels.every((t) => /· exact$/.test(t)), `labels: ${labels.join(' | ')}`);
    await noSecretInDom();
  });

  await check('loading a second project clears the targets, intent, picks and result of the first', async () => {
    await loadSample();
    assert((await page.locator('#target-chips li').count()) > 0, 'the sample set no target');
    await loadFolder(FOLDER);
    assert((await page.locator('#target-chips li').count()) === 0, `targets kept: ${await page.locator('#target-chips').innerText()}`);
    assert((await page.locator('#symbol-chips li').count()) === 0, 'symbols kept');
    assert((await page.inputValue('#intent')) === '', 'the intent was kept');
    assert(await page.locator('#result').isHidden(), "the previous project's result is still shown");
    assert(/^folder-project: /.test(await statusOf('project-line')), `project line: ${await statusOf('project-line')}`);
  });

  await check("a folder's .gitignore is honoured: ignored files are not indexed, read or built into the bundle", async () => {
    await loadFolder(FOLDER);
    const rows = await indexedPaths();
    for (const ignored of ['secrets/creds.json', 'dist/bundle.js', 'app.log']) assert(!rows.includes(ignored), `${ignored} was indexed: ${rows.join(', ')}`);
    for (const kept of ['.gitignore', '.env', 'src/app.ts', 'src/util.ts']) assert(rows.includes(kept), `${kept} is missing: ${rows.join(', ')}`);
    assert((await page.locator('#files-table tbody tr', { hasText: '.env' }).innerText()).includes('never sent'), '.env is not marked never sent');
    // The index names the NFD file in NFC; targeting it by that name must read it.
    assert(rows.includes('src/caf\u00e9.ts'), `no NFC path for the NFD file: ${rows.join(', ')}`);
    await buildCafe();
    assert((await page.locator('.blocks > li', { hasText: 'src/caf\u00e9.ts' }).count()) === 1, 'the target is not a block');
    const body = await page.locator('#result-body').innerText();
    for (const ignored of ['secrets/creds.json', 'dist/bundle.js', 'app.log']) assert(!body.includes(ignored), `${ignored} appears in the result`);
    await noSecretInDom([['the ignored token', IGNORED_TOKEN]]);
  });

  await check('a folder dropped from disk is walked through its entries: the same index and bundle as the picked folder, every batch of a wide directory read', async () => {
    await loadFolder(FOLDER);
    const picked = await indexedPaths();
    const pickedFingerprint = await buildCafe();
    const dropped = await loadWith(() => dropFolder(FOLDER));
    assert(/Indexed/.test(dropped), `dropping the folder: ${dropped}`);
    assert(/^folder-project: /.test(await statusOf('project-line')), `project line: ${await statusOf('project-line')}`);
    const rows = await indexedPaths();
    assert(JSON.stringify(rows) === JSON.stringify(picked), `dropped ${rows.join(', ')} but picked ${picked.join(', ')}`);
    assert((await buildCafe()) === pickedFingerprint, 'the dropped folder built another bundle than the picked one');
    const wide = await loadWith(() => dropFolder(WIDE_DIR));
    assert(/Indexed 131 files/.test(wide), `dropping the wide folder: ${wide}`);
    const wideRows = await indexedPaths();
    assert(wideRows.filter((p) => p.startsWith('src/gen/')).length === 130 && wideRows.includes('src/gen/m129.ts'), `indexed ${wideRows.length}: ${wideRows.slice(-3).join(', ')}`);
    assert(!wideRows.includes('build.log'), 'the ignored log was indexed');
    assert(/Not read: 1 node_modules folder/.test(await statusOf('not-read')), `not read: ${await statusOf('not-read')}`);
    await noSecretInDom([['the package token', PACKAGE_TOKEN], ['the ignored token', IGNORED_TOKEN]]);
  });

  await check('node_modules below the root is not handed over or read, and the page says so; a failed drop keeps the project', async () => {
    await loadFolder(NESTED);
    const rows = await indexedPaths();
    assert(rows.length === 1 && rows[0] === 'apps/web/src/main.ts', `indexed: ${rows.join(', ')}`);
    assert(/Not read: 2 file\(s\) in node_modules/.test(await statusOf('not-read')), `not read: ${await statusOf('not-read')}`);
    await noSecretInDom([['the package token', PACKAGE_TOKEN]]);
    // Text dropped on the drop zone holds no file: the project stays loaded.
    await dropOnZone('just some text');
    assert(/Drop files or a folder/.test(await statusOf('build-status')), `after a text drop: ${await statusOf('build-status')}`);
    assert((await statusOf('project-line')).includes('nested-project'), `project after a text drop: ${await statusOf('project-line')}`);
  });

  await check("dropped files go through the SDK too: the dropped .gitignore leaves out what it ignores", async () => {
    const loaded = await loadWith(() => dropOnZone([['.gitignore', '*.log\n'], ['app.log', 'started\n'], ['main.ts', 'export const x = 1;\n']]));
    assert(/Indexed 2 files/.test(loaded), `load: ${loaded}`);
    const rows = await indexedPaths();
    assert(!rows.includes('app.log') && rows.includes('main.ts'), `indexed: ${rows.join(', ')}`);
  });

  await check('a project with nothing that can be sent disables Build and claims no secrets', async () => {
    await loadWith(() => dropOnZone([['.env', 'PLACEHOLDER=1\n']]));
    assert(await page.locator('#build').isDisabled(), 'Build is enabled for a project with nothing to send');
    const line = await statusOf('project-line');
    assert(!/secrets found in 0/.test(line), `project line: ${line}`);
    assert(/nothing to build/.test(await statusOf('build-status')), `build status: ${await statusOf('build-status')}`);
  });

  await check('a target that is not in the project is refused with the closest paths, not added', async () => {
    await loadSample();
    const before = await page.locator('#target-chips li').count();
    await page.fill('#target-input', 'src/lib/mo');
    await page.press('#target-input', 'Enter');
    assert((await page.locator('#target-chips li').count()) === before, 'the partial path was added');
    assert(!(await page.locator('#target-chips code').allTextContents()).includes('src/lib/mo'), 'a chip says src/lib/mo');
    const said = await statusOf('target-suggest');
    assert(/No file of the project has that path/.test(said) && said.includes('src/lib/money.ts'), `message: ${said}`);
    assert((await page.getAttribute('#target-input', 'aria-invalid')) === 'true', 'the field is not marked invalid');
    await page.locator('#target-suggest button', { hasText: 'src/lib/money.ts' }).click();
    assert((await page.locator('#target-chips').innerText()).includes('src/lib/money.ts'), 'the suggestion did not add the target');
    assert((await page.getAttribute('#target-input', 'aria-invalid')) !== 'true', 'the field stays invalid');
  });

  await check('a symbol the project does not define is refused with the closest names, not added', async () => {
    const before = await page.locator('#symbol-chips li').count();
    await page.fill('#symbol-input', 'formatMony');
    await page.press('#symbol-input', 'Enter');
    assert((await page.locator('#symbol-chips li').count()) === before, 'the misspelt symbol was added');
    const said = await statusOf('symbol-suggest');
    assert(/No symbol of that name is defined in the project\. Did you mean/.test(said) && said.includes('formatMoney'), `message: ${said}`);
    assert(!said.includes('formatMony'), `the message repeats what was typed: ${said}`);
    assert((await page.getAttribute('#symbol-input', 'aria-invalid')) === 'true', 'the field is not marked invalid');
    await page.locator('#symbol-suggest button', { hasText: 'formatMoney' }).click();
    assert((await page.locator('#symbol-chips code').allTextContents()).includes('formatMoney'), 'the suggestion did not add the symbol');
    assert((await page.getAttribute('#symbol-input', 'aria-invalid')) !== 'true', 'the field stays invalid');
    await page.click('button[aria-label="Remove symbol formatMoney"]');
    // A token pasted into the field is refused like any unknown name, and not shown back.
    const token = 'gh' + 'p_' + fakeChars(ALNUM, 36, 0x5e);
    await page.fill('#symbol-input', token);
    await page.press('#symbol-input', 'Enter');
    assert((await page.locator('#symbol-chips li').count()) === before, 'the token was added as a symbol');
    assert(!(await statusOf('symbol-suggest')).includes(token) && !(await statusOf('build-status')).includes(token), 'the token is shown back');
    await page.fill('#symbol-input', '');
  });

  await check('Build and the load controls are disabled, and say so, while a project loads', async () => {
    assert(await page.locator('#build').isEnabled(), 'Build is disabled before the load');
    const files = [];
    for (let i = 0; i < 300; i++) files.push({ name: `w${i}.ts`, mimeType: 'text/plain', buffer: Buffer.from(`export function w${i}(): number {\n${'  return 1; // padding padding padding padding\n'.repeat(60)}}\n`) });
    await page.evaluate(() => {
      window.__during = [];
      new MutationObserver(() => {
        const text = document.querySelector('#load-text').textContent;
        if (!/ of /.test(text)) return;
        window.__during.push({ build: document.querySelector('#build').disabled, sample: document.querySelector('#load-sample').disabled, folder: document.querySelector('#pick-folder').disabled, status: document.querySelector('#build-status').textContent });
      }).observe(document.querySelector('#load-text'), { childList: true, characterData: true, subtree: true });
    });
    await page.setInputFiles('#pick-files', files);
    await waitForText('#load-text', /Indexed 300 files/, 60_000);
    const during = await page.evaluate(() => window.__during);
    assert(during.length >= 2, `${during.length} progress updates seen`);
    assert(during.every((d) => d.build && d.sample && d.folder), `enabled during the load: ${JSON.stringify(during.find((d) => !(d.build && d.sample && d.folder)))}`);
    assert(during.every((d) => /Loading/.test(d.status)), `build status during the load: ${during.map((d) => d.status).join(' | ')}`);
    assert(await page.locator('#build').isEnabled(), 'Build stays disabled after the load');
    assert(await page.locator('#load-sample').isEnabled(), 'Load the sample stays disabled after the load');
  });

  await check('a model without a public tokenizer: no "exact" label, and the budget is divided by its safety factor', async () => {
    await loadSample();
    await page.check('input[name=counting][value=exact]');
    await page.selectOption('#model', 'claude-opus-4-1');
    assert(await page.locator('input[name=counting][value=exact]').isDisabled(), 'Exact is offered for a model without a public tokenizer');
    assert(await page.locator('input[name=counting][value=estimate]').isChecked(), 'the counting did not fall back to the estimate');
    const status = await buildAndWait();
    assert(/Built in/.test(status), `build: ${status}`);
    const labels = await page.locator('.blocks .tokens').allTextContents();
    assert(labels.length > 0 && labels.every((t) => /· estimated$/.test(t)), `labels: ${labels.join(' | ')}`);
    const caption = await page.locator('#result-body .budget figcaption').first().innerText();
    // 200,000 input tokens ÷ 1.25 = 160,000 estimated cl100k tokens.
    assert(/Window 160,000/.test(caption), `budget caption: ${caption}`);
    assert(/1\.25/.test(await page.locator('#result-body').innerText()), 'the scaling is not explained');
    await page.selectOption('#model', 'gpt-4o');
    assert(await page.locator('input[name=counting][value=exact]').isEnabled(), 'Exact stays disabled for gpt-4o');
  });

  await check('a failed store write is shown by the build; "Deleted." survives the refresh', async () => {
    await page.evaluate(() => {
      window.__put = IDBObjectStore.prototype.put;
      IDBObjectStore.prototype.put = function () {
        throw new DOMException('simulated failure', 'UnknownError');
      };
    });
    try {
      assert(/Built in/.test(await buildAndWait()), 'the build failed');
      await waitForText('#build-status', /Recording .*failed/, 15_000);
      await page.fill('#max-input', '200');
      await page.fill('#reserve', '100');
      assert(/Refused/.test(await buildAndWait()), 'no refusal');
      await waitForText('#build-status', /Recording .*failed/, 15_000);
    } finally {
      await page.evaluate(() => (IDBObjectStore.prototype.put = window.__put));
      await page.selectOption('#model', 'gpt-4o-mini');
      await page.selectOption('#model', 'gpt-4o');
    }
    await page.click('#tab-store');
    await page.waitForSelector('#store-version, #store-empty', { timeout: 15_000 });
    await page.click('#store-reset');
    await page.waitForSelector('#store-empty', { timeout: 15_000 });
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    assert((await statusOf('store-status')) === 'Deleted.', `store status: ${await statusOf('store-status')}`);
    await page.click('#tab-build');
  });

  await check('scanner: a "File name" field feeds the scan\'s path; binary and windows-1252 files are named', async () => {
    await page.click('#tab-scanner');
    const scanned = (re) => waitForText('#scan-status', re, 15_000);
    await page.fill('#scan-path', '');
    // A value whose brackets read as a call in code: only a .env line makes it a secret.
    await page.fill('#scan-input', `DB_PASSWORD=${fakeChars(ALNUM, 12, 91)}(${fakeChars(ALNUM, 5, 92)})${fakeChars(ALNUM, 2, 93)}`);
    await scanned(/^0 finding/);
    await page.fill('#scan-path', '.env');
    await scanned(/^1 finding/);
    await page.fill('#scan-path', '');
    await page.fill('#scan-input', 'interface Options {\n  readonly credentials: RequestCredentials\n}');
    await scanned(/^[1-9]\d* finding/);
    await page.fill('#scan-path', 'src/client.ts');
    await scanned(/^0 finding/);
    await page.setInputFiles('#scan-file', { name: 'legacy.properties', mimeType: 'text/plain', buffer: Buffer.from('# Caf\u00e9 settings\nname=caf\u00e9\n', 'latin1') });
    await waitForText('#scan-source', /windows-1252/, 15_000);
    assert((await page.inputValue('#scan-path')) === 'legacy.properties', 'the picked file did not fill the file name');
    await scanned(/finding/);
    assert((await page.locator('#scan-preview').innerText()).includes('name=caf\u00e9'), 'the windows-1252 file was not decoded');
    await page.setInputFiles('#scan-file', { name: 'image.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0xff, 0xfe]) });
    await waitForText('#scan-status', /binary/, 15_000);
    assert((await page.locator('#scan-findings').innerText()).trim() === '' && (await page.locator('#scan-preview').innerText()).trim() === '', 'a binary file was scanned as text');
    await page.click('#scan-clear');
    assert((await page.inputValue('#scan-path')) === '', 'Clear kept the file name');
  });

  await check('tokens: every run shows a busy state, and a superseded run is dropped', async () => {
    await page.click('#tab-tokens');
    await page.waitForSelector('#tok-results tbody tr', { timeout: 30_000 });
    await page.evaluate(() => {
      window.__tok = [];
      const out = document.querySelector('#tok-table');
      new MutationObserver(() => window.__tok.push({ busy: out.getAttribute('aria-busy'), text: out.textContent })).observe(out, { childList: true, subtree: true, characterData: true, attributes: true, attributeFilter: ['aria-busy'] });
    });
    // Many short words: counted in well under a second (one 400,000-character word would take
    // js-tiktoken's merges minutes).
    await page.fill('#tok-input', 'word '.repeat(80_000));
    await page.waitForFunction(() => document.querySelector('#tok-table').getAttribute('aria-busy') === 'true' && /Counting/.test(document.querySelector('#tok-table').textContent), null, { timeout: 15_000 });
    // Typed over while the long text is being counted in the worker (past the debounce): its
    // numbers must not be drawn after the new text was typed.
    await page.waitForFunction(() => document.querySelector('#tok-table').dataset.counting === '400000', null, { timeout: 15_000 });
    await page.evaluate(() => window.__tok.push({ typed: true }));
    await page.fill('#tok-input', 'short text');
    await page.waitForFunction(() => /^10 characters/.test(document.querySelector('#tok-table p')?.textContent ?? '') && document.querySelector('#tok-table').getAttribute('aria-busy') !== 'true', null, { timeout: 60_000 });
    const seen = await page.evaluate(() => window.__tok);
    const after = seen.slice(seen.findIndex((s) => s.typed));
    assert(!after.some((s) => /^400,000 characters\./.test(s.text ?? '')), 'the superseded run was drawn after the new text was typed');
  });

  await check('a crashed engine stops no tab: each says so, the header follows, and a new engine takes over', async () => {
    await page.click('#tab-build');
    await page.evaluate(() => {
      window.__core = [];
      new MutationObserver(() => window.__core.push(document.querySelector('#core-status').textContent)).observe(document.querySelector('#core-status'), { childList: true, characterData: true, subtree: true });
    });
    await crashEngine();
    const stopped = await buildAndWait();
    assert(/stopped/.test(stopped), `build status after the crash: ${stopped}`);
    await engineReady();
    const core = await page.evaluate(() => window.__core);
    assert(core.some((t) => /stopped/.test(t)), `the header never said the engine stopped: ${core.join(' | ')}`);
    assert(/Built in/.test(await buildAndWait()), 'no build after the restart');

    await page.click('#tab-scanner');
    await crashEngine();
    await page.fill('#scan-input', 'a text to scan');
    await waitForText('#scan-status', /stopped/, 15_000);
    await engineReady();
    await page.fill('#scan-input', 'a text to scan again');
    await waitForText('#scan-status', /^0 finding/, 15_000);

    await page.click('#tab-tokens');
    await crashEngine();
    await page.fill('#tok-input', 'count me');
    await page.waitForFunction(() => /stopped/.test(document.querySelector('#tok-table')?.textContent ?? '') && document.querySelector('#tok-table').getAttribute('aria-busy') !== 'true', null, { timeout: 15_000 });
    await engineReady();
    await page.fill('#tok-input', 'count me again');
    await waitForText('#tok-table p', /^14 characters/);
    await page.click('#tab-build');
  });

  await check('a crashed analysis worker fails the load with a message, and the next load works', async () => {
    // The page's analysis worker dies as it is handed the first batch.
    await page.evaluate(() => {
      const w = window.__newestWorker('analyzer');
      const post = w.postMessage.bind(w);
      w.postMessage = (...args) => {
        post(...args);
        window.__crash(w);
      };
    });
    const failed = await loadWith(() => page.click('#load-sample'));
    assert(/analysis worker stopped/.test(failed), `load text: ${failed}`);
    assert(await page.locator('#load-sample').isEnabled(), 'Load the sample stays disabled');
    await loadSample();
    assert(/Built in/.test(await statusOf('build-status')), `after the reload: ${await statusOf('build-status')}`);
  });

  await check('Enter in a budget field builds and keeps the focus there', async () => {
    await page.focus('#soft-pct');
    await page.evaluate(() => (document.querySelector('#build-status').textContent = ''));
    await page.press('#soft-pct', 'Enter');
    await waitForText('#build-status', /Built in|Refused/);
    assert((await page.evaluate(() => document.activeElement?.id)) === 'soft-pct', `focus moved to ${await page.evaluate(() => document.activeElement?.id)}`);
  });

  await check('a secret the policy will not redact: the refusal names rule and place, and the setting that sends it redacted', async () => {
    await page.selectOption('#secret-high', 'exclude');
    await page.fill('#target-input', 'src/services/ai-client.ts');
    await page.press('#target-input', 'Enter');
    const text = await buildRefused('SECRET_RISK');
    assert(/src\/services\/ai-client\.ts holds a secret the policy does not redact/.test(text), `title: ${text.slice(0, 200)}`);
    assert(/anthropic[\w-]* at line \d+, column \d+/.test(text), `no rule and place: ${text.slice(0, 400)}`);
    assert(/"High confidence" to "redact the span"/.test(text) && !/Medium confidence/.test(text), `advice: ${text.slice(0, 600)}`);
    await noSecretInDom();
    await page.selectOption('#secret-high', 'redact');
  });

  await check('a symbol whose name reads as a token is recorded in the store redacted, never as written', async () => {
    // The project defines it, so it passes the field's check; its name is code, and a secret.
    const token = 'gh' + 'p_' + fakeChars(ALNUM, 36, 0x7e57);
    // loadWith clears the sample's line first: its "Indexed 1x files." matches /Indexed 1 file/ too.
    await loadWith(() => page.setInputFiles('#pick-files', [{ name: 'keys.ts', mimeType: 'text/plain', buffer: Buffer.from(`export function ${token}(): string {\n  return 'rotate me';\n}\n`) }]));
    await waitForText('#load-text', /Indexed 1 file/, 60_000);
    await page.fill('#intent', 'Rename the function.');
    await page.fill('#symbol-input', token);
    await page.press('#symbol-input', 'Enter');
    assert((await page.locator('#symbol-chips li').count()) === 1, 'the defined symbol was not added');
    await buildAndWait();
    // The record is written after the result is shown: wait for its entry.
    let stored = '';
    for (let i = 0; i < 100; i++) {
      stored = await storedContexts();
      if (/REDACTED:github/.test(stored)) break;
      await page.waitForTimeout(100);
    }
    assert(/REDACTED:github/.test(stored), 'the build was not recorded with the symbol redacted');
    assert(!stored.includes(token), 'the token is stored in IndexedDB');
    assert(!(await page.locator('#result-body').innerText()).includes(token), 'the token is shown in the result');
    await loadSample();
  });

  await check('a secret typed into the intent is refused with advice about what was typed, not about a file', async () => {
    const intent = await page.inputValue('#intent');
    await page.fill('#intent', 'Fix the login check. db_password = "' + fakeChars(ALNUM, 18, 0x1d) + '"');
    const text = await buildRefused('SECRET_RISK');
    assert(/the request holds a secret/.test(text) && /Found in task: generic-password at line 1/.test(text), `refusal: ${text.slice(0, 300)}`);
    assert(/Remove it from what you typed/.test(text) && !/load the project again/.test(text), `advice: ${text.slice(0, 500)}`);
    await page.fill('#intent', intent);
  });

  await check("a model without a public tokenizer: a reserve above the input is the builder's refusal, naming the field", async () => {
    await page.selectOption('#model', 'claude-opus-4-1');
    await page.fill('#max-input', '100');
    await page.fill('#reserve', '200');
    const text = await buildRefused('INVALID_PARAMS');
    assert(/Correct "Reserved for the response"/.test(text), `refusal: ${text.slice(0, 300)}`);
    await page.selectOption('#model', 'gpt-4o');
  });

  await check('no uncaught errors on the page', async () => {
    assert(pageErrors.length === 0, pageErrors.join('\n'));
  });
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
  rmSync(fixtures, { recursive: true, force: true });
}

console.log('\nmeasurements:');
for (const line of report) console.log(`  ${line}`);
console.log(`screenshots: ${out}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
