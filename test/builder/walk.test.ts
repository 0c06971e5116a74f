import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isCtxgateError } from '../../src/errors.ts';
import { projectFileReader, readProjectFiles } from '../../src/fs/walk.ts';

// Every tree made here is removed when the file's tests end, so runs leave nothing in the temp dir.
const made: string[] = [];
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'ctxgate-walk-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

describe('readProjectFiles (Node/Deno directory walker)', () => {
  it('honours nested .gitignore files with git precedence, skips .git, lists never-send files unread', async () => {
    const root = tree({
      '.gitignore': 'dist/\n*.log\n!keep.log\n',
      'src/a.ts': 'a',
      'src/b.log': 'b',
      'src/keep.log': 'k',
      'src/gen/.gitignore': '*\n!wanted.ts\n',
      'src/gen/skip.ts': 's',
      'src/gen/wanted.ts': 'w',
      'dist/out.js': 'o',
      '.git/config': 'x',
      '.env': 'SECRET=1',
      'certs/server.pem': 'pem',
    });
    const files = await readProjectFiles(root);
    const listed = files.map((f) => [f.path, f.bytes ? new TextDecoder().decode(f.bytes) : `unread:${f.byteSize}`]);
    expect(listed).toEqual([
      ['.env', 'unread:8'],
      ['.gitignore', 'dist/\n*.log\n!keep.log\n'],
      ['certs/server.pem', 'unread:3'],
      ['src/a.ts', 'a'],
      // `*` in src/gen/.gitignore matches that .gitignore too, as in git
      ['src/gen/wanted.ts', 'w'],
      ['src/keep.log', 'k'],
    ]);
  });

  it('extra deny rules and allow rules apply; gitignore can be turned off', async () => {
    const root = tree({ 'a.ts': 'a', 'secret/b.ts': 'b', 'c.log': 'c', '.gitignore': '*.log\n' });
    const files = await readProjectFiles(root, { deny: ['secret/'], gitignore: false });
    expect(files.map((f) => [f.path, f.bytes !== undefined])).toEqual([
      ['.gitignore', true],
      ['a.ts', true],
      ['c.log', true],
      ['secret/b.ts', false],
    ]);
  });

  it('does not follow symbolic links out of the tree', async () => {
    const outside = tree({ 'private.txt': 'outside' });
    const root = tree({ 'a.ts': 'a' });
    symlinkSync(join(outside, 'private.txt'), join(root, 'link.txt'));
    symlinkSync(outside, join(root, 'linkdir'));
    expect((await readProjectFiles(root)).map((f) => f.path)).toEqual(['a.ts']);
  });

  it('refuses a root with more files than maxFiles', async () => {
    const root = tree({ 'a.ts': 'a', 'b.ts': 'b', 'c.ts': 'c' });
    const e = await readProjectFiles(root, { maxFiles: 2 }).catch((x: unknown) => x);
    expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
  });

  it('refuses an ignoreCase that is not a boolean, before reading anything', async () => {
    const root = tree({ 'a.ts': 'a' });
    const e = await readProjectFiles(root, { ignoreCase: 'yes' as never }).catch((x: unknown) => x);
    expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
    expect((e as Error).message).toContain('options.ignoreCase');
  });
});

describe('projectFileReader (jailed)', () => {
  it('reads project paths and refuses escapes: .., absolute, links out of the tree', async () => {
    const outside = tree({ 'private.txt': 'outside' });
    const root = tree({ 'src/a.ts': 'hello' });
    symlinkSync(join(outside, 'private.txt'), join(root, 'src/link.txt'));
    const read = projectFileReader(root);
    expect(new TextDecoder().decode(await read('src/a.ts'))).toBe('hello');
    for (const bad of ['../x', '/etc/passwd', 'src/../../x', 'src\\..\\..\\x', 'src/link.txt']) {
      const e = await read(bad).catch((x: unknown) => x);
      expect([bad, isCtxgateError(e, 'OUTSIDE_SANDBOX')]).toEqual([bad, true]);
    }
  });
});
