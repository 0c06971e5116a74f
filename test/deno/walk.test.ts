// The Node/Deno walker in Deno (through its node: compatibility), and a whole bundle built from a
// directory on disk.
import { expect } from 'expect';
import { readProjectFiles, projectFileReader } from '../../src/fs/walk.ts';
import { buildContext, createCtxgate } from '../../src/index.ts';

Deno.test('readProjectFiles + projectFileReader in Deno build a bundle from disk', async () => {
  const root = await Deno.makeTempDir();
  try {
    await Deno.mkdir(`${root}/src`);
    await Deno.writeTextFile(`${root}/.gitignore`, 'build/\n');
    await Deno.writeTextFile(`${root}/src/a.ts`, 'export const a = 1;\n');
    await Deno.mkdir(`${root}/build`);
    await Deno.writeTextFile(`${root}/build/out.js`, 'x');
    await Deno.writeTextFile(`${root}/.env`, 'TOKEN=abc');
    const files = await readProjectFiles(root);
    expect(files.map((f) => [f.path, f.bytes !== undefined])).toEqual([
      ['.env', false],
      ['.gitignore', true],
      ['src/a.ts', true],
    ]);
    await using engine = await createCtxgate();
    expect(engine.mode).toBe('worker');
    const projectIndex = await engine.indexProject(files);
    const result = await buildContext(
      {
        purpose: 'diff',
        intent: null,
        planStep: { id: 's', targetFiles: ['src/a.ts'] },
        projectIndex,
        constraints: {},
        tokenBudget: { provider: 't', model: 't', maxInputTokens: 10_000, maxOutputTokens: 100, responseTokenReserve: 100, softLimitThresholdPct: 80 },
        createdAt: '2026-01-01T00:00:00.000Z',
      },
      { readFile: projectFileReader(root), engine },
    );
    expect(result.bundle.blocks.find((b) => b.blockType === 'file')?.content).toBe('export const a = 1;\n');
    const e = await projectFileReader(root)('../etc/passwd').catch((x: unknown) => x);
    expect((e as { code: string }).code).toBe('OUTSIDE_SANDBOX');
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
