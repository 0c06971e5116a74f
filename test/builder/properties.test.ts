// Properties of whole builds over random projects and budgets: what the contract promises for every
// input, not only for the fixture project. Each run makes a small project (code lines, some with
// secrets planted; signatures and summaries from the "indexer", some with secrets too; symbols with
// line ranges, some named as targets; random dependency edges), picks a budget as a share of what
// the project needs and a secret policy, and checks the bundle or the refusal.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildContext, createCtxgate, isCtxgateError, scanSecrets, type BuildContextInput, type BuildContextResult, type Engine } from '../../src/index.ts';
import { initCore } from '../../src/core/core.ts';
import { estimateBlockTokens } from '../../src/core/tokens.ts';
import { BLOCK_TYPE_ORDER } from '../../src/core/sort.ts';
import type { ProjectFile } from '../../src/builder/project-index.ts';
import type { DependencyEdge, IndexedSymbol } from '../../src/builder/types.ts';

let engine: Engine;
beforeAll(async () => {
  await initCore();
  engine = await createCtxgate();
});

const enc = new TextEncoder();
const alnum = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const token = (length: number) => fc.string({ unit: fc.constantFrom(...alnum), minLength: length, maxLength: length });

/** A secret line: built at run time from random bodies, so no live-looking value is in the repo. */
const secretLine = fc.oneof(
  token(36).map((b) => `const gh = '${['ghp', '_'].join('')}${b}';`),
  token(16).map((b) => `aws_access_key_id = ${['AKIA'].join('')}${b.toUpperCase()}`),
  token(24).map((b) => `password = "${b}"`),
  token(32).map((b) => `Authorization: Bearer ${b}`),
);
const codeLine = fc.oneof(
  { weight: 40, arbitrary: fc.constantFrom('export function run(x: number) {', '  return x + 1;', '}', '', '// keep the public API', "import { db } from './db';", '  const user = await db.find(id);', 'const é = "naïve café";') },
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', maxLength: 60 }) },
  { weight: 1, arbitrary: secretLine },
);

interface Project {
  files: ProjectFile[];
  symbols: IndexedSymbol[];
  dependencies: DependencyEdge[];
  targets: string[];
  targetSymbols: string[];
}

/** A signatures or summary text from the caller's indexer: usually clean, sometimes with a secret. */
const indexText = (kind: string) =>
  fc.option(
    fc.oneof({ weight: 3, arbitrary: fc.constant(`${kind}: export function run(x: number): number`) }, { weight: 1, arbitrary: secretLine.map((line) => `${kind}: ${line}`) }),
    { freq: 2 },
  );

const project: fc.Arbitrary<Project> = fc
  .integer({ min: 1, max: 10 })
  .chain((n) =>
    fc.record({
      bodies: fc.array(fc.array(codeLine, { minLength: 1, maxLength: 80 }), { minLength: n, maxLength: n }),
      signatures: fc.array(indexText('signatures'), { minLength: n, maxLength: n }),
      summaries: fc.array(indexText('summary'), { minLength: n, maxLength: n }),
      roles: fc.array(fc.constantFrom(undefined, 'source', 'config', 'test', 'doc'), { minLength: n, maxLength: n }),
      // Edges start at file 0 (always a target) half the time, so most files are one or two hops away.
      edges: fc.array(fc.tuple(fc.oneof(fc.constant(0), fc.nat(n - 1)), fc.nat(n - 1), fc.constantFrom('import', 'interface', 'base_type', 'call')), { maxLength: 3 * n }),
      // Symbols: [file, first line, extra lines, named as a target?]; file 0 is always a target.
      symbolsAt: fc.array(fc.tuple(fc.oneof(fc.constant(0), fc.nat(n - 1)), fc.nat(60), fc.nat(10), fc.boolean()), { maxLength: n + 2 }),
      targets: fc.uniqueArray(fc.nat(n - 1), { maxLength: Math.min(n, 3) - 1 }),
    }),
  )
  .map(({ bodies, signatures, summaries, roles, edges, symbolsAt, targets }) => {
    const pathOf = (i: number) => `src/m${i % 3}/file${i}.ts`;
    const files: ProjectFile[] = bodies.map((lines, i) => ({
      path: pathOf(i),
      bytes: enc.encode(lines.join('\n')),
      ...(signatures[i] !== null ? { signatures: signatures[i] } : {}),
      ...(summaries[i] !== null ? { summary: summaries[i] } : {}),
      ...(roles[i] ? { role: roles[i] } : {}),
    }));
    const inRange = symbolsAt.filter(([i, start, span]) => start + 1 + span <= bodies[i]!.length);
    const symbols = inRange.map(([i, start, span], k): IndexedSymbol => ({ name: `sym${k}`, path: pathOf(i), kind: 'function', startLine: start + 1, endLine: start + 1 + span }));
    const targetSymbols = symbols.filter((_, k) => inRange[k]![3]).map((x) => x.name);
    const dependencies = edges.filter(([a, b]) => a !== b).map(([a, b, kind]): DependencyEdge => ({ from: pathOf(a), to: pathOf(b), kind: kind as DependencyEdge['kind'] }));
    return { files, symbols, dependencies, targets: [...new Set([0, ...targets])].map(pathOf), targetSymbols };
  });

/**
 * A budget as a share of what the project needs unfitted (measured by a first build with room for
 * everything), so every step of the fit, and the refusal, is reached whatever the project's size.
 */
const budgetShare = fc.record({
  share: fc.oneof(fc.double({ min: 0, max: 1.1, noNaN: true }), fc.double({ min: 0.6, max: 1, noNaN: true }), fc.constantFrom(0, 0.5, 0.9, 1)),
  reserve: fc.integer({ min: 0, max: 300 }),
  softLimitThresholdPct: fc.integer({ min: 1, max: 100 }),
});
type Share = { share: number; reserve: number; softLimitThresholdPct: number };

const policy = fc.record({ highConfidence: fc.constantFrom('redact', 'redact', 'exclude'), mediumConfidence: fc.constantFrom('redact', 'redact', 'refuse') });

type Budget = { maxInputTokens: number; responseTokenReserve: number; softLimitThresholdPct: number };
type Policy = NonNullable<BuildContextInput['secrets']>;

/** The budget a share stands for: the hard limit is that share of the unfitted total. */
async function budgetFor(p: Project, { share, reserve, softLimitThresholdPct }: Share, secrets: Policy): Promise<Budget> {
  const roomy = await run(p, { maxInputTokens: 1e9, responseTokenReserve: 0, softLimitThresholdPct: 100 }, secrets);
  const full = roomy.result?.budgetReport.estimatedInputTokens ?? 2000;
  return { maxInputTokens: Math.max(1, reserve + Math.floor(share * full)), responseTokenReserve: reserve, softLimitThresholdPct };
}

async function run(p: Project, b: Budget, secrets: Policy): Promise<{ result?: BuildContextResult; error?: unknown }> {
  const projectIndex = await engine.indexProject(p.files, { symbols: p.symbols, dependencies: p.dependencies });
  const input: BuildContextInput = {
    purpose: 'diff',
    intent: { id: 'i', text: 'change run' },
    planStep: { id: 's', targetFiles: p.targets, targetSymbols: p.targetSymbols },
    projectIndex,
    constraints: { project: ['keep the public API'] },
    tokenBudget: { provider: 'test', model: 'test', maxOutputTokens: 1000, ...b },
    secrets,
    createdAt: '2026-11-24T00:00:00.000Z',
  };
  const contents = new Map(p.files.map((f) => [f.path, f.bytes!]));
  try {
    return { result: await buildContext(input, { contents, engine }) };
  } catch (error) {
    return { error };
  }
}

/**
 * The values scanSecrets finds in the project's files and in the signatures and summaries its
 * indexer gave, scanned as the builder scans them (a file's text and signatures with its path, a
 * summary without): none may appear in anything returned.
 */
const secretValues = (p: Project): string[] =>
  p.files.flatMap((f) =>
    (
      [
        [new TextDecoder().decode(f.bytes), f.path],
        [f.signatures ?? '', f.path],
        [f.summary ?? '', undefined],
      ] as const
    ).flatMap(([text, path]) => scanSecrets(text, path === undefined ? {} : { path }).map((s) => text.slice(s.start, s.end))),
  );

const compareKeys = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));
const PRIORITIES = ['P0', 'P1', 'P2', 'P3'];

function checkBundle(r: BuildContextResult, p: Project, b: Budget): void {
  const report = r.budgetReport;
  const blocks = r.bundle.blocks;
  // Budget: the reported total is the blocks' own counts, within the hard limit, decided at the soft limit.
  expect(report.hardLimitTokens).toBe(b.maxInputTokens - b.responseTokenReserve);
  expect(report.estimatedInputTokens).toBe(blocks.reduce((n, x) => n + x.meta.tokens, 0));
  expect(report.estimatedInputTokens).toBeLessThanOrEqual(report.hardLimitTokens);
  expect(report.decision).toBe(report.estimatedInputTokens > report.softLimitTokens ? 'warn_soft_limit' : 'ok');
  // Each block's count is the estimator's count of its title and content.
  for (const x of blocks) expect(x.meta.tokens).toBe(estimateBlockTokens(x.title, x.content).tokens);
  // INV-CONTEXT-1: priority, block type, then key bytewise.
  for (let k = 1; k < blocks.length; k++) {
    const [a, c] = [blocks[k - 1]!, blocks[k]!];
    const order = PRIORITIES.indexOf(a.priority) - PRIORITIES.indexOf(c.priority) || BLOCK_TYPE_ORDER.indexOf(a.blockType) - BLOCK_TYPE_ORDER.indexOf(c.blockType) || compareKeys(a.title, c.title);
    expect(order).toBeLessThan(0);
  }
  // INV-CONTEXT-3: every candidate is explained once; file blocks are exactly the included and sliced ones.
  const explained = r.explain.map((e) => e.path);
  expect(new Set(explained).size).toBe(explained.length);
  const fileBlocks = blocks.filter((x) => x.blockType === 'file');
  const kept = r.explain.filter((e) => e.outcome === 'included' || e.outcome === 'sliced');
  expect(kept.map((e) => e.path).sort()).toEqual(fileBlocks.map((x) => x.title).sort());
  for (const x of fileBlocks) {
    const e = r.explain.find((y) => y.path === x.title)!;
    expect(e.outcome).toBe(x.meta.slicing === 'FULL_FILE' ? 'included' : 'sliced');
    expect(e.tokens).toBe(x.meta.tokens);
  }
  // A target is never dropped for the budget: the build refuses instead.
  for (const t of p.targets) expect(r.explain.find((e) => e.path === t)?.outcome).not.toBe('dropped');
  for (const e of r.explain.filter((y) => y.outcome === 'dropped')) expect(e.reason).toBe('token_budget');
  // Slicing to fit is reported, never silent.
  for (const x of fileBlocks.filter((y) => y.meta.slicing !== 'FULL_FILE')) {
    expect(r.redactionReport.redactions.some((d) => d.type === 'content_sliced' && d.target === x.title)).toBe(true);
  }
}

describe('builder properties over random projects', () => {
  it('a build is a bundle that keeps every rule, or one of the contract refusals; no secret value appears in either (property)', async () => {
    await fc.assert(
      fc.asyncProperty(project, budgetShare, policy, async (p, share, secrets) => {
        const b = await budgetFor(p, share, secrets);
        const { result, error } = await run(p, b, secrets);
        const values = secretValues(p);
        const everything = result !== undefined ? JSON.stringify(result) : `${(error as Error).message} ${JSON.stringify((error as { details?: unknown }).details ?? null)}`;
        for (const v of values) expect(everything).not.toContain(v);
        if (result !== undefined) return checkBundle(result, p, b);
        if (isCtxgateError(error, 'CONTEXT_TOO_LARGE')) {
          const report = (error.details as { budgetReport: BuildContextResult['budgetReport'] }).budgetReport;
          expect(report.decision).toBe('refuse_hard_limit');
          expect(report.estimatedInputTokens).toBeGreaterThan(report.hardLimitTokens);
          return;
        }
        // A secret refusal only where the policy asks for one.
        expect(isCtxgateError(error, 'SECRET_RISK')).toBe(true);
        expect(secrets.highConfidence === 'exclude' || secrets.mediumConfidence === 'refuse').toBe(true);
        expect(values.length).toBeGreaterThan(0);
      }),
      { numRuns: 200 },
    );
  });

  it('more budget never turns a bundle into a refusal, and never sends less (property)', async () => {
    await fc.assert(
      fc.asyncProperty(project, budgetShare, fc.integer({ min: 1, max: 2000 }), async (p, share, more) => {
        const secrets: Policy = { highConfidence: 'redact', mediumConfidence: 'redact' };
        const b = await budgetFor(p, share, secrets);
        const small = await run(p, b, secrets);
        const large = await run(p, { ...b, maxInputTokens: b.maxInputTokens + more }, secrets);
        if (small.result === undefined) {
          expect(isCtxgateError(small.error, 'CONTEXT_TOO_LARGE')).toBe(true);
          return;
        }
        expect(large.error).toBeUndefined();
        expect(large.result!.budgetReport.estimatedInputTokens).toBeGreaterThanOrEqual(small.result.budgetReport.estimatedInputTokens);
        // What the larger budget drops, the smaller one dropped too.
        const droppedBy = (r: BuildContextResult) => new Set(r.explain.filter((e) => e.outcome === 'dropped').map((e) => e.path));
        const smallDropped = droppedBy(small.result);
        for (const path of droppedBy(large.result!)) expect(smallDropped.has(path)).toBe(true);
      }),
      { numRuns: 100 },
    );
  });
});
