#!/usr/bin/env node
// Runs every test suite in its real runtime, one after another (the machines have 2 cores), and
// prints each runtime's counts. A runtime that is missing, a suite that runs no test, or any
// skipped test fails the run: a runtime test that does not run counts as missing, never as passed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'test-output');
mkdirSync(out, { recursive: true });
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const polyfills = ['--import', './build/node20-polyfills.mjs'];
const vitest = (config, name) => [
  process.execPath,
  [...polyfills, 'node_modules/vitest/vitest.mjs', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile.json=test-output/${name}.json`],
];

const suites = [
  { name: 'node', cmd: vitest('vitest.node.config.ts', 'node'), kind: 'vitest' },
  {
    name: 'chromium',
    cmd: vitest('vitest.browser.config.ts', 'chromium'),
    kind: 'vitest',
    requires: () => (existsSync(chromium) ? null : `Chromium not found at ${chromium}; install it with: apt-get install -y chromium`),
  },
  {
    name: 'deno',
    cmd: [join(root, 'node_modules/.bin/deno'), ['test', '--allow-read', '--allow-write', '--allow-env', '--unstable-kv', '--no-check', 'test/deno/']],
    kind: 'deno',
    requires: () => (existsSync(join(root, 'node_modules/.bin/deno')) ? null : 'the deno binary is missing; run npm install'),
  },
  { name: 'workerd', cmd: vitest('vitest.workerd.config.ts', 'workerd'), kind: 'vitest' },
  {
    name: 'package',
    cmd: [process.execPath, ['test/package/run.mjs']],
    kind: 'plain',
    requires: () => (existsSync(join(root, 'dist/index.js')) ? null : 'dist/ is missing; run npm run build first'),
  },
  {
    name: 'e2e',
    cmd: [process.execPath, ['test/e2e/run.mjs']],
    kind: 'plain',
    requires: () =>
      !existsSync(chromium) ? `Chromium not found at ${chromium}; install it with: apt-get install -y chromium` : existsSync(join(root, 'dist-web/index.html')) ? null : 'dist-web/ is missing; run npm run build first',
  },
];
const only = process.argv.slice(2);

function run(cmd, args) {
  return new Promise((resolve) => {
    let text = '';
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, FORCE_COLOR: '1' }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.on('data', (d) => {
      process.stdout.write(d);
      text += d;
    });
    child.stderr.on('data', (d) => {
      process.stderr.write(d);
      text += d;
    });
    child.on('error', (error) => resolve({ code: 127, text: String(error) }));
    child.on('close', (code) => resolve({ code: code ?? 1, text }));
  });
}

function vitestCounts(name) {
  const file = join(out, `${name}.json`);
  if (!existsSync(file)) return null;
  const r = JSON.parse(readFileSync(file, 'utf8'));
  return { passed: r.numPassedTests, failed: r.numFailedTests + (r.numFailedTestSuites ?? 0), skipped: r.numPendingTests + r.numTodoTests };
}

function denoCounts(text) {
  // eslint-disable-next-line no-control-regex
  const plain = text.replace(/\x1b\[[0-9;]*m/g, '');
  const m = plain.match(/(?:ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \| (\d+) ignored)?/);
  if (!m) return null;
  return { passed: Number(m[1]), failed: Number(m[3]), skipped: Number(m[4] ?? 0) };
}

function plainCounts(text) {
  // eslint-disable-next-line no-control-regex
  const lines = text.replace(/\x1b\[[0-9;]*m/g, '').trim().split('\n');
  const m = lines[lines.length - 1]?.match(/^(\d+) passed, (\d+) failed$/);
  return m ? { passed: Number(m[1]), failed: Number(m[2]), skipped: 0 } : null;
}

const results = [];
for (const suite of suites) {
  if (only.length && !only.includes(suite.name)) continue;
  console.log(`\n━━ ${suite.name} ━━`);
  const missing = suite.requires?.();
  if (missing) {
    console.error(`✗ ${suite.name}: ${missing}`);
    results.push({ name: suite.name, passed: 0, failed: 0, skipped: 0, problem: missing });
    continue;
  }
  if (suite.kind === 'vitest') rmSync(join(out, `${suite.name}.json`), { force: true });
  const { code, text } = await run(...suite.cmd);
  const counts = suite.kind === 'vitest' ? vitestCounts(suite.name) : suite.kind === 'deno' ? denoCounts(text) : plainCounts(text);
  let problem = null;
  if (!counts) problem = `no test report (exit ${code})`;
  else if (counts.passed === 0) problem = 'ran no test';
  else if (counts.skipped > 0) problem = `${counts.skipped} skipped test(s): a skipped runtime test counts as missing`;
  else if (code !== 0 && counts.failed === 0) problem = `exited ${code}`;
  results.push({ name: suite.name, ...(counts ?? { passed: 0, failed: 0, skipped: 0 }), problem });
}

console.log('\n━━ summary ━━');
let passed = 0;
let failed = 0;
for (const r of results) {
  passed += r.passed;
  failed += r.failed + (r.problem && r.failed === 0 ? 1 : 0);
  const status = r.problem ? `✗ ${r.problem}` : r.failed ? '✗' : '✓';
  console.log(`  ${r.name.padEnd(9)} ${String(r.passed).padStart(5)} passed  ${String(r.failed).padStart(3)} failed  ${status}`);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 && results.length > 0 ? 0 : 1);
