// Issue 7: the cost of bounding a tool output. wrapOutput on a 10,000-item list and wrapTextOutput
// on a 5 MB command output, per call, next to a plain JSON.stringify of the same input (what any
// tool layer pays to send it at all) and as a share of one model call.
const MODEL_CALL_MS = 1000;

async function loadPolicy() {
  const lib = await import('../dist/index.js');
  const wrapOutput = lib.wrapOutput ?? (await import('../dist/policy/wrap.js')).wrapOutput;
  const wrapTextOutput = lib.wrapTextOutput ?? (await import('../dist/policy/wrap-text.js')).wrapTextOutput;
  return { wrapOutput, wrapTextOutput };
}

/** 10,000 search hits with a little non-ASCII text, about 1 MB of JSON. */
function bigList() {
  return {
    query: 'Tritanium',
    systems: Array.from({ length: 10_000 }, (_, i) => ({
      id: 30_000_000 + i,
      name: `Système ${i} — ${['Jita', 'Amarr', 'Dodixie', 'Rens'][i % 4]}`,
      security: Math.round(((i % 21) - 10) * 10) / 100,
      relevance: (i * 7919) % 10_000,
      tags: ['market', i % 3 === 0 ? 'hub' : 'local'],
    })),
  };
}

/** A 5 MiB (in characters) build log: numbered lines, some long, some non-ASCII, a stack trace at the end. */
function bigLog() {
  const lines = [];
  let size = 0;
  for (let i = 0; size < 5 * 2 ** 20; i++) {
    const line =
      i % 50 === 0
        ? `[${i}] WARN ${'x'.repeat(300)}`
        : `[${i}] compiling src/module-${i % 400}.ts ok (${i % 97} ms) — état: prêt`;
    lines.push(line);
    size += line.length + 1;
  }
  lines.push('Error: build failed', '    at main (build.mjs:12:3)');
  return lines.join('\n');
}

export default async function policyBench({ time, fmt }) {
  const { wrapOutput, wrapTextOutput } = await loadPolicy();
  const list = bigList();
  const log = bigLog();
  const listBytes = new TextEncoder().encode(JSON.stringify(list)).length;
  const logBytes = new TextEncoder().encode(log).length;
  const clock = () => 0;

  const cases = [
    {
      op: 'wrapOutput (head, 30 items, 10 KB)',
      input: `10,000 items, ${(listBytes / 2 ** 20).toFixed(2)} MiB JSON`,
      run: () => wrapOutput(list, 'systems', { clock }),
      limit: 10 * 1024,
      baseline: () => JSON.stringify(list),
    },
    {
      op: 'wrapOutput (topN by relevance, 30 items, 3 KB)',
      input: `10,000 items, ${(listBytes / 2 ** 20).toFixed(2)} MiB JSON`,
      run: () => wrapOutput(list, 'systems', { clock, maxBytes: 3 * 1024, truncation: { kind: 'topN', by: 'relevance', order: 'desc' } }),
      limit: 3 * 1024,
      baseline: () => JSON.stringify(list),
    },
    {
      op: 'wrapTextOutput (10 KB)',
      input: `${(logBytes / 2 ** 20).toFixed(2)} MiB text, ${log.split('\n').length.toLocaleString('en')} lines`,
      run: () => wrapTextOutput(log, { clock }),
      limit: 10 * 1024,
      baseline: () => JSON.stringify({ output: log }),
    },
    {
      op: 'wrapTextOutput (10 KB, 200 lines)',
      input: `${(logBytes / 2 ** 20).toFixed(2)} MiB text`,
      run: () => wrapTextOutput(log, { clock, maxLines: 200 }),
      limit: 10 * 1024,
      baseline: () => JSON.stringify({ output: log }),
    },
  ];

  const rows = [];
  for (const c of cases) {
    const out = c.run();
    const outBytes = new TextEncoder().encode(JSON.stringify(out)).length;
    if (outBytes > c.limit) throw new Error(`${c.op}: output is ${outBytes} bytes, over its ${c.limit}-byte limit`);
    const ours = await time(c.run, { iterations: 15, warmup: 3 });
    const base = await time(c.baseline, { iterations: 15, warmup: 3 });
    rows.push([
      c.op,
      c.input,
      `${outBytes.toLocaleString('en')} B`,
      fmt.ms(ours.median),
      fmt.ms(ours.min),
      fmt.ms(base.median),
      fmt.ratio(ours.median / base.median),
      fmt.pct(ours.median / MODEL_CALL_MS),
    ]);
  }

  return {
    title: 'Tool-output policy: cost of bounding one output',
    intro:
      'Time per call to bound a large tool output with its `_meta` (median and minimum of 15 runs). ' +
      '"JSON.stringify" is serialising the unbounded input once, which any tool layer pays to send it; the ratio is ours over that.',
    columns: ['Operation', 'Input', 'Output', 'Median', 'Min', 'JSON.stringify(input)', 'Ratio', `Share of a ${MODEL_CALL_MS / 1000} s model call`],
    rows,
    notes: [
      `Assumption: one model call takes about ${MODEL_CALL_MS / 1000} s (a short completion from a hosted model; long ones take longer, so the share only shrinks).`,
      'Every output was checked to fit its byte limit as UTF-8 of the whole JSON, `_meta` included.',
    ],
  };
}
