#!/usr/bin/env node
// Browser tests of the playground in Chromium (playwright-core + /usr/bin/chromium). Builds
// nothing: serves dist-web/ (from `node build/build.mjs`) with Vite preview on 127.0.0.1, runs the
// checks in order, saves a screenshot of each state under test-output/e2e/, prints the long tasks
// seen on the main thread while scanning a large input, and ends with `N passed, M failed`.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
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
const context = await chromium.launchPersistentContext(profile, { executablePath, headless: true, args: ['--headless', ...ARGS], viewport: { width: 1280, height: 900 } });
const page = context.pages()[0] ?? (await context.newPage());
const pageErrors = [];
page.on('pageerror', (e) => pageErrors.push(String(e)));
page.on('console', (m) => {
  if (m.type() === 'error') pageErrors.push(m.text());
});

const SECRET = plantedSecret();
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
async function noSecretInDom() {
  const { text, html } = await page.evaluate(() => ({ text: document.body.innerText, html: document.documentElement.outerHTML }));
  for (const [name, value] of [['planted API key', SECRET], ['.env password', DB_PASSWORD]]) {
    assert(!text.includes(value), `${name} appears in document.body.innerText`);
    assert(!html.includes(value), `${name} appears in the page's outerHTML`);
  }
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
    await page.waitForFunction(() => /Built in/.test(document.querySelector('#build-status')?.textContent ?? ''));
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
    await page.click('#build');
    const refusal = page.locator('.refusal[data-code=AMBIGUOUS_TARGET]');
    await refusal.waitFor({ timeout: 30_000 });
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
    await page.click('#build');
    const refusal = page.locator('.refusal[data-code=CONTEXT_TOO_LARGE]');
    await refusal.waitFor({ timeout: 30_000 });
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
    await page.waitForFunction(() => /Indexing and scanning: [1-9][\d,]* of 1,500/.test(document.querySelector('#load-text')?.textContent ?? ''), null, { timeout: 60_000 });
    await page.locator('#load-progress').scrollIntoViewIfNeeded();
    await shot('07a-large-project-progress', { fullPage: false });
    await page.waitForFunction(() => /Indexed 1,500 files/.test(document.querySelector('#load-text')?.textContent ?? ''), null, { timeout: 120_000 });
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
    await page.waitForFunction(() => /^0 finding/.test(document.querySelector('#scan-status')?.textContent ?? ''));
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
    await page.waitForFunction(() => /finding\(s\) in 4,/.test(document.querySelector('#scan-status')?.textContent ?? ''), null, { timeout: 60_000 });
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
    await page.setViewportSize({ width: 360, height: 780 });
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
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  await check('exact counting labels every block as exact', async () => {
    await page.check('input[name=counting][value=exact]');
    await page.click('#build');
    await page.waitForFunction(() => /Built in/.test(document.querySelector('#build-status')?.textContent ?? ''), null, { timeout: 30_000 });
    const labels = await page.locator('.blocks .tokens').allTextContents();
    assert(labels.length > 0 && labels.every((t) => /· exact$/.test(t)), `labels: ${labels.join(' | ')}`);
    await noSecretInDom();
  });

  await check('no uncaught errors on the page', async () => {
    assert(pageErrors.length === 0, pageErrors.join('\n'));
  });
} finally {
  await context.close();
  await server.close();
  rmSync(profile, { recursive: true, force: true });
}

console.log('\nmeasurements:');
for (const line of report) console.log(`  ${line}`);
console.log(`screenshots: ${out}`);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
