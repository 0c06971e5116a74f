import { buildContext, createCtxgate, indexProject, isCtxgateError, serializeError, type BuildContextInput } from '../../src/index.ts';
import { baseInput, contentsOf, dependencies, FAKE_GITHUB_TOKEN, projectFiles, symbols } from '../fixtures/project.ts';
import { rejection } from '../fixtures/thrown.ts';
import golden from '../vectors/bundle-golden.json' with { type: 'json' };
import type { Harness } from './harness.ts';

/** The golden bundles: byte-identical results in every runtime (INV-CONTEXT-2). */
export function builderContract({ describe, it, expect, runtime }: Harness): void {
  describe(`context builder (${runtime})`, () => {
    it('indexes the fixture project to the golden index fingerprint', async () => {
      await using engine = await createCtxgate();
      const index = await engine.indexProject(projectFiles(), { symbols, dependencies });
      expect(index.projectIndexFingerprint).toBe(golden.projectIndexFingerprint);
    });

    for (const c of golden.cases) {
      it(`builds the golden bundle "${c.name}" byte for byte`, async () => {
        await using engine = await createCtxgate();
        const files = projectFiles();
        const projectIndex = await engine.indexProject(files, { symbols, dependencies });
        const input = { ...baseInput(), ...(c.overrides as Partial<BuildContextInput>), projectIndex } as BuildContextInput;
        const result = await buildContext(input, { contents: contentsOf(files), engine });
        const text = JSON.stringify(result);
        expect(text.includes(FAKE_GITHUB_TOKEN)).toBe(false);
        expect(result.manifest.fingerprints).toEqual(c.result.manifest.fingerprints);
        expect(JSON.parse(text)).toEqual(c.result);
      });
    }

    it("leaves the buffers a caller's readFile returns intact (copied to the engine, not transferred)", async () => {
      await using engine = await createCtxgate();
      const files = projectFiles();
      const projectIndex = await engine.indexProject(files, { symbols, dependencies });
      // A reader that serves the caller's own cache: each buffer whole, as a transfer would take it.
      const cache = new Map(files.map((f) => [f.path, f.bytes!.slice()]));
      const sizes = new Map([...cache].map(([p, b]) => [p, b.byteLength]));
      const readFile = async (path: string): Promise<Uint8Array> => cache.get(path)!;
      const input = { ...baseInput(), projectIndex } as BuildContextInput;
      const first = await buildContext(input, { readFile, engine });
      for (const [path, bytes] of cache) expect([path, bytes.byteLength]).toEqual([path, sizes.get(path)]);
      const second = await buildContext(input, { readFile, engine });
      expect(second.manifest.fingerprints).toEqual(first.manifest.fingerprints);
    });

    it('a function among the symbols is INVALID_PARAMS naming it, whether the engine is a worker or in-thread', async () => {
      await using engine = await createCtxgate();
      const symbol = { name: 'a', path: 'src/a.ts', startLine: 1, endLine: 1, render: () => 'a' };
      const error = await rejection(indexProject(projectFiles(), { engine, symbols: [symbol] }));
      expect(isCtxgateError(error, 'INVALID_PARAMS')).toBe(true);
      expect((error as Error).message).toBe('options.symbols[0].render: is a function, which is not data; pass plain JSON data (strings, numbers, booleans, null, arrays, plain objects)');
    });

    it("the engine's indexProject refuses a symbol or edge the builder would refuse, naming it, in either engine", async () => {
      await using engine = await createCtxgate();
      const files = projectFiles();
      const refused = (extras: unknown): Promise<unknown> => rejection(engine.indexProject(files, extras as never));
      const cases: [unknown, string][] = [
        [{ symbols: [{ path: 'src/a.ts' }] }, 'extras.symbols[0].name: Invalid input: expected string, received undefined'],
        [{ symbols: [{ name: 'a', path: 'src/a.ts', startLine: 0, endLine: 1 }] }, 'extras.symbols[0].startLine: Too small: expected number to be >0'],
        [{ dependencies: [{ from: 1, to: 'src/b.ts' }] }, 'extras.dependencies[0].from: Invalid input: expected string, received number'],
        [{ dependencies: {} }, 'extras.dependencies: must be an array (got an object).'],
      ];
      for (const [extras, message] of cases) {
        const error = await refused(extras);
        expect(isCtxgateError(error, 'INVALID_PARAMS')).toBe(true);
        expect((error as Error).message).toBe(message);
      }
      // What the builder accepts is still indexed as given.
      const index = await engine.indexProject(files, { symbols, dependencies });
      expect(index.symbols).toEqual(symbols);
    });

    it('a token typed as a target comes back masked in the refusal, never as typed', async () => {
      await using engine = await createCtxgate();
      const files = projectFiles();
      const projectIndex = await engine.indexProject(files, { symbols, dependencies });
      const steps: [NonNullable<BuildContextInput['planStep']>, string, string][] = [
        [{ id: 's', targetSymbols: [FAKE_GITHUB_TOKEN] }, 'INVALID_PARAMS', 'planStep.targetSymbols[0]: symbol "[REDACTED:github-pat:1]" is not in the project index; index it or name the file instead'],
        [{ id: 's', targetFiles: [`src/${FAKE_GITHUB_TOKEN}.ts`] }, 'INVALID_PARAMS', 'planStep.targetFiles[0]: "src/[REDACTED:github-pat:1].ts" is not in the project index; index it or correct the path'],
        [{ id: 's', targetFiles: [`../${FAKE_GITHUB_TOKEN}`] }, 'OUTSIDE_SANDBOX', '"../[REDACTED:github-pat:1]" is outside the project root (parent-directory segment (..) in path); name a path inside the project.'],
      ];
      for (const [planStep, code, message] of steps) {
        const error = await rejection(buildContext({ ...baseInput(), projectIndex, planStep } as BuildContextInput, { contents: contentsOf(files), engine }));
        expect(isCtxgateError(error, code as never)).toBe(true);
        expect((error as Error).message).toBe(message);
        expect(JSON.stringify(serializeError(error))).not.toContain(FAKE_GITHUB_TOKEN);
      }
    });

    it('a symbol whose name reads as a secret is published masked, in block meta and the selection', async () => {
      await using engine = await createCtxgate();
      const text = `export function ${FAKE_GITHUB_TOKEN}(): string {\n  return 'x';\n}\n`;
      const projectIndex = await indexProject([{ path: 'keys.ts', text }], {
        engine,
        symbols: [{ name: FAKE_GITHUB_TOKEN, path: 'keys.ts', startLine: 1, endLine: 3, kind: 'function' }],
      });
      const result = await buildContext({ ...baseInput(), projectIndex, planStep: { id: 's', targetSymbols: [FAKE_GITHUB_TOKEN] } } as BuildContextInput, { contents: { 'keys.ts': text }, engine });
      expect(JSON.stringify(result)).not.toContain(FAKE_GITHUB_TOKEN);
      expect(result.manifest.selection.targetSymbols).toEqual(['[REDACTED:github-pat:1]']);
      expect(result.bundle.blocks.find((b) => b.meta.path === 'keys.ts')?.meta.symbol).toBe('[REDACTED:github-pat:1]');
      expect(result.bundle.blocks.find((b) => b.meta.path === 'keys.ts')?.content).toBe("export function [REDACTED:github-pat:1](): string {\n  return 'x';\n}\n");
    });

    it('refuses a too-small budget the same way everywhere', async () => {
      await using engine = await createCtxgate();
      const files = projectFiles();
      const projectIndex = await engine.indexProject(files, { symbols, dependencies });
      const input = {
        ...baseInput(),
        projectIndex,
        tokenBudget: { provider: 't', model: 't', maxInputTokens: 50, maxOutputTokens: 10, responseTokenReserve: 0, softLimitThresholdPct: 80 },
      } as BuildContextInput;
      const error = await rejection(buildContext(input, { contents: contentsOf(files), engine }));
      expect(isCtxgateError(error, 'CONTEXT_TOO_LARGE')).toBe(true);
      expect((error as { details: { budgetReport: unknown } }).details.budgetReport).toEqual(golden.refusalBudgetReport);
    });

    it('indexProject refuses a text holding a lone surrogate (it would hash as a different text), as buildContext does', async () => {
      await using engine = await createCtxgate();
      for (const index of [(files: Parameters<typeof indexProject>[0]) => indexProject(files, { engine }), (files: Parameters<typeof engine.indexProject>[0]) => engine.indexProject(files)]) {
        const error = await rejection(index([{ path: 'a.ts', text: 'ok' }, { path: 'b.ts', text: 'x\uD800y' }]));
        expect(isCtxgateError(error, 'UNSUPPORTED_VALUE')).toBe(true);
        expect((error as Error).message).toBe('files[1].text: a lone surrogate (U+D800) at index 1 is not valid Unicode, and would be hashed as U+FFFD; pass the text as valid UTF-16, or the file\'s bytes as a Uint8Array.');
        expect((error as { details: unknown }).details).toEqual({ field: 'files[1].text', index: 1 });
      }
      // A never-send file's text is not looked at, so it is indexed as excluded.
      const denied = await indexProject([{ path: '.env', text: 'K=\uDC00' }], { engine });
      expect(denied.files[0]).toMatchObject({ path: '.env', excluded: 'deny_rule' });
    });

    it("a refusal's list of largest blocks masks a file name that reads as a token, as its message does", async () => {
      await using engine = await createCtxgate();
      const path = `keys/${FAKE_GITHUB_TOKEN}.txt`;
      const files = [{ path, bytes: new TextEncoder().encode('one line of notes\n'.repeat(40)) }];
      const projectIndex = await engine.indexProject(files);
      const input = {
        ...baseInput(),
        planStep: { id: 's', targetFiles: [path] },
        projectIndex,
        tokenBudget: { provider: 't', model: 't', maxInputTokens: 60, maxOutputTokens: 10, responseTokenReserve: 0, softLimitThresholdPct: 80 },
      } as BuildContextInput;
      const error = await rejection(buildContext(input, { contents: contentsOf(files), engine }));
      expect(isCtxgateError(error, 'CONTEXT_TOO_LARGE')).toBe(true);
      const largest = (error as { details: { largestBlocks: { title: string }[] } }).details.largestBlocks;
      expect(largest[0]!.title).toBe('keys/[REDACTED:github-pat:1].txt');
      expect((error as Error).message).toContain('The largest required block is keys/[REDACTED:github-pat:1].txt (');
      expect(JSON.stringify(serializeError(error))).not.toContain(FAKE_GITHUB_TOKEN);
    });
  });
}
