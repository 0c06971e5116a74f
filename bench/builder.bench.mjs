// Issue 6: a bundle over a real, large tree (packages installed as dev dependencies), against
// repomix packing the same tree (it also scans with secretlint and counts tokens). Each run is a
// fresh process so peak memory is the tool's own; two tree sizes show how memory grows.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Installed packages whose files make the real tree (also the secrets bench's real-tree corpus). */
export const PACKAGES = ['zod', '@modelcontextprotocol/sdk', 'lodash', '@sinclair/typebox', 'gpt-tokenizer'];

function makeTree(root, packages) {
  const dir = mkdtempSync(join(tmpdir(), 'ctxgate-tree-'));
  for (const p of packages) cpSync(join(root, 'node_modules', p), join(dir, p.replace('/', '__')), { recursive: true, dereference: true });
  return dir;
}

function run(root, tool, dir) {
  const out = execFileSync(process.execPath, [join(root, 'bench/builder-child.mjs'), tool, dir], { cwd: root, maxBuffer: 64 << 20, encoding: 'utf8' });
  return JSON.parse(out.trim().split('\n').pop());
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export default async function builderBench({ root, fmt }) {
  const trees = [
    { name: 'half tree', packages: PACKAGES.slice(0, 3) },
    { name: 'full tree', packages: PACKAGES },
  ];
  const rows = [];
  const stageRows = [];
  const memory = [];
  for (const t of trees) {
    const dir = makeTree(root, t.packages);
    try {
      const c = [];
      const r = [];
      // Interleaved (ctxgate, repomix, ctxgate, …) so a slow spell of a shared machine falls on both.
      for (let i = 0; i < 3; i++) {
        c.push(run(root, 'ctxgate', dir));
        if (i < 2) r.push(run(root, 'repomix', dir));
      }
      const cm = median(c.map((x) => x.ms));
      const rm = median(r.map((x) => x.ms));
      const c0 = c[0];
      if (new Set(c.map((x) => x.fingerprint)).size !== 1) throw new Error('bundle fingerprint differed between runs');
      rows.push([
        `${t.name}: ${c0.files} files, ${(c0.bytes / 2 ** 20).toFixed(1)} MiB`,
        fmt.ms(cm),
        `${median(c.map((x) => x.maxRssMiB)).toFixed(0)} MiB`,
        fmt.ms(rm),
        `${median(r.map((x) => x.maxRssMiB)).toFixed(0)} MiB`,
        fmt.ratio(rm / cm),
        `${c0.tokens} est. / ${r[0].tokens ?? '?'} (repomix)`,
      ]);
      memory.push({ name: t.name, bytes: c0.bytes, rss: median(c.map((x) => x.maxRssMiB)) });
      for (const [stage, ms] of Object.entries(c0.stages)) stageRows.push([t.name, stage, fmt.ms(ms)]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const [a, b] = memory;
  return [
    {
      title: 'Context bundle over a large tree vs repomix',
      intro: `Tree: copies of ${PACKAGES.join(', ')} from node_modules. ctxgate walks and reads the tree (honouring .gitignore and never-send rules), indexes it (SHA-256 of every file), then builds one bundle with every text file as a target: secret scanning and redaction, token estimation, bytewise ordering and the three fingerprints. repomix 1.14 packs the same tree to XML with its security check (secretlint) and token counting. Fresh process per run, the two tools alternating; median of 3 (ctxgate) and 2 (repomix) runs. Ratio = repomix time / ctxgate time (goal: at least 10x).`,
      columns: ['tree', 'ctxgate wall', 'ctxgate peak RSS', 'repomix wall', 'repomix peak RSS', 'speed-up', 'tokens'],
      rows,
      notes: [
        `Memory growth: input ${((b.bytes / a.bytes)).toFixed(2)}x larger → ctxgate peak RSS ${((b.rss / a.rss)).toFixed(2)}x (linear or better when ≤ the input ratio; RSS includes the runtime's fixed ~50 MiB).`,
      ],
    },
    {
      title: 'ctxgate time by stage (first run of each tree)',
      columns: ['tree', 'stage', 'time'],
      rows: stageRows,
    },
  ];
}
