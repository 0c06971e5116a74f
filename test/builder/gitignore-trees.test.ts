// Every walker against git: for random trees with nested .gitignore files, the Node/Deno walker,
// the browser's picked-folder reader (Files) and its directory-handle reader must list exactly the
// files `git ls-files --others --exclude-standard` lists, read exactly those the deny rules send,
// and list the rest with their size only. Node only: it runs the git binary.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { filesFromDirectoryHandle, filesFromFileList, type DirectoryHandleLike, type FileHandleLike } from '../../src/builder/browser-files.ts';
import type { ProjectFile } from '../../src/builder/project-index.ts';
import { readProjectFiles } from '../../src/fs/walk.ts';
import { createPathGate } from '../../src/secrets/paths.ts';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function onDisk(files: ReadonlyMap<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'ctxgate-trees-'));
  roots.push(root);
  for (const [path, text] of files) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** What git lists as untracked and not ignored (nothing is tracked: all of the tree). */
function gitListed(root: string, ignoreCase: boolean): string[] {
  expect(spawnSync('git', ['init', '-q', root]).status).toBe(0);
  const run = spawnSync('git', ['-C', root, '-c', `core.ignoreCase=${ignoreCase}`, '-c', 'core.excludesFile=/dev/null', 'ls-files', '--others', '--exclude-standard', '-z']);
  expect(run.status).toBe(0);
  return run.stdout.toString('utf8').split('\0').filter(Boolean).sort();
}

/** The picked-folder form: Files whose webkitRelativePath starts with the folder's name. */
function pickedFolder(files: ReadonlyMap<string, string>): File[] {
  return [...files].map(([path, text]) => Object.defineProperty(new File([text], path.split('/').pop()!), 'webkitRelativePath', { value: `picked/${path}` }));
}

/** The File System Access form: nested directory handles over the same files. */
function handleTree(files: ReadonlyMap<string, string>): DirectoryHandleLike {
  type Dir = { kind: 'directory'; name: string; entries: Map<string, Dir | FileHandleLike> };
  const top: Dir = { kind: 'directory', name: 'picked', entries: new Map() };
  for (const [path, text] of files) {
    const parts = path.split('/');
    let dir = top;
    for (const part of parts.slice(0, -1)) {
      let next = dir.entries.get(part) as Dir | undefined;
      if (!next) dir.entries.set(part, (next = { kind: 'directory', name: part, entries: new Map() }));
      dir = next;
    }
    const name = parts[parts.length - 1]!;
    dir.entries.set(name, { kind: 'file', name, getFile: async () => new File([text], name) });
  }
  const asHandle = (d: Dir): DirectoryHandleLike => ({
    kind: 'directory',
    name: d.name,
    // Unsorted on purpose (insertion order reversed): the reader must sort.
    async *values() {
      for (const e of [...d.entries.values()].reverse()) yield e.kind === 'directory' ? asHandle(e as Dir) : (e as FileHandleLike);
    },
  });
  return asHandle(top);
}

/** path → its content, or `unread:<size>` for a file listed without its content. */
function shown(list: readonly ProjectFile[]): string[] {
  return list.map((f) => `${f.path} ${f.bytes ? new TextDecoder().decode(f.bytes) : `unread:${f.byteSize}`}`).sort();
}

async function compare(files: ReadonlyMap<string, string>, deny: string[] = [], ignoreCase = false): Promise<void> {
  const root = onDisk(files);
  const git = gitListed(root, ignoreCase);
  const gate = createPathGate({ deny });
  const expected = git.map((p) => {
    const d = gate.check(p);
    const text = readFileSync(join(root, p), 'utf8');
    return `${p} ${d.allowed ? text : `unread:${Buffer.byteLength(text)}`}`;
  });
  // git lists nothing inside .git; none of the walkers may either.
  expect(shown(await readProjectFiles(root, { deny, ignoreCase }))).toEqual(expected.sort());
  expect(shown(await filesFromFileList(pickedFolder(files), { sandbox: { deny }, ignoreCase }))).toEqual(expected);
  expect(shown(await filesFromDirectoryHandle(handleTree(files), { sandbox: { deny }, ignoreCase }))).toEqual(expected);
}

describe('walkers vs git ls-files --exclude-standard', () => {
  it('a fixed tree: nested .gitignore files, negations, ignored directories, never-send files', async () => {
    await compare(
      new Map([
        ['.gitignore', 'dist/\n*.log\n!keep.log\nbuild\n/root-only.txt\n'],
        ['src/a.ts', 'a'],
        ['src/b.log', 'b'],
        ['src/keep.log', 'k'],
        ['src/gen/.gitignore', '*\n!wanted.ts\n'],
        ['src/gen/skip.ts', 's'],
        ['src/gen/wanted.ts', 'w'],
        ['dist/out.js', 'o'],
        ['dist/.gitignore', '!out.js\n'],
        ['lib/build/x.js', 'x'],
        ['root-only.txt', 'r'],
        ['src/root-only.txt', 'nested'],
        ['.env', 'SECRET=1'],
        ['.env.local', 'SECRET=2'],
        ['.env.example', 'SECRET='],
        ['certs/server.pem', 'pem'],
        ['node_modules/m/index.js', 'm'],
        ['.git/config', '[core]'],
        ['sub/.git/HEAD', 'ref'],
      ]),
    );
  });

  it('a directory a deeper .gitignore re-includes: the files in it are listed', async () => {
    // The root ignores every *.log, directories too; src/.gitignore re-includes keep.log. Git lists
    // src/out/keep.log/a: each level matches the path itself, the walk settles the parents. (The
    // property found this: the root's level went on excluding everything below keep.log.)
    await compare(
      new Map([
        ['.gitignore', '*.log\n'],
        ['src/.gitignore', '!keep.log\n'],
        ['src/out/keep.log/a', 'a'],
        ['src/out/keep.log/b.log', 'b'],
        ['src/out/other.log/c', 'c'],
        ['lib/keep.log/d', 'd'],
        // A directory name with glob characters, re-included the same way.
        ['docs/.gitignore', '!*.log\n'],
        ['docs/gen[1] *?.log/e.log', 'e'],
        ['docs/gen[1] *?.log/f', 'f'],
      ]),
    );
  });

  it('.gitignore patterns match in git\'s case: exactly by default, in any case with ignoreCase', async () => {
    const files = new Map([
      ['.gitignore', 'Build/\n*.LOG\n!Keep.log\n'],
      ['build/a.js', 'a'],
      ['Build/b.js', 'b'],
      ['x.log', 'x'],
      ['y.LOG', 'y'],
      ['keep.LOG', 'k'],
      ['src/Z.Log', 'z'],
    ]);
    await compare(files);
    await compare(files, [], true);
    // The two differ, so each comparison can fail on its own: by default build/a.js, x.log and
    // src/Z.Log are listed and keep.LOG is not (!Keep.log does not name it); in any case, the reverse.
    const root = onDisk(files);
    const listed = async (ignoreCase: boolean) => (await readProjectFiles(root, { ignoreCase })).map((f) => f.path).sort();
    expect(await listed(false)).toEqual(['.gitignore', 'build/a.js', 'src/Z.Log', 'x.log']);
    expect(await listed(true)).toEqual(['.gitignore', 'keep.LOG']);
  });

  it('random trees with random .gitignore files (property)', async () => {
    // Few names, so that files often sit in the directories the rules and .gitignore files name;
    // some differ from a rule only in case.
    const seg = fc.constantFrom('a', 'b', 'src', 'dist', 'x.log', 'keep.log', 'k.ts', '.env', 'deep', 'Dist', 'X.LOG', 'K.TS', 'A');
    const rule = fc.constantFrom('*.log', '!keep.log', 'dist/', '/a', 'a', 'b/', '!b/k.ts', 'src/**', '!src/', 'deep/*', '*', '!*.ts', 'logs', '**/x.log', '!dist/', 'DIST/', '!*.TS', '*.Log');
    // .gitignore files go in directories the tree has, so deeper files meet rules of several levels.
    const tree = fc.array(fc.array(seg, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 25 }).chain((paths) => {
      const dirs = ['', ...new Set(paths.flatMap((segs) => segs.slice(0, -1).map((_, i) => segs.slice(0, i + 1).join('/'))))];
      return fc.tuple(fc.constant(paths), fc.array(fc.tuple(fc.constantFrom(...dirs), fc.array(rule, { minLength: 1, maxLength: 4 })), { maxLength: 4 }));
    });
    await fc.assert(
      fc.asyncProperty(tree, fc.boolean(), async ([paths, ignores], ignoreCase) => {
        const files = new Map<string, string>();
        paths.forEach((segs, i) => files.set(segs.join('/'), `file ${i}`));
        for (const [dir, rules] of ignores) files.set(dir ? `${dir}/.gitignore` : '.gitignore', rules.join('\n') + '\n');
        // A name is a file or a directory, not both.
        for (const p of [...files.keys()]) if ([...files.keys()].some((q) => q.startsWith(p + '/'))) files.delete(p);
        await compare(files, ['deep/'], ignoreCase);
      }),
      { numRuns: 150 },
    );
  }, 120_000);
});
