// One measured run in a fresh process (so peak memory is the tool's own): `node builder-child.mjs
// ctxgate|repomix <dir>`. Prints one JSON line: wall time, stage times and peak RSS.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [tool, dir] = process.argv.slice(2);
const t0 = performance.now();
const stages = {};
const mark = (name, since) => {
  stages[name] = performance.now() - since;
  return performance.now();
};

if (tool === 'ctxgate') {
  const { createCtxgate, buildContext } = await import('../dist/index.js');
  const { readProjectFiles, projectFileReader } = await import('../dist/fs/walk.js');
  let t = performance.now();
  const engine = await createCtxgate();
  t = mark('load core', t);
  const files = await readProjectFiles(dir);
  const bytes = files.reduce((n, f) => n + (f.bytes?.byteLength ?? 0), 0);
  t = mark('walk and read', t);
  const projectIndex = await engine.indexProject(files);
  t = mark('index (hash, classify)', t);
  const targets = projectIndex.files.filter((f) => !f.excluded).map((f) => f.path);
  const contents = new Map(files.filter((f) => f.bytes).map((f) => [f.path, f.bytes]));
  const result = await buildContext(
    {
      purpose: 'plan',
      intent: { id: 'bench', text: 'pack the whole tree' },
      planStep: { id: 'all', targetFiles: targets },
      projectIndex,
      constraints: {},
      tokenBudget: { provider: 'bench', model: 'bench', maxInputTokens: 1_000_000_000, maxOutputTokens: 1000, responseTokenReserve: 0, softLimitThresholdPct: 100 },
      secrets: { highConfidence: 'redact', mediumConfidence: 'redact' },
      createdAt: '2026-01-01T00:00:00.000Z',
    },
    { contents, engine, readFile: projectFileReader(dir) },
  );
  t = mark('build (scan, redact, estimate, sort, fingerprint)', t);
  await engine.close();
  console.log(
    JSON.stringify({
      ms: performance.now() - t0,
      stages,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      files: files.length,
      bytes,
      blocks: result.bundle.blocks.length,
      tokens: result.budgetReport.estimatedInputTokens,
      redactions: result.redactionReport.redactions.filter((r) => r.type === 'pattern_redacted').length,
      fingerprint: result.manifest.fingerprints.bundleFingerprint,
    }),
  );
} else if (tool === 'repomix') {
  // runCli is not in repomix's exports map; load it by path, as its own bin script does.
  const { runCli } = await import(new URL('../node_modules/repomix/lib/cli/cliRun.js', import.meta.url).href);
  const out = join(mkdtempSync(join(tmpdir(), 'repomix-')), 'out.xml');
  const r = await runCli([dir], dir, { output: out, quiet: true, securityCheck: true });
  console.log(
    JSON.stringify({
      ms: performance.now() - t0,
      stages,
      maxRssMiB: process.resourceUsage().maxRSS / 1024,
      files: r?.packResult?.totalFiles ?? null,
      tokens: r?.packResult?.totalTokens ?? null,
      suspicious: r?.packResult?.suspiciousFilesResults?.length ?? null,
    }),
  );
  process.exit(0);
} else {
  throw new Error(`unknown tool ${tool}`);
}
