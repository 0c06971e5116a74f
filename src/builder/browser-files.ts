// Browser input for indexProject: files from <input type=file webkitdirectory>, drag and drop, or
// a FileSystemDirectoryHandle from showDirectoryPicker(). Plain DOM APIs; nothing runs at import.
import { createPathGate, type PathGate } from '../secrets/paths.ts';
import { enterDirectory, gitIgnored, gitignoresByDir, inGitDir, treeIgnored, withGitignore, type GitignoreLevel } from './gitignore.ts';
import type { ProjectFile } from './project-index.ts';

/** Minimal shape of the File System Access API's directory handle (typed here, not in every lib). */
export interface DirectoryHandleLike {
  readonly kind: 'directory';
  readonly name: string;
  values(): AsyncIterable<DirectoryHandleLike | FileHandleLike>;
}
/** Minimal shape of a file handle. */
export interface FileHandleLike {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<File>;
}

/** Options of the browser readers: the same deny/allow rules and .gitignore switch as `ctxgate/fs`. */
export interface BrowserReadOptions {
  /** Deny/allow rules on top of the never-send defaults (as `indexProject`'s `sandbox`). */
  sandbox?: { deny?: readonly string[]; allow?: readonly string[] };
  /** Honour the tree's .gitignore files (default true). */
  gitignore?: boolean;
  /**
   * Match .gitignore patterns in any case, as git does with `core.ignoreCase=true` (set by git on
   * the case-insensitive file systems of macOS and Windows). Default false, git's default.
   */
  ignoreCase?: boolean;
}

/**
 * Each File's project-relative path: its `webkitRelativePath` (else its name), less the picked
 * folder's own name when every path starts with the same one; `root` is that name ('' if none).
 * Internal (the playground keys its own reads by the same paths).
 */
export function projectRelativePaths(files: readonly File[]): { paths: string[]; root: string } {
  const rel = files.map((f) => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name);
  const roots = new Set(rel.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const root = roots.size === 1 && !roots.has('') ? [...roots][0]! : '';
  const strip = root ? root.length + 1 : 0;
  return { paths: rel.map((p) => p.slice(strip)), root };
}

/**
 * Reads `File`s (their `webkitRelativePath` when a folder was picked, else the name). As the
 * Node/Deno walker does: files the tree's .gitignore files exclude, and anything in a `.git`
 * directory, are left out; files the deny rules never send are listed with their size only, their
 * content not read.
 */
export async function filesFromFileList(files: Iterable<File> | ArrayLike<File>, options: BrowserReadOptions = {}): Promise<ProjectFile[]> {
  const list = Array.from(files as ArrayLike<File>);
  const { paths } = projectRelativePaths(list);
  const keep = list.map((_, i) => !inGitDir(paths[i]!));
  if (options.gitignore !== false) {
    const ignores = list.flatMap((f, i) => (keep[i] && (paths[i] === '.gitignore' || paths[i]!.endsWith('/.gitignore')) ? [{ f, path: paths[i]! }] : []));
    const byDir = gitignoresByDir(await Promise.all(ignores.map(async ({ f, path }) => ({ path, text: await f.text() }))), options.ignoreCase ?? false);
    if (byDir.size > 0) {
      const ignored = treeIgnored(byDir);
      paths.forEach((p, i) => (keep[i] = keep[i]! && !ignored(p)));
    }
  }
  const gate = createPathGate(options.sandbox ?? {});
  const out: Promise<ProjectFile>[] = [];
  list.forEach((f, i) => {
    if (!keep[i]) return;
    const path = paths[i]!;
    out.push(isNeverSent(gate, path) ? Promise.resolve({ path, byteSize: f.size }) : f.arrayBuffer().then((b) => ({ path, bytes: new Uint8Array(b) })));
  });
  return Promise.all(out);
}

/**
 * Reads a directory handle recursively, in name order, as the Node/Deno walker reads a directory:
 * `.git` is skipped, .gitignore files are honoured (git's precedence; an ignored directory is not
 * entered), and files the deny rules never send are listed with their size only, their content not
 * read.
 */
export async function filesFromDirectoryHandle(root: DirectoryHandleLike, options: BrowserReadOptions = {}): Promise<ProjectFile[]> {
  const gate = createPathGate(options.sandbox ?? {});
  const out: ProjectFile[] = [];
  const walk = async (dir: DirectoryHandleLike, prefix: string, levels: readonly GitignoreLevel[]): Promise<void> => {
    const children: (DirectoryHandleLike | FileHandleLike)[] = [];
    for await (const child of dir.values()) children.push(child);
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    let here = levels;
    const own = options.gitignore !== false ? children.find((c): c is FileHandleLike => c.kind === 'file' && c.name === '.gitignore') : undefined;
    if (own) here = withGitignore(levels, prefix, await (await own.getFile()).text(), options.ignoreCase ?? false);
    for (const child of children) {
      if (child.name === '.git') continue;
      const path = prefix ? `${prefix}/${child.name}` : child.name;
      if (gitIgnored(here, path, child.kind === 'directory')) continue;
      if (child.kind === 'directory') await walk(child, path, enterDirectory(here, path));
      else {
        const file = await child.getFile();
        out.push(isNeverSent(gate, path) ? { path, byteSize: file.size } : { path, bytes: new Uint8Array(await file.arrayBuffer()) });
      }
    }
  };
  await walk(root, '', []);
  return out;
}

/** A path the deny rules exclude (a path outside the jail is left to the indexer to report). */
function isNeverSent(gate: PathGate, path: string): boolean {
  const d = gate.check(path);
  return !d.allowed && d.reason === 'deny_rule';
}
