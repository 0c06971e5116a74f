// Regressions from review 001 of the Context Builder's candidate step (spec 001, Selection step 0/1,
// INV-CONTEXT-2, Edge case 1): paths leaving the project, tie-breaks between equal claims,
// duplicate index entries, the index fingerprint, NFD deny rules and many target symbols.
import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildContext, createCtxgate, type BuildContextInput, type BuildContextResult, type Engine, type ProjectIndex } from '../../src/index.ts';
import { initCore } from '../../src/core/core.ts';
import { establishCandidates } from '../../src/builder/candidates.ts';
import { createPathGates } from '../../src/builder/default-gates.ts';
import { createPathGate } from '../../src/secrets/paths.ts';
import { projectIndexFingerprint, verifiedProjectIndexFingerprint } from '../../src/builder/project-index.ts';
import { rejection, thrown } from '../fixtures/thrown.ts';
import type { DependencyEdge, IndexedFile, IndexedSymbol } from '../../src/builder/types.ts';
import { CtxgateError } from '../../src/errors.ts';
import { baseInput, contentsOf, dependencies, projectFiles, symbols, FAKE_GITHUB_TOKEN } from '../fixtures/project.ts';

let engine: Engine;
const files = projectFiles();
const contents = contentsOf(files);

beforeAll(async () => {
  await initCore();
  engine = await createCtxgate();
});

const indexWith = (extra: { symbols?: IndexedSymbol[]; dependencies?: DependencyEdge[] } = {}): Promise<ProjectIndex> =>
  engine.indexProject(files, { symbols: [...symbols, ...(extra.symbols ?? [])], dependencies: [...dependencies, ...(extra.dependencies ?? [])] });
const build = (projectIndex: ProjectIndex, o: Partial<BuildContextInput> = {}): Promise<BuildContextResult> =>
  buildContext({ ...baseInput(), projectIndex, ...o } as BuildContextInput, { contents, engine });

describe('candidates outside the project are excluded, not fatal (spec 001 step 1)', () => {
  it('an unrelated edge leaving the project does not fail the build', async () => {
    // table.ts is two hops from the target, so its own edges are never explored.
    const index = await indexWith({ dependencies: [{ from: 'src/generated/table.ts', to: '../outside.ts', kind: 'import' }] });
    const r = await build(index);
    expect(r.manifest.selection.excludedCandidates.map((e) => e.path)).not.toContain('../outside.ts');
    expect(r.manifest.selection.includedFiles.map((f) => f.path)).toContain('src/services/UserService.ts');
  });

  it('a reached dependency or caller outside the project is listed as outside_sandbox and sends nothing', async () => {
    const index = await indexWith({
      dependencies: [
        { from: 'src/services/UserService.ts', to: '../outside.ts', kind: 'import' },
        { from: '../caller.ts', to: 'src/services/UserService.ts', kind: 'call' },
        // What an outside file depends on is not explored through it.
        { from: '../outside.ts', to: 'src/api/controller.ts', kind: 'interface' },
      ],
    });
    const r = await build(index);
    const excluded = r.manifest.selection.excludedCandidates;
    expect(excluded).toContainEqual({ path: '../outside.ts', reason: 'outside_sandbox' });
    expect(excluded).toContainEqual({ path: '../caller.ts', reason: 'outside_sandbox' });
    expect(r.bundle.blocks.map((b) => b.meta.path).filter((p) => p?.startsWith('..'))).toEqual([]);
    // controller.ts is still a caller of the target (40), not an interface (55) via the outside file.
    expect(r.manifest.selection.includedFiles.find((f) => f.path === 'src/api/controller.ts')?.reason).toBe('caller');
  });

  it('an active file outside the project is excluded as outside_sandbox', async () => {
    const r = await build(await indexWith(), { activeFile: '../x.ts' });
    expect(r.manifest.selection.excludedCandidates).toContainEqual({ path: '../x.ts', reason: 'outside_sandbox' });
  });

  it('a path outside the project is published masked and once: a token in it never reaches the manifest, and two spellings of one string are one entry', async () => {
    const pat = FAKE_GITHUB_TOKEN;
    const r = await build(await indexWith(), { activeFile: `../../etc/${pat}` });
    expect(JSON.stringify(r)).not.toContain(pat);
    expect(r.manifest.selection.excludedCandidates.filter((e) => e.reason === 'outside_sandbox')).toEqual([{ path: '../../etc/[REDACTED:github-pat:1]', reason: 'outside_sandbox' }]);
    const twice = await build(await indexWith({ dependencies: [{ from: 'src/services/IUserService.ts', to: '../x.ts', kind: 'import' }] }), { activeFile: '../x.ts' });
    expect(twice.manifest.selection.excludedCandidates.filter((e) => e.path === '../x.ts')).toEqual([{ path: '../x.ts', reason: 'outside_sandbox' }]);
  });

  it('a target symbol also defined outside the project resolves to its one definition inside', async () => {
    const index = await indexWith({ symbols: [{ name: 'loginAsync', path: '../vendor/auth.ts', kind: 'function', startLine: 1, endLine: 2 }] });
    const r = await build(index, { planStep: { id: 'step-1', description: 'd', targetSymbols: ['loginAsync'] } });
    expect(r.manifest.selection.targetSymbols).toEqual(['loginAsync']);
  });

  it('a target outside the project is still OUTSIDE_SANDBOX (file, user-selected file, symbol defined only outside)', async () => {
    const index = await indexWith({ symbols: [{ name: 'elsewhere', path: '../vendor/auth.ts', kind: 'function', startLine: 1, endLine: 2 }] });
    expect((await rejection(build(index, { planStep: { id: 's', description: 'd', targetFiles: ['../x.ts'] } }))).code).toBe('OUTSIDE_SANDBOX');
    expect((await rejection(build(index, { userSelectedTargets: { files: ['../x.ts'] } }))).code).toBe('OUTSIDE_SANDBOX');
    expect((await rejection(build(index, { planStep: { id: 's', description: 'd', targetSymbols: ['elsewhere'] } }))).code).toBe('OUTSIDE_SANDBOX');
  });
});

describe('INV-CONTEXT-2: equal claims are decided by a total order', () => {
  const shuffle = <T>(xs: readonly T[], r: readonly number[]): T[] => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = r[i % r.length]! % (i + 1);
      [out[i], out[j]] = [out[j]!, out[i]!];
    }
    return out;
  };

  it('interface and base_type edges to one file give base_type whatever their order', async () => {
    const tie: DependencyEdge[] = [
      { from: 'src/services/UserService.ts', to: 'src/services/IUserService.ts', kind: 'base_type' },
      { from: 'src/services/UserService.ts', to: 'src/services/IUserService.ts', kind: 'interface' },
    ];
    const a = await build(await engine.indexProject(files, { symbols, dependencies: [...tie, ...dependencies] }));
    const b = await build(await engine.indexProject(files, { symbols, dependencies: [...dependencies, ...tie.reverse()] }));
    expect(a.manifest.selection.includedFiles.find((f) => f.path === 'src/services/IUserService.ts')?.reason).toBe('base_type');
    expect(b.manifest.fingerprints.bundleFingerprint).toBe(a.manifest.fingerprints.bundleFingerprint);
  });

  it('shuffling files, edges and symbols (with tied claims) never changes the bundle fingerprint (property)', async () => {
    const extra: DependencyEdge[] = [
      { from: 'src/services/UserService.ts', to: 'src/services/IUserService.ts', kind: 'base_type' },
      { from: 'src/services/UserService.ts', to: 'src/api/controller.ts', kind: 'interface' },
      { from: 'src/services/UserService.ts', to: 'src/api/controller.ts', kind: 'base_type' },
      { from: 'src/services/UserService.ts', to: '../outside.ts', kind: 'base_type' },
      { from: 'src/services/UserService.ts', to: '../outside.ts', kind: 'interface' },
    ];
    const index = await indexWith({ dependencies: extra });
    const reference = await build(index, { activeFile: 'src/generated/table.ts' });
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { minLength: 16, maxLength: 16 }), async (r) => {
        const shuffled: ProjectIndex = { ...index, files: shuffle(index.files, r), symbols: shuffle(index.symbols ?? [], r), dependencies: shuffle(index.dependencies ?? [], r) };
        const again = await build(shuffled, { activeFile: 'src/generated/table.ts' });
        expect(again.manifest.fingerprints.bundleFingerprint).toBe(reference.manifest.fingerprints.bundleFingerprint);
        expect(again.manifest.selection).toEqual(reference.manifest.selection);
      }),
      { numRuns: 20 },
    );
  });
});

describe('deny and allow patterns are matched in NFC, like paths', () => {
  it('an NFD deny rule excludes the NFC path, and an NFD allow rule re-includes it', () => {
    expect(createPathGate({ deny: ['cafe\u0301/'] }).check('caf\u00e9/notes.ts')).toMatchObject({ allowed: false, reason: 'deny_rule' });
    expect(createPathGate({ deny: ['caf\u00e9/'] }).check('cafe\u0301/notes.ts')).toMatchObject({ allowed: false, reason: 'deny_rule' });
    expect(createPathGate({ deny: ['*.ts'], allow: ['cafe\u0301/notes.ts'] }).check('caf\u00e9/notes.ts')).toMatchObject({ allowed: true });
    expect(createPathGates({ deny: ['cafe\u0301/'] }).isDenied('caf\u00e9/notes.ts').denied).toBe(true);
  });
});

describe('many target symbols resolve in linear work', () => {
  it('reads each symbol a bounded number of times however many targets there are', () => {
    // Counting reads, not time: the old code read every symbol once per target (n² = 16M here).
    const n = 4000;
    let reads = 0;
    const counted = (s: IndexedSymbol): IndexedSymbol =>
      new Proxy(s, {
        get(t, k, rcv) {
          reads++;
          return Reflect.get(t, k, rcv);
        },
      });
    const syms = Array.from({ length: n }, (_, i) => counted({ name: `s${i}`, path: 'src/a.ts', kind: 'function', startLine: i + 1, endLine: i + 1 }));
    const file: IndexedFile = { path: 'src/a.ts', byteSize: 10, hash: 'h', encoding: 'utf-8' };
    const input = {
      ...baseInput(),
      planStep: { id: 's', description: 'd', targetSymbols: syms.map((_, i) => `s${i}`) },
      projectIndex: { files: [file], symbols: syms, dependencies: [] },
    } as BuildContextInput;
    const r = establishCandidates(input, new Map([['src/a.ts', file]]), (p) => p);
    expect(r.targetSymbols).toHaveLength(n);
    expect(r.candidates).toHaveLength(1);
    expect(r.candidates[0]!.symbols).toHaveLength(n);
    expect(reads).toBeLessThan(20 * n);
  });

  it('an error other than OUTSIDE_SANDBOX from the normaliser is not swallowed', () => {
    const file: IndexedFile = { path: 'src/a.ts', byteSize: 10, hash: 'h', encoding: 'utf-8' };
    const input = { ...baseInput(), activeFile: 'x', planStep: { id: 's', description: 'd', targetFiles: ['src/a.ts'] }, projectIndex: { files: [file] } } as BuildContextInput;
    const boom = new CtxgateError('CORE_FAILURE', 'boom');
    expect(() => establishCandidates(input, new Map([['src/a.ts', file]]), (p) => (p === 'x' ? (() => { throw boom; })() : p))).toThrow(boom);
  });
});

describe('duplicate index entries cannot make the result depend on their order (spec 001 edge case 1)', () => {
  it('two entries for one path with different members are INVALID_PARAMS naming the path, in either order', async () => {
    const index = await indexWith();
    const original = index.files.find((f) => f.path === 'src/services/IUserService.ts')!;
    const other = { ...original, path: './src/services/IUserService.ts', signatures: 'export interface IUserService { other(): void }' };
    for (const files of [[...index.files, other], [other, ...index.files]]) {
      const { projectIndexFingerprint: _fp, ...rest } = index;
      const e = await rejection(build({ ...rest, files }));
      expect(e.code).toBe('INVALID_PARAMS');
      expect(e.details.path).toBe('src/services/IUserService.ts');
      expect(e.message).toContain('"src/services/IUserService.ts"');
    }
  });

  it('identical entries are allowed, and which comes first does not change the bundle', async () => {
    const index = await indexWith();
    const original = index.files.find((f) => f.path === 'src/services/IUserService.ts')!;
    const twin = { ...original, path: './src/services/IUserService.ts' };
    const { projectIndexFingerprint: _fp, ...rest } = index;
    const a = await build({ ...rest, files: [...index.files, twin] });
    const b = await build({ ...rest, files: [twin, ...index.files] });
    expect(b.manifest.fingerprints.bundleFingerprint).toBe(a.manifest.fingerprints.bundleFingerprint);
  });
});

describe('the project index fingerprint covers everything that can change a bundle', () => {
  const base: ProjectIndex = {
    files: [{ path: 'src/a.ts', byteSize: 10, hash: 'a'.repeat(64), encoding: 'utf-8', lineCount: 2, signatures: 'export function a(): void', summary: 'does a' }],
    symbols: [{ name: 'a', path: 'src/a.ts', startLine: 1, endLine: 2, signature: 'export function a(): void' }],
    dependencies: [],
  };
  it.each([
    ['signatures', { ...base, files: [{ ...base.files[0]!, signatures: 'export function a(x: number): void' }] }],
    ['summary', { ...base, files: [{ ...base.files[0]!, summary: 'does b' }] }],
    ['lineCount', { ...base, files: [{ ...base.files[0]!, lineCount: 3 }] }],
    ['symbol.signature', { ...base, symbols: [{ ...base.symbols![0]!, signature: 'export function a(x: number): void' }] }],
  ])('a different %s gives a different fingerprint', (_member, changed) => {
    expect(projectIndexFingerprint(changed as ProjectIndex)).not.toBe(projectIndexFingerprint(base));
  });

  it('buildContext checks the index fingerprint it is given: an index edited after indexing is refused, not fingerprinted as the old one', async () => {
    const index = await indexWith();
    expect((await build(index)).manifest.fingerprints.projectIndexFingerprint).toBe(index.projectIndexFingerprint);
    const edited = { ...index, files: index.files.map((f, i) => (i === 0 ? { ...f, summary: 'edited after indexing' } : f)) };
    const e = await rejection(build(edited));
    expect(e).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'projectIndex.projectIndexFingerprint', given: index.projectIndexFingerprint } });
  });

  it('a supplied fingerprint is verified: a stale one is INVALID_PARAMS, a matching one is returned', () => {
    const fp = projectIndexFingerprint(base);
    expect(verifiedProjectIndexFingerprint({ ...base, projectIndexFingerprint: fp })).toBe(fp);
    expect(verifiedProjectIndexFingerprint(base)).toBe(fp);
    const stale = { ...base, files: [{ ...base.files[0]!, summary: 'changed' }], projectIndexFingerprint: fp };
    const e = thrown(() => verifiedProjectIndexFingerprint(stale));
    expect(e.code).toBe('INVALID_PARAMS');
    expect(e.details).toMatchObject({ field: 'projectIndex.projectIndexFingerprint', given: fp, computed: projectIndexFingerprint(stale) });
  });
});
