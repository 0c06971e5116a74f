import { transfer } from 'comlink';
import { sharedEngine } from '../ctxgate.ts';
import type { Engine } from '../worker/engine.ts';
import { filesFromDirectoryHandle, filesFromFileList, type DirectoryHandleLike } from './browser-files.ts';
import type { IndexExtras, ProjectFile } from './project-index.ts';
import type { BuildContextInput, ProjectIndex } from './types.ts';

/** What {@link indexProject} accepts: files with bytes or text, browser Files, or a directory handle. */
export type ProjectSource = readonly ProjectFile[] | Iterable<File> | ArrayLike<File> | DirectoryHandleLike;

/** Options of {@link indexProject}. */
export interface IndexProjectOptions extends IndexExtras {
  /** Deny/allow rules on top of the never-send defaults. */
  sandbox?: BuildContextInput['sandbox'];
  /** The engine to run on; the shared engine by default. */
  engine?: Engine;
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
  const owned = isDirectoryHandle(source) || !isProjectFileList(source) ? files.flatMap((f) => (f.bytes ? [f.bytes.buffer as ArrayBuffer] : [])) : [];
  return engine.indexProject(transfer(files, owned), extras, options.sandbox);
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
