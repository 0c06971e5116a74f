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
    const files = await filesFromDirectoryHandle(dir as unknown as Parameters<typeof filesFromDirectoryHandle>[0]);
    expect(files.map((f) => f.path)).toEqual(['.env', 'src/a.ts', 'src/b.ts']);
    await using engine = await createCtxgate();
    expect(engine.mode).toBe('worker');
    const index = await indexProject(dir as unknown as Parameters<typeof indexProject>[0], { engine });
    expect(index.files.map((f) => [f.path, f.excluded ?? null, f.byteSize])).toEqual([
      ['.env', 'deny_rule', 10],
      ['src/a.ts', null, 20],
      ['src/b.ts', null, 20],
    ]);
    await root.removeEntry(dir.name, { recursive: true });
  });

  it('strips the picked folder name from webkitRelativePath-style paths', async () => {
    const file = (name: string, rel: string) => Object.defineProperty(new File(['x'], name), 'webkitRelativePath', { value: rel });
    const files = await filesFromFileList([file('a.ts', 'proj/src/a.ts'), file('b.md', 'proj/b.md')]);
    expect(files.map((f) => f.path)).toEqual(['src/a.ts', 'b.md']);
    const loose = await filesFromFileList([new File(['y'], 'one.ts')]);
    expect(loose.map((f) => f.path)).toEqual(['one.ts']);
  });
});
