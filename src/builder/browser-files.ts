// Browser input for indexProject: files from <input type=file webkitdirectory>, drag and drop, or
// a FileSystemDirectoryHandle from showDirectoryPicker(). Plain DOM APIs; nothing runs at import.
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

/** Reads `File`s (their `webkitRelativePath` when a folder was picked, else the name). */
export async function filesFromFileList(files: Iterable<File> | ArrayLike<File>): Promise<ProjectFile[]> {
  const list = Array.from(files as ArrayLike<File>);
  // A picked folder's paths start with the folder's own name; drop it so paths are project-relative.
  const rel = list.map((f) => (f as File & { webkitRelativePath?: string }).webkitRelativePath || f.name);
  const roots = new Set(rel.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const strip = roots.size === 1 && !roots.has('') ? [...roots][0]!.length + 1 : 0;
  return Promise.all(list.map(async (f, i) => ({ path: rel[i]!.slice(strip), bytes: new Uint8Array(await f.arrayBuffer()) })));
}

/** Reads a directory handle recursively (skipping `.git`), in name order. */
export async function filesFromDirectoryHandle(root: DirectoryHandleLike): Promise<ProjectFile[]> {
  const out: ProjectFile[] = [];
  const walk = async (dir: DirectoryHandleLike, prefix: string): Promise<void> => {
    const children: (DirectoryHandleLike | FileHandleLike)[] = [];
    for await (const child of dir.values()) children.push(child);
    children.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const child of children) {
      if (child.name === '.git') continue;
      const path = prefix ? `${prefix}/${child.name}` : child.name;
      if (child.kind === 'directory') await walk(child, path);
      else out.push({ path, bytes: new Uint8Array(await (await child.getFile()).arrayBuffer()) });
    }
  };
  await walk(root, '');
  return out;
}
