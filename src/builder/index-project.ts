import { transfer } from 'comlink';
import { sharedEngine } from '../ctxgate.ts';
import type { Engine } from '../worker/engine.ts';
import { filesFromDirectoryHandle, filesFromFileList, type DirectoryHandleLike } from './browser-files.ts';
import { projectIndexIdentity, type IndexExtras, type ProjectFile } from './project-index.ts';
import type { BuildContextInput, ProjectIndex } from './types.ts';

/** What {@link indexProject} accepts: files with bytes or text, browser Files, or a directory handle. */
export type ProjectSource = readonly ProjectFile[] | Iterable<File> | ArrayLike<File> | DirectoryHandleLike;

/** Options of {@link indexProject}. */
export interface IndexProjectOptions extends IndexExtras {
  /** Deny/allow rules on top of the never-send defaults. */
  sandbox?: BuildContextInput['sandbox'];
  /** The engine to run on; the shared engine by default. */
  engine?: Engine;
  /**
   * Called after each batch with the files indexed so far. With it, files go to the engine in
   * batches (of `batchBytes`), so a page can show progress on a large project.
   */
  onProgress?: (done: number, total: number) => void;
  /** Bytes per batch when `onProgress` is given (default 8 MiB). */
  batchBytes?: number;
}

/**
 * Indexes a project: normalised paths, sizes, SHA-256 hashes and encodings (binary and never-send
 * files marked excluded), the symbols and dependency edges your indexer provides, and the
 * `projectIndexFingerprint`. All contents go to the engine in one transfer and are hashed in one
 * call into the core. For a directory on disk in Node or Deno, use `readProjectFiles` from
 * `ctxgate/fs` first.
 */
export async function indexProject(source: ProjectSource, options: IndexProjectOptions = {}): Promise<ProjectIndex> {
  const files = await toProjectFiles(source);
  const engine = options.engine ?? (await sharedEngine());
  const extras: IndexExtras = { symbols: options.symbols ?? [], dependencies: options.dependencies ?? [] };
  // The byte arrays read here are ours, so they are transferred rather than copied.
  const ours = isDirectoryHandle(source) || !isProjectFileList(source);
  const ownedOf = (list: readonly ProjectFile[]): ArrayBuffer[] => (ours ? list.flatMap((f) => (f.bytes ? [f.bytes.buffer as ArrayBuffer] : [])) : []);
  if (!options.onProgress) return engine.indexProject(transfer(files, ownedOf(files)), extras, options.sandbox);

  // Batched: each batch is indexed in the engine; the first entry of a normalised path wins, as in
  // one call; the fingerprint is taken once over the merged index.
  const limit = options.batchBytes ?? 8 * 1024 * 1024;
  const merged = new Map<string, ProjectIndex['files'][number]>();
  let start = 0;
  while (start < files.length) {
    let end = start;
    let bytes = 0;
    while (end < files.length && (end === start || bytes + sizeOf(files[end]!) <= limit)) bytes += sizeOf(files[end++]!);
    const batch = files.slice(start, end);
    const part = await engine.indexProject(transfer(batch, ownedOf(batch)), { symbols: [], dependencies: [] }, options.sandbox);
    for (const f of part.files) if (!merged.has(f.path)) merged.set(f.path, f);
    start = end;
    options.onProgress(start, files.length);
  }
  const index: ProjectIndex = {
    files: [...merged.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    symbols: extras.symbols ?? [],
    dependencies: extras.dependencies ?? [],
  };
  index.projectIndexFingerprint = await engine.fingerprint(projectIndexIdentity(index));
  return index;
}

function sizeOf(f: ProjectFile): number {
  return f.bytes?.byteLength ?? (f.text?.length ?? 0) * 3;
}

async function toProjectFiles(source: ProjectSource): Promise<ProjectFile[]> {
  if (isDirectoryHandle(source)) return filesFromDirectoryHandle(source);
  if (isProjectFileList(source)) return [...source];
  return filesFromFileList(source as Iterable<File>);
}

function isDirectoryHandle(source: ProjectSource): source is DirectoryHandleLike {
  return typeof (source as DirectoryHandleLike).values === 'function' && (source as DirectoryHandleLike).kind === 'directory';
}

function isProjectFileList(source: ProjectSource): source is readonly ProjectFile[] {
  const first = (source as ArrayLike<unknown>)[0];
  return Array.isArray(source) && (source.length === 0 || (typeof first === 'object' && first !== null && typeof (first as ProjectFile).path === 'string' && !(typeof File !== 'undefined' && first instanceof File)));
}
