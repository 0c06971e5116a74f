// Regression tests for the review of the Context Builder's assembly (spec 001): each pins one
// finding of the read-only review, and failed on the code it was written against.
import { beforeAll, describe, expect, it } from 'vitest';
import { buildContext, createCtxgate, type BuildContextInput, type BuildContextResult, type Engine, type ProjectIndex } from '../../src/index.ts';
import { initCore } from '../../src/core/core.ts';
import { fitToBudget, type Work } from '../../src/builder/assemble.ts';
import type { ProjectFile } from '../../src/builder/project-index.ts';
import type { SlicingLevel } from '../../src/builder/types.ts';
import { baseInput, contentsOf, dependencies, projectFiles, symbols } from '../fixtures/project.ts';
import { rejection } from '../fixtures/thrown.ts';

let engine: Engine;
let index: ProjectIndex;
const files = projectFiles();
const contents = contentsOf(files);
const enc = new TextEncoder();

beforeAll(async () => {
  await initCore();
  engine = await createCtxgate();
  index = await engine.indexProject(files, { symbols, dependencies });
});

const input = (o: Partial<BuildContextInput> = {}): BuildContextInput => ({ ...baseInput(), projectIndex: index, ...o }) as BuildContextInput;
const build = (o: Partial<BuildContextInput> = {}, c: ReadonlyMap<string, Uint8Array | string> = contents): Promise<BuildContextResult> =>
  buildContext(input(o), { contents: c, engine });
const budget = (maxInputTokens: number, responseTokenReserve = 0) => ({
  tokenBudget: { provider: 'test', model: 'test', maxInputTokens, maxOutputTokens: 1000, responseTokenReserve, softLimitThresholdPct: 100 },
});

describe('item 1: constraints are scanned raw, before JSON escaping (INV-CONTEXT-4)', () => {
  // Assembled at run time so the repository holds no credential-looking literal.
  const VALUE = ['Xk9v', 'Q2mZ', 'p7Lw'].join('');
  const texts = [`client_secret\t= '${VALUE}'`, `new NetworkCredential("svc","${VALUE}")`, `smtp.PlainAuth("", from, "${VALUE}", host)`];
  const policies = [
    { highConfidence: 'redact', mediumConfidence: 'redact' },
    { highConfidence: 'redact', mediumConfidence: 'refuse' },
    { highConfidence: 'exclude', mediumConfidence: 'redact' },
    { highConfidence: 'exclude', mediumConfidence: 'refuse' },
  ] as const;
  for (const text of texts) {
    for (const secrets of policies) {
      it(`${JSON.stringify(text.slice(0, 24))}… under ${secrets.highConfidence}/${secrets.mediumConfidence}: the value reaches no output`, async () => {
        let out: string;
        try {
          const r = await build({ constraints: { project: ['MUST_NOT add dependencies'], user: [text] }, secrets });
          out = JSON.stringify(r);
          // Redacted where it was found, and recorded against the constraint that held it.
          expect(secrets.mediumConfidence).toBe('redact');
          expect(r.redactionReport.redactions.filter((x) => x.type === 'pattern_redacted' && x.target === 'constraints.user[0]')).toHaveLength(1);
          expect(r.bundle.blocks.find((b) => b.blockType === 'constraints')!.content).toContain('[REDACTED:');
        } catch (error: any) {
          if (error?.code === undefined) throw error;
          out = JSON.stringify({ code: error.code, message: error.message, details: error.details, stack: error.stack });
          expect(error.code).toBe('SECRET_RISK');
          expect(secrets.mediumConfidence).toBe('refuse');
          expect(error.details.target).toBe('constraints.user[0]');
          expect(error.details.source).toBe('request');
        }
        expect(out).not.toContain(VALUE);
      });
    }
  }
});

describe('item 2: fitting slices P1, then the target, and keeps a sliced P1 block', () => {
  it('a P1 block sliced to signatures is sent as sliced, and the target is sliced to its region', async () => {
    const body = (name: string) => Array.from({ length: 400 }, (_, i) => `export const ${name}${i} = ${i}; // line ${i} of ${name}`).join('\n');
    const project: ProjectFile[] = [
      { path: 'src/t.ts', bytes: enc.encode(`import { d0 } from './d';\nexport function f() {\n  return d0;\n}\n${body('t')}\n`) },
      { path: 'src/d.d.ts', bytes: enc.encode(body('d')), signatures: 'export const d0..d399: number' },
    ];
    const idx = await engine.indexProject(project, {
      symbols: [{ name: 'f', path: 'src/t.ts', kind: 'function', startLine: 2, endLine: 4 }],
      dependencies: [{ from: 'src/t.ts', to: 'src/d.d.ts', kind: 'import' }],
    });
    const c = contentsOf(project);
    const base = { projectIndex: idx, planStep: { id: 's', targetSymbols: ['f'] }, constraints: {} } as Partial<BuildContextInput>;
    const full = await build({ ...base, ...budget(1_000_000) }, c);
    const tokens = (r: BuildContextResult, title: string) => r.bundle.blocks.find((b) => b.title === title)!.meta.tokens;
    const tFull = tokens(full, 'src/t.ts');
    const dFull = tokens(full, 'src/d.d.ts');
    const rest = full.budgetReport.estimatedInputTokens - tFull - dFull;
    // Too small for the target in full even with the dependency dropped; enough for both sliced.
    const limit = rest + Math.floor((tFull + dFull) / 4);
    expect(rest + tFull).toBeGreaterThan(limit);
    const r = await build({ ...base, ...budget(limit) }, c);
    expect(r.bundle.blocks.filter((b) => b.blockType === 'file').map((b) => [b.title, b.meta.slicing])).toEqual([
      ['src/t.ts', 'TARGET_REGION_ONLY'],
      ['src/d.d.ts', 'SIGNATURES_ONLY'],
    ]);
    expect(r.manifest.selection.excludedCandidates).toEqual([]);
    expect(r.redactionReport.redactions.map((x) => [x.type, x.target])).toEqual([
      ['content_sliced', 'src/d.d.ts'],
      ['content_sliced', 'src/t.ts'],
    ]);
    expect(r.budgetReport.estimatedInputTokens).toBe(r.bundle.blocks.reduce((n, b) => n + b.meta.tokens, 0));
    expect(r.manifest.selection.includedFiles.map((f) => f.path)).toEqual(['src/d.d.ts', 'src/t.ts']);
  });
});

describe('item 3: fitting keeps a running total', () => {
  /** A variants map that counts its reads: the work fitting does. */
  class Counting<K, V> extends Map<K, V> {
    static reads = 0;
    override get(key: K): V | undefined {
      Counting.reads++;
      return super.get(key);
    }
  }
  const work = (priority: Work['priority'], rank: number, tokens: number): Work & { rank: number } => ({
    blockType: 'file',
    priority,
    title: `f${rank}`,
    key: `f${rank}`,
    variants: new Counting<SlicingLevel, { content: string; tokens: number }>([['FULL_FILE', { content: '', tokens }]]),
    level: 'FULL_FILE',
    ranked: { path: `f${rank}` } as Work['ranked'],
    meta: { path: `f${rank}`, symbol: null, hash: null, encoding: 'utf-8', byteSize: 0, source: 'index' },
    rank,
  });
  it('drops 20 000 unsliceable P1 blocks with work linear in their number', () => {
    const n = 20_000;
    const works = [work('P0', 0, 100), ...Array.from({ length: n }, (_, i) => work('P1', i + 1, 10))];
    Counting.reads = 0;
    let drops = 0;
    const fit = fitToBudget(works, 100, (w) => (w as Work & { rank: number }).rank, { drop: () => void drops++, slice: () => undefined });
    expect(drops).toBe(n);
    expect([...fit.live].map((w) => w.title)).toEqual(['f0']);
    expect(fit.initialTokens).toBe(100 + 10 * n);
    expect(fit.finalTokens).toBe(100);
    // Re-adding every live block per drop reads ~n²/2 = 2·10⁸ times; a running total a few per block.
    expect(Counting.reads).toBeLessThanOrEqual(4 * (n + 1));
  });
});

describe('item 4: a diff bundle needs a plan step and a target', () => {
  it('no plan step is INVALID_PARAMS naming planStep', async () => {
    const e = await rejection(() => build({ planStep: null }));
    expect([e.code, e.details.field]).toEqual(['INVALID_PARAMS', 'planStep']);
  });
  it('a plan step without targets is INVALID_PARAMS naming planStep', async () => {
    const e = await rejection(() => build({ planStep: { id: 'step-1', description: 'do it' } }));
    expect([e.code, e.details.field]).toEqual(['INVALID_PARAMS', 'planStep']);
    expect(e.message).toContain('planStep.targetFiles');
  });
  it('plan bundles still build without a plan step', async () => {
    const r = await build({ purpose: 'plan', planStep: null });
    expect(r.manifest.selection.targetFiles).toEqual([]);
  });
});

describe('item 5: targets are fingerprinted as resolved', () => {
  const T = 'src/services/UserService.ts';
  it('re-spelt targets are listed once and fingerprint as one', async () => {
    const one = await build({ planStep: { id: 'step-1', description: 'd', targetFiles: [T] } });
    const three = await build({ planStep: { id: 'step-1', description: 'd', targetFiles: [T, `./${T}`, T.replace('/', '//')] } });
    expect(three.manifest.selection.targetFiles).toEqual([T]);
    expect(three.manifest.fingerprints.bundleFingerprint).toBe(one.manifest.fingerprints.bundleFingerprint);
    expect(three.bundle.bundleId).toBe(one.bundle.bundleId);
  });
  it('the order of targets does not change the fingerprint', async () => {
    const a = await build({ planStep: { id: 'step-1', targetFiles: [T, 'src/api/controller.ts'] } });
    const b = await build({ planStep: { id: 'step-1', targetFiles: ['src/api/controller.ts', T] } });
    expect(b.manifest.fingerprints.bundleFingerprint).toBe(a.manifest.fingerprints.bundleFingerprint);
  });
  it('the task text is kept as given', async () => {
    const a = await build({ planStep: { id: 'step-1', description: 'd', targetFiles: [T] } });
    const b = await build({ planStep: { id: 'step-1', description: 'd ', targetFiles: [T] } });
    expect(b.manifest.fingerprints.bundleFingerprint).not.toBe(a.manifest.fingerprints.bundleFingerprint);
  });
});

describe('item 6: lone surrogates in string content are refused', () => {
  const T = 'src/services/UserService.ts';
  it('file content given as a string', async () => {
    const c = new Map<string, Uint8Array | string>(contents);
    c.set(T, 'x\uD800y');
    const e = await rejection(() => build({}, c));
    expect([e.code, e.details.path, e.details.index]).toEqual(['UNSUPPORTED_VALUE', T, 1]);
    c.set(T, 'x\uFFFDy');
    const ok = await build({}, c);
    expect(ok.bundle.blocks.find((b) => b.title === T)!.content).toBe('x\uFFFDy');
  });
  it('a lone low surrogate, and the last error message', async () => {
    const c = new Map<string, Uint8Array | string>(contents);
    c.set(T, 'ab\uDC00');
    expect((await rejection(() => build({}, c))).code).toBe('UNSUPPORTED_VALUE');
    const e = await rejection(() => build({ lastError: { message: 'bad \uDBFF' } }));
    expect([e.code, e.details.target]).toEqual(['UNSUPPORTED_VALUE', 'last error']);
    // A well-formed pair is fine.
    c.set(T, 'ok \uD83D\uDE00');
    expect((await build({}, c)).bundle.blocks.find((b) => b.title === T)!.content).toBe('ok \uD83D\uDE00');
  });
});

describe('item 7: the intent project listing names no never-send file', () => {
  it('leaves .env, keys and credential files out of the listing and its counts', async () => {
    const project: ProjectFile[] = [
      { path: 'src/a.ts', bytes: enc.encode('export const a = 1;\n') },
      { path: '.env', bytes: enc.encode('X=1\n') },
      { path: 'certs/server.pem', bytes: enc.encode('not a key\n') },
      { path: 'id_rsa', bytes: enc.encode('not a key either\n') },
      { path: 'home/.ssh/id_ed25519', bytes: enc.encode('nor this\n') },
      { path: 'README.md', bytes: enc.encode('# demo\n') },
    ];
    const idx = await engine.indexProject(project);
    const r = await build({ purpose: 'intent', planStep: null, projectIndex: idx }, contentsOf(project));
    expect(r.bundle.blocks.find((b) => b.blockType === 'project_meta')!.content).toBe('2 files\nREADME.md\nsrc/ (1 files)');
  });
});

describe('item 8: input that throws on read, and the reserve field', () => {
  it('a throwing getter is INVALID_PARAMS naming the field', async () => {
    const bad = input();
    Object.defineProperty(bad, 'constraints', {
      enumerable: true,
      get() {
        throw new TypeError('boom');
      },
    });
    const e = await rejection(() => buildContext(bad, { contents, engine }));
    expect([e.code, e.details.field]).toEqual(['INVALID_PARAMS', 'constraints']);
    const nested = input();
    nested.tokenBudget = { ...nested.tokenBudget };
    Object.defineProperty(nested.tokenBudget, 'model', {
      enumerable: true,
      get() {
        throw new Error('no');
      },
    });
    const e2 = await rejection(() => buildContext(nested, { contents, engine }));
    expect([e2.code, e2.details.field]).toEqual(['INVALID_PARAMS', 'tokenBudget.model']);
  });
  it('a reserve above maxInputTokens names tokenBudget.responseTokenReserve', async () => {
    const e = await rejection(() => build(budget(100, 101)));
    expect([e.code, e.details.field]).toEqual(['INVALID_PARAMS', 'tokenBudget.responseTokenReserve']);
  });
});
