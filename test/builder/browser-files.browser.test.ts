import { describe, expect, it } from 'vitest';
import { createCtxgate, indexProject } from '../../src/index.ts';
import { filesFromDirectoryHandle, filesFromFileList } from '../../src/builder/browser-files.ts';

describe('browser file input (chromium)', () => {
  it('indexes a real FileSystemDirectoryHandle (origin private file system) through the worker', async () => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(`ctxgate-test-${Date.now()}`, { create: true });
    const write = async (parent: FileSystemDirectoryHandle, name: string, text: string) => {
      const w = await (await parent.getFileHandle(name, { create: true })).createWritable();
      await w.write(text);
      await w.close();
    };
    const src = await dir.getDirectoryHandle('src', { create: true });
    await write(src, 'b.ts', 'export const b = 2;\n');
    await write(src, 'a.ts', 'export const a = 1;\n');
    await write(dir, '.env', 'TOKEN=abc\n');
    await write(dir, '.gitignore', 'dist/\n');
    await write(await dir.getDirectoryHandle('dist', { create: true }), 'out.js', 'built\n');
    await write(await (await dir.getDirectoryHandle('node_modules', { create: true })).getDirectoryHandle('m', { create: true }), 'i.js', 'module\n');
    const files = await filesFromDirectoryHandle(dir as unknown as Parameters<typeof filesFromDirectoryHandle>[0]);
    // dist/ is ignored by .gitignore; never-send files are listed with their size, not read.
    const shown = (list: typeof files) => list.map((f) => [f.path, f.bytes ? new TextDecoder().decode(f.bytes) : `unread:${f.byteSize}`]);
    expect(shown(files)).toEqual([
      ['.env', 'unread:10'],
      ['.gitignore', 'dist/\n'],
      ['node_modules/m/i.js', 'unread:7'],
      ['src/a.ts', 'export const a = 1;\n'],
      ['src/b.ts', 'export const b = 2;\n'],
    ]);
    const unignored = await filesFromDirectoryHandle(dir as unknown as Parameters<typeof filesFromDirectoryHandle>[0], { gitignore: false, sandbox: { allow: ['.env'] } });
    expect(shown(unignored).map(([p, c]) => `${p} ${c}`)).toEqual(['.env TOKEN=abc\n', '.gitignore dist/\n', 'dist/out.js built\n', 'node_modules/m/i.js unread:7', 'src/a.ts export const a = 1;\n', 'src/b.ts export const b = 2;\n']);
    await using engine = await createCtxgate();
    expect(engine.mode).toBe('worker');
    const index = await indexProject(dir as unknown as Parameters<typeof indexProject>[0], { engine });
    expect(index.files.map((f) => [f.path, f.excluded ?? null, f.byteSize])).toEqual([
      ['.env', 'deny_rule', 10],
      ['.gitignore', null, 6],
      ['node_modules/m/i.js', 'deny_rule', 7],
      ['src/a.ts', null, 20],
      ['src/b.ts', null, 20],
    ]);
    await root.removeEntry(dir.name, { recursive: true });
  });

  it('a directory handle: .gitignore in git\'s case by default or in any case; credential files in any case', async () => {
    const root = await navigator.storage.getDirectory();
    const dir = await root.getDirectoryHandle(`ctxgate-case-${Date.now()}`, { create: true });
    for (const [name, text] of [['.gitignore', '*.LOG\n'], ['a.log', 'a\n'], ['b.LOG', 'b\n'], ['Key.PEM', 'pem\n']]) {
      const w = await (await dir.getFileHandle(name!, { create: true })).createWritable();
      await w.write(text!);
      await w.close();
    }
    const handle = dir as unknown as Parameters<typeof filesFromDirectoryHandle>[0];
    const shown = (list: Awaited<ReturnType<typeof filesFromDirectoryHandle>>) => list.map((f) => `${f.path} ${f.bytes ? 'read' : `unread:${f.byteSize}`}`);
    expect(shown(await filesFromDirectoryHandle(handle))).toEqual(['.gitignore read', 'Key.PEM unread:4', 'a.log read']);
    expect(shown(await filesFromDirectoryHandle(handle, { ignoreCase: true }))).toEqual(['.gitignore read', 'Key.PEM unread:4']);
    await root.removeEntry(dir.name, { recursive: true });
  });

  it('strips the picked folder name from webkitRelativePath-style paths', async () => {
    const file = (name: string, rel: string) => Object.defineProperty(new File(['x'], name), 'webkitRelativePath', { value: rel });
    const files = await filesFromFileList([file('a.ts', 'proj/src/a.ts'), file('b.md', 'proj/b.md')]);
    expect(files.map((f) => f.path)).toEqual(['src/a.ts', 'b.md']);
    const loose = await filesFromFileList([new File(['y'], 'one.ts')]);
    expect(loose.map((f) => f.path)).toEqual(['one.ts']);
    // A picked folder honours its .gitignore files and skips .git; never-send files are not read.
    const picked = await filesFromFileList([
      file('.gitignore', 'proj/.gitignore'),
      file('HEAD', 'proj/.git/HEAD'),
      file('x.log', 'proj/logs/x.log'),
      file('.env.local', 'proj/.env.local'),
      file('a.ts', 'proj/src/a.ts'),
    ].map((f, i) => (i === 0 ? Object.defineProperty(new File(['logs/\n'], '.gitignore'), 'webkitRelativePath', { value: 'proj/.gitignore' }) : f)));
    expect(picked.map((f) => [f.path, f.bytes ? 'read' : `unread:${f.byteSize}`])).toEqual([
      ['.gitignore', 'read'],
      ['.env.local', 'unread:1'],
      ['src/a.ts', 'read'],
    ]);
  });
});
