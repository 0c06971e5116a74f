import { transfer } from 'comlink';
import { expectMethods, expectObject, expectOptionalArray, expectOptionalNumber, expectOptions, wrongKind } from '../args.ts';
import { sharedEngine } from '../ctxgate.ts';
import { CtxgateError, invalidParams, isCtxgateError, isDataCloneError } from '../errors.ts';
import { checkIndexExtras } from './schema.ts';
import type { Engine } from '../worker/engine.ts';
import { filesFromDirectoryHandle, filesFromFileList, type BrowserReadOptions, type DirectoryHandleLike } from './browser-files.ts';
import { checkDuplicatePaths, checkProjectFile, projectIndexIdentity, type IndexExtras, type ProjectFile } from './project-index.ts';
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
  /**
   * For Files and directory handles: honour the tree's .gitignore files, leaving out what they
   * exclude (default true). A list of `{ path, bytes | text }` is indexed as given.
   */
  gitignore?: boolean;
  /**
   * For Files and directory handles: match the tree's .gitignore patterns in any case, as git does
   * with `core.ignoreCase=true` on macOS and Windows checkouts (default false, git's default).
   */
  ignoreCase?: boolean;
}

/**
 * Indexes a project: normalised paths, sizes, SHA-256 hashes and encodings (binary and never-send
 * files marked excluded; from Files or a directory handle, never-send files are not read and what
 * the tree's .gitignore files exclude is left out), the symbols and dependency edges your indexer provides, and the
 * `projectIndexFingerprint`. All contents go to the engine in one transfer and are hashed in one
 * call into the core. For a directory on disk in Node or Deno, use `readProjectFiles` from
 * `ctxgate/fs` first: a path string is not read here (INVALID_PARAMS).
 *
 * Errors: `source` or `options` of the wrong kind is INVALID_PARAMS naming the field (`source`,
 * `source[3].path`, `options.batchBytes`, …), checked in the caller's thread before anything goes
 * to the engine; so is a symbol or edge the builder would refuse (`options.symbols[2].startLine`),
 * or one holding what is not JSON data (a function, a Date: `options.symbols[2].render`); so is a
 * list in which two files have the same path after normalisation (`a.ts` and `./a.ts`):
 * INVALID_PARAMS naming the path and both indexes, never one kept silently. A File or directory
 * handle that cannot be read is READ_FAILED (with the cause).
 */
export async function indexProject(source: ProjectSource, options: IndexProjectOptions = {}): Promise<ProjectIndex> {
  checkOptions(options);
  const files = await toProjectFiles(source, { sandbox: options.sandbox, gitignore: options.gitignore, ignoreCase: options.ignoreCase });
  // A list was checked as `source`; what was read from Files or a handle is checked here, before
  // batching could split two files of one path between batches.
  const ours = isDirectoryHandle(source) || !isProjectFileList(source);
  if (ours) checkDuplicatePaths(files, 'files');
  const engine = options.engine ?? (await sharedEngine());
  const extras: IndexExtras = { symbols: options.symbols ?? [], dependencies: options.dependencies ?? [] };
  // The byte arrays read here are ours, so they are transferred rather than copied.
  const ownedOf = (list: readonly ProjectFile[]): ArrayBuffer[] => (ours ? list.flatMap((f) => (f.bytes ? [f.bytes.buffer as ArrayBuffer] : [])) : []);
  if (!options.onProgress) return sent(engine.indexProject(transfer(files, ownedOf(files)), extras, options.sandbox));

  // Batched: each batch is indexed in the engine (paths are unique, checked above); the
  // fingerprint is taken once over the merged index.
  const limit = options.batchBytes ?? 8 * 1024 * 1024;
  const merged = new Map<string, ProjectIndex['files'][number]>();
  let start = 0;
  while (start < files.length) {
    let end = start;
    let bytes = 0;
    while (end < files.length && (end === start || bytes + sizeOf(files[end]!) <= limit)) bytes += sizeOf(files[end++]!);
    const batch = files.slice(start, end);
    const part = await sent(engine.indexProject(transfer(batch, ownedOf(batch)), { symbols: [], dependencies: [] }, options.sandbox));
    for (const f of part.files) if (!merged.has(f.path)) merged.set(f.path, f);
    start = end;
    options.onProgress(start, files.length);
  }
  const index: ProjectIndex = {
    files: [...merged.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)),
    symbols: extras.symbols ?? [],
    dependencies: extras.dependencies ?? [],
  };
  index.projectIndexFingerprint = await sent(engine.fingerprint(projectIndexIdentity(index)));
  return index;
}

/**
 * An engine call whose arguments failed to reach a worker: a DataCloneError (a function or a
 * symbol somewhere in the files, the symbols or the edges) becomes INVALID_PARAMS.
 */
async function sent<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (isDataCloneError(error)) {
      // Only the files can carry one: the symbols and edges of `options` were checked to be JSON
      // data before anything was sent (checkIndexExtras).
      throw new CtxgateError('INVALID_PARAMS', 'source: the files hold a value that cannot be sent to the worker (a function, a symbol, a class instance); pass plain data.', {
        details: { field: 'source', expected: 'plain data' },
        cause: error,
      });
    }
    throw error;
  }
}

/** INVALID_PARAMS unless `options` and the members indexProject reads have the right kinds. */
function checkOptions(options: unknown): asserts options is IndexProjectOptions {
  expectOptions(options);
  const o = options ?? {};
  if (o.engine !== undefined) expectMethods(o.engine, 'options.engine', ['indexProject', 'fingerprint'], 'an engine from createCtxgate()');
  if (o.onProgress !== undefined && typeof o.onProgress !== 'function') {
    throw wrongKind('options.onProgress', 'a function', o.onProgress);
  }
  expectOptionalNumber(o.batchBytes, 'options.batchBytes');
  if (o.gitignore !== undefined && typeof o.gitignore !== 'boolean') throw wrongKind('options.gitignore', 'a boolean', o.gitignore);
  if (o.ignoreCase !== undefined && typeof o.ignoreCase !== 'boolean') throw wrongKind('options.ignoreCase', 'a boolean', o.ignoreCase);
  checkIndexExtras(o, 'options');
  const sandbox = o.sandbox;
  if (sandbox !== undefined) {
    expectObject(sandbox, 'options.sandbox');
    for (const name of ['deny', 'allow'] as const) {
      const list = sandbox[name];
      expectOptionalArray(list, `options.sandbox.${name}`);
      if (list) for (let i = 0; i < list.length; i++) if (typeof list[i] !== 'string') throw wrongKind(`options.sandbox.${name}[${i}]`, 'a string', list[i]);
    }
  }
}

function sizeOf(f: ProjectFile): number {
  return f.bytes?.byteLength ?? (f.text?.length ?? 0) * 3;
}

const SOURCE_KINDS = 'a list of { path, bytes | text }, Files or a directory handle';

/** The files of `source`, checked: each a ProjectFile, or each a File, or a directory handle. */
async function toProjectFiles(source: ProjectSource, reading: BrowserReadOptions): Promise<ProjectFile[]> {
  if (typeof source === 'string') {
    throw invalidParams(
      'source',
      `must be ${SOURCE_KINDS} (got a string). A directory on disk is not read here: in Node or Deno, read it with readProjectFiles from 'ctxgate/fs' and pass the result.`,
      { expected: SOURCE_KINDS, got: 'a string' },
    );
  }
  if (source === null || typeof source !== 'object') throw wrongKind('source', SOURCE_KINDS, source);
  if (isDirectoryHandle(source)) return read(() => filesFromDirectoryHandle(source, reading));
  if (isProjectFileList(source)) {
    for (let i = 0; i < source.length; i++) checkProjectFile(source[i], `source[${i}]`);
    checkDuplicatePaths(source, 'source');
    return [...source];
  }
  const list = fileList(source);
  for (let i = 0; i < list.length; i++) {
    const f = list[i] as { arrayBuffer?: unknown; name?: unknown } | null;
    if (f === null || typeof f !== 'object' || typeof f.arrayBuffer !== 'function' || typeof f.name !== 'string') {
      throw wrongKind(`source[${i}]`, 'a File (or every item a { path, bytes | text })', f);
    }
  }
  return read(() => filesFromFileList(list as File[], reading));
}

/** The items of an iterable or array-like `source` (a FileList, a Set of Files); INVALID_PARAMS otherwise. */
function fileList(source: object): unknown[] {
  if (typeof (source as Iterable<unknown>)[Symbol.iterator] === 'function') return Array.from(source as Iterable<unknown>);
  const length = (source as ArrayLike<unknown>).length;
  if (typeof length === 'number' && Number.isInteger(length) && length >= 0 && length < 2 ** 32) return Array.from(source as ArrayLike<unknown>);
  throw wrongKind('source', SOURCE_KINDS, source);
}

/** Reads Files or a directory handle; a failure of the browser's file APIs is READ_FAILED. */
async function read(op: () => Promise<ProjectFile[]>): Promise<ProjectFile[]> {
  try {
    return await op();
  } catch (cause) {
    if (isCtxgateError(cause)) throw cause;
    const name = (cause as { name?: unknown } | null)?.name;
    throw new CtxgateError('READ_FAILED', `Could not read the project's files${typeof name === 'string' ? ` (${name})` : ''}; were they moved or is permission missing?`, {
      details: { field: 'source', ...(typeof name === 'string' ? { error: name } : {}) },
      cause,
    });
  }
}

function isDirectoryHandle(source: ProjectSource): source is DirectoryHandleLike {
  return typeof (source as DirectoryHandleLike).values === 'function' && (source as DirectoryHandleLike).kind === 'directory';
}

function isProjectFileList(source: ProjectSource): source is readonly ProjectFile[] {
  const first = (source as ArrayLike<unknown>)[0];
  return Array.isArray(source) && (source.length === 0 || (typeof first === 'object' && first !== null && typeof (first as ProjectFile).path === 'string' && !(typeof File !== 'undefined' && first instanceof File)));
}
