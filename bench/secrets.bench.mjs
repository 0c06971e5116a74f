// Issue 4: secret scanning recall/precision per kind family and throughput, side by side with
// secretlint 12 (recommended preset, AWS access key ID scanning on) and a bare TextEncoder pass.
import { lintSource } from '@secretlint/core';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import { generateSecretsCorpus } from './corpus/secrets-gen.mjs';

async function loadCtxgate() {
  const lib = await import('../dist/index.js');
  const scan = lib.scanSecrets ?? (await import('../dist/secrets/scan.js')).scanSecrets;
  const { initCore } = await import('../dist/core/core.js');
  await initCore();
  return scan;
}

const secretlintConfig = {
  rules: [
    {
      id: '@secretlint/secretlint-rule-preset-recommend',
      rule: recommended,
      rules: [{ id: '@secretlint/secretlint-rule-aws', options: { enableIDScanRule: true } }],
    },
  ],
};

async function secretlintRanges(file) {
  const result = await lintSource({
    source: { filePath: `/corpus/${file.path}`, content: file.text, contentType: 'text' },
    options: { config: secretlintConfig, noPhysicFilePath: true, maskSecrets: true },
  });
  return result.messages.map((m) => ({ start: m.range[0], end: m.range[1] }));
}

/** Recall per family and overall; precision = flagged ranges overlapping a planted secret / all flagged. */
function score(files, rangesPerFile) {
  const fam = new Map();
  let tp = 0;
  let flagged = 0;
  let flaggedTrue = 0;
  files.forEach((f, i) => {
    const ranges = rangesPerFile[i];
    flagged += ranges.length;
    flaggedTrue += ranges.filter((r) => f.planted.some((p) => r.start < p.end && p.start < r.end)).length;
    for (const p of f.planted) {
      const hit = ranges.some((r) => r.start < p.end && p.start < r.end);
      const e = fam.get(p.family) ?? { n: 0, found: 0 };
      e.n++;
      if (hit) e.found++;
      fam.set(p.family, e);
      if (hit) tp++;
    }
  });
  const planted = [...fam.values()].reduce((s, e) => s + e.n, 0);
  return { fam, recall: tp / planted, precision: flagged ? flaggedTrue / flagged : 1, planted, flagged, falsePositives: flagged - flaggedTrue };
}

export default async function secretsBench({ time, fmt }) {
  const scanSecrets = await loadCtxgate();
  const { files, bytes } = generateSecretsCorpus();

  const ours = files.map((f) => scanSecrets(f.text));
  const theirs = [];
  for (const f of files) theirs.push(await secretlintRanges(f));
  const a = score(files, ours);
  const b = score(files, theirs);

  const quality = {
    title: 'Secret scanning: recall and precision on the labelled corpus',
    intro: `${files.length} files, ${(bytes / 2 ** 20).toFixed(1)} MiB (env, YAML, JSON, TOML, shell, TS, Python, Markdown with non-ASCII prose, CRLF files, 400 KB minified lines, multi-MB logs); ${a.planted} planted secrets from ${new Set(files.flatMap((f) => f.planted.map((p) => p.kind))).size} kinds, plus hard negatives. A planted secret counts as found when a reported range overlaps it; a reported range that overlaps no planted secret is a false positive.`,
    columns: ['kind family', 'planted', 'ctxgate recall', 'secretlint recall'],
    rows: [
      ...[...a.fam.keys()].map((k) => [k, String(a.fam.get(k).n), fmt.pct(a.fam.get(k).found / a.fam.get(k).n), fmt.pct(b.fam.get(k).found / b.fam.get(k).n)]),
      ['**overall recall**', String(a.planted), fmt.pct(a.recall), fmt.pct(b.recall)],
      ['**precision**', '', `${fmt.pct(a.precision)} (${a.falsePositives} FP of ${a.flagged})`, `${fmt.pct(b.precision)} (${b.falsePositives} FP of ${b.flagged})`],
    ],
    notes: ['Planted values come from each rule’s own positive examples, placed in new files; recall on values the rules were not written against would be lower.'],
  };

  const encoder = new TextEncoder();
  const buf = new Uint8Array(Math.max(...files.map((f) => f.text.length)) * 3);
  const tEncode = await time(() => {
    for (const f of files) encoder.encodeInto(f.text, buf);
  }, { iterations: 7, warmup: 2 });
  const tOurs = await time(() => {
    for (const f of files) scanSecrets(f.text);
  }, { iterations: 7, warmup: 2 });
  const tTheirs = await time(async () => {
    for (const f of files) await secretlintRanges(f);
  }, { iterations: 3, warmup: 1 });
  const speed = {
    title: 'Secret scanning throughput',
    intro: 'Whole corpus per run, median of repeated runs. ctxgate includes the UTF-8 encode into wasm memory, the core scan and the host filters.',
    columns: ['scanner', 'median', 'throughput', 'vs secretlint', 'vs encode floor'],
    rows: [
      ['bare TextEncoder.encodeInto (floor)', fmt.ms(tEncode.median), fmt.mbps(bytes, tEncode.median), fmt.ratio(tTheirs.median / tEncode.median), '1.00x'],
      ['ctxgate scanSecrets', fmt.ms(tOurs.median), fmt.mbps(bytes, tOurs.median), fmt.ratio(tTheirs.median / tOurs.median), fmt.ratio(tOurs.median / tEncode.median)],
      ['secretlint 12 (recommended, AWS IDs on)', fmt.ms(tTheirs.median), fmt.mbps(bytes, tTheirs.median), '1.00x', fmt.ratio(tTheirs.median / tEncode.median)],
    ],
    notes: ['Goals (issue 4): recall and precision ≥ 0.95; ≥ 20x secretlint; within 3x of the encode floor.'],
  };
  return [quality, speed];
}
