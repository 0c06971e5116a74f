// Loading a project into the playground: from the sample, dropped files or folders, a folder
// input, or the File System Access API. Files and directories go to ctxgate's indexProject as
// they are, so the SDK decides what is read, as the README promises: what the tree's .gitignore
// files exclude is left out, never-send files are listed by size and never read. The page then
// reads again only the files the index lets through, by the index's normalised paths, for its toy
// indexer (page worker), the load-time secret scan (ctxgate's worker) and the builder's contents.
import {
  indexProject,
  normalizeProjectPath,
  type DependencyEdge,
  type DirectoryHandleLike,
  type Engine,
  type FileHandleLike,
  type IndexedFile,
  type IndexedSymbol,
  type ProjectIndex,
  type ProjectSource,
} from '../../src/index.ts';
import { projectRelativePaths } from '../../src/builder/browser-files.ts';
import { SCAN_MAX_BYTES, roleOf, type FileFacts } from './analyze.ts';
import { nextFrame } from './dom.ts';
import type { AnalyzerClient } from './workers.ts';

/** A project to load: what indexProject reads, and how to read one of its files again. */
export interface ProjectInput {
  name: string;
  source: ProjectSource;
  /** How many files were handed over, when the page knows (a walked directory says only after). */
  given?: number;
  /** The bytes of a file the index lists, by its index path; undefined if the SDK never opened it. */
  read(path: string): Promise<Uint8Array> | undefined;
  /** What the page did not hand to the SDK (`node_modules` folders), as a phrase; undefined: nothing. */
  notRead(): string | undefined;
  /** Calls `onFile` with the count of files opened so far, as the SDK opens them (walked directories only). */
  watch?(onFile: (opened: number) => void): void;
}

/** A loaded project. */
export interface LoadedProject {
  name: string;
  index: ProjectIndex;
  /** Bytes of the files that can be sent, by index path, handed to buildContext as `contents`. */
  contents: Map<string, Uint8Array>;
  /** Secret findings per file (count by confidence), from the load-time scan. */
  findings: Map<string, { high: number; medium: number }>;
  /** Files handed over that the index left out (.gitignore, `.git/`), when known. */
  leftOut?: number;
  /** What the page did not hand over (`node_modules`), as a phrase. */
  notRead?: string;
  /** Files that can be sent but were not scanned at load (over 1 MB, or not text). */
  unscanned: number;
  symbols: IndexedSymbol[];
  dependencies: DependencyEdge[];
}

/** Progress of a load. */
export interface LoadProgress {
  phase: 'reading' | 'indexing' | 'scanning' | 'linking' | 'done';
  done: number;
  total: number;
}

/** Bytes per indexProject batch: small enough that a project of a few MB reports progress. */
const INDEX_BATCH_BYTES = 1024 * 1024;
/** Files per analysis and scan round trip: amortises messaging, still reports progress. */
const BATCH = 64;

/** The path the index gives a file: normalised (NFC, no `./`), or as given when the jail refuses it. */
function indexPath(path: string): string {
  const n = normalizeProjectPath(path);
  return n.ok ? n.path : path;
}

const bytesOf = async (blob: Blob): Promise<Uint8Array> => new Uint8Array(await blob.arrayBuffer());
/** ProjectInput.read over the Files the page kept, by index path. */
const readFrom = (files: ReadonlyMap<string, File>) => (path: string): Promise<Uint8Array> | undefined => {
  const f = files.get(path);
  return f && bytesOf(f);
};

/**
 * Installed packages are not the project: `node_modules` directories are not handed to the SDK at
 * any depth (its never-send default covers only the root's), nor read.
 */
const SKIPPED_DIR = 'node_modules';
const inSkippedDir = (path: string): boolean => path.split('/').includes(SKIPPED_DIR);

/**
 * The sample: in-memory texts, indexed as given. A list's .gitignore is not applied (the SDK applies
 * one only to Files and directory handles); the sample's ignores what it does not hold, and its
 * `.env`, which the never-send rules exclude anyway.
 */
export function fromTexts(name: string, files: readonly { path: string; text: string }[]): ProjectInput {
  const enc = new TextEncoder();
  const source = files.map((f) => ({ path: f.path, bytes: enc.encode(f.text) }));
  const byPath = new Map(source.map((f) => [indexPath(f.path), f.bytes]));
  return { name, source, given: source.length, read: (path) => (byPath.has(path) ? Promise.resolve(byPath.get(path)!) : undefined), notRead: () => undefined };
}

/** Files from an `<input type=file>` (`webkitdirectory` or `multiple`), or a flat drop. */
export function fromFileList(list: FileList | readonly File[], fallbackName?: string): ProjectInput {
  const all = Array.from(list);
  const files = all.filter((f) => !inSkippedDir(f.webkitRelativePath || f.name));
  const skipped = all.length - files.length;
  // The project-relative paths the SDK derives: a picked folder's own name is dropped.
  const { paths, root } = projectRelativePaths(files);
  const byPath = new Map(files.map((f, i) => [indexPath(paths[i]!), f]));
  return {
    name: root || fallbackName || `${files.length} file(s)`,
    source: files,
    given: files.length,
    read: readFrom(byPath),
    notRead: () => (skipped ? `${skipped} file(s) in ${SKIPPED_DIR}` : undefined),
  };
}

/**
 * A directory handle (`showDirectoryPicker`, or a drop). The SDK walks it, skipping ignored
 * directories; the page remembers each File the SDK opens, by path, to read it again later.
 */
export function fromDirectoryHandle(root: DirectoryHandleLike, name = root.name): ProjectInput {
  const opened = new Map<string, File>();
  let skippedDirs = 0;
  let onFile: ((opened: number) => void) | undefined;
  const record = (dir: DirectoryHandleLike, prefix: string): DirectoryHandleLike => ({
    kind: 'directory',
    name: dir.name,
    async *values() {
      for await (const child of dir.values()) {
        const path = prefix ? `${prefix}/${child.name}` : child.name;
        if (child.kind === 'directory') {
          if (child.name === SKIPPED_DIR) skippedDirs++;
          else yield record(child, path);
        } else {
          yield {
            kind: 'file',
            name: child.name,
            getFile: async () => {
              const file = await child.getFile();
              opened.set(indexPath(path), file);
              onFile?.(opened.size);
              return file;
            },
          } satisfies FileHandleLike;
        }
      }
    },
  });
  return {
    name,
    source: record(root, ''),
    read: readFrom(opened),
    notRead: () => (skippedDirs ? `${skippedDirs} ${SKIPPED_DIR} folder(s)` : undefined),
    watch: (cb) => {
      onFile = cb;
    },
  };
}

/** A drop entry as the SDK's directory-handle shape, read lazily as the SDK walks it. */
function entryHandle(entry: FileSystemEntry): DirectoryHandleLike | FileHandleLike {
  if (!entry.isDirectory) {
    return { kind: 'file', name: entry.name, getFile: () => new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej)) };
  }
  return {
    kind: 'directory',
    name: entry.name,
    async *values() {
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) return;
        yield* batch.map(entryHandle);
      }
    },
  };
}

/**
 * A drop: one folder is the project root, several items are its top level. Synchronous, since
 * the drop's items are readable only during the event (the entries stay usable after it).
 */
export function fromDataTransfer(dt: DataTransfer): ProjectInput {
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
  // Without entries (some browsers, synthetic drops) the plain file list still works, flat.
  if (entries.length === 0) return fromFileList(dt.files, `${dt.files.length} dropped file(s)`);
  if (entries.length === 1 && entries[0]!.isDirectory) return fromDirectoryHandle(entryHandle(entries[0]!) as DirectoryHandleLike);
  const root: DirectoryHandleLike = {
    kind: 'directory',
    name: '',
    async *values() {
      yield* entries.map(entryHandle);
    },
  };
  return fromDirectoryHandle(root, `${entries.length} dropped item(s)`);
}

/** Whether this browser has the File System Access API's directory picker. */
export function hasDirectoryPicker(): boolean {
  return typeof (window as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

/** Opens the directory picker. */
export async function pickDirectory(): Promise<DirectoryHandleLike> {
  return (window as unknown as { showDirectoryPicker(o?: object): Promise<DirectoryHandleLike> }).showDirectoryPicker({ mode: 'read' });
}

/**
 * Indexes the project with ctxgate (in its worker, in batches), then reads, analyses and scans
 * the files the index lets through. Hashing, encoding detection and secret scanning run in
 * ctxgate's worker; decoding and the language analysis in the page's worker.
 */
export async function loadProject(input: ProjectInput, deps: { engine: Engine; analyzer: AnalyzerClient; onProgress(p: LoadProgress): void }): Promise<LoadedProject> {
  const { engine, analyzer, onProgress } = deps;
  onProgress({ phase: 'reading', done: 0, total: input.given ?? 0 });
  input.watch?.((opened) => onProgress({ phase: 'reading', done: opened, total: 0 }));
  const indexed = await indexProject(input.source, {
    engine,
    batchBytes: INDEX_BATCH_BYTES,
    onProgress: (done, total) => onProgress({ phase: 'indexing', done, total }),
  });
  // Ignored files are not in the index; never-send and binary ones are marked excluded. Neither
  // is read again, nor kept.
  const sendable = indexed.files.filter((f) => !f.excluded);
  const contents = new Map<string, Uint8Array>();
  const facts = new Map<string, FileFacts>();
  const findings = new Map<string, { high: number; medium: number }>();
  let unscanned = 0;
  for (let i = 0; i < sendable.length; i += BATCH) {
    const batch = sendable.slice(i, i + BATCH);
    const bytes = await Promise.all(batch.map((f) => readAgain(input, f.path)));
    batch.forEach((f, k) => contents.set(f.path, bytes[k]!));
    const analysed = await analyzer.analyze(batch.map((f, k) => ({ path: f.path, bytes: bytes[k]! })));
    analysed.forEach((a, k) => facts.set(batch[k]!.path, a.facts));
    // With each file's path, as the builder scans it (source code reads unquoted names as code).
    const scannable = analysed.map((a, k) => a.text !== undefined && batch[k]!.byteSize <= SCAN_MAX_BYTES);
    unscanned += scannable.filter((x) => !x).length;
    const results = await Promise.all(analysed.map((a, k) => (scannable[k] ? engine.scanSecrets(a.text!, { path: batch[k]!.path }) : [])));
    results.forEach((list, k) => {
      if (list.length) findings.set(batch[k]!.path, { high: list.filter((x) => x.confidence === 'high').length, medium: list.filter((x) => x.confidence === 'medium').length });
    });
    onProgress({ phase: 'scanning', done: Math.min(i + BATCH, sendable.length), total: sendable.length });
    await nextFrame();
  }
  onProgress({ phase: 'linking', done: sendable.length, total: sendable.length });
  const dependencies = await analyzer.link(
    indexed.files.map((f) => f.path),
    [...facts.values()].map((f) => ({ path: f.path, imports: f.imports })),
  );
  const symbols = [...facts.values()].flatMap((f) => f.symbols);
  // The toy indexer's roles, signatures and summaries join the entries, so the index's
  // fingerprint is left for buildContext to compute over what it will use.
  const files = indexed.files.map((f) => withFacts(f, facts.get(f.path)));
  onProgress({ phase: 'done', done: files.length, total: files.length });
  const notRead = input.notRead();
  return {
    name: input.name,
    index: { files, symbols, dependencies },
    contents,
    findings,
    unscanned,
    ...(input.given !== undefined ? { leftOut: input.given - files.length } : {}),
    ...(notRead ? { notRead } : {}),
    symbols,
    dependencies,
  };
}

async function readAgain(input: ProjectInput, path: string): Promise<Uint8Array> {
  const read = input.read(path);
  if (!read) throw new Error(`${path} is in the index but the page cannot find its file; load the project again`);
  return read;
}

/** An index entry with the toy indexer's facts; a file it never read still gets its role (a `.env` is configuration). */
function withFacts(f: IndexedFile, facts: FileFacts | undefined): IndexedFile {
  if (!facts) return { ...f, role: roleOf(f.path) };
  return { ...f, role: facts.role, ...(facts.signatures ? { signatures: facts.signatures } : {}), ...(facts.summary ? { summary: facts.summary } : {}) };
}

/** What a typed target or symbol came to: the item to add, or why not and the closest ones. */
export type Verdict = { ok: true; value: string } | { ok: false; message: string; suggestions: string[] };

/**
 * Whether a typed target names a file of the project that can be sent; if not, why, and the
 * closest paths. A path the project does not have is not repeated (see checkSymbol).
 */
export function checkTarget(p: LoadedProject, typed: string): Verdict {
  const path = indexPath(typed);
  const file = p.index.files.find((f) => f.path === path);
  if (file && !file.excluded) return { ok: true, value: path };
  if (file) return { ok: false, message: `${path} is in the project but is never sent (${file.excluded}), so it cannot be a target.`, suggestions: [] };
  const suggestions = closest(typed, p.index.files.filter((f) => !f.excluded).map((f) => f.path));
  return { ok: false, message: `No file of the project has that path.${suggestions.length ? ' Did you mean one of these?' : ''}`, suggestions };
}

/**
 * Whether a typed symbol is defined in the project, inside its root (several definitions are
 * fine: the build asks which one); if not, the closest names. The message does not repeat what was
 * typed: a token pasted into the field would be shown back on the page.
 */
export function checkSymbol(p: LoadedProject, typed: string): Verdict {
  if (p.symbols.some((s) => s.name === typed)) return { ok: true, value: typed };
  const suggestions = closest(typed, symbolNames(p));
  return { ok: false, message: `No symbol of that name is defined in the project.${suggestions.length ? ' Did you mean one of these?' : ''}`, suggestions };
}

/** The names the project's symbols have, once each, sorted. */
export function symbolNames(p: LoadedProject): string[] {
  return [...new Set(p.symbols.map((s) => s.name))].sort();
}

/**
 * Up to five of `items` (file paths, or symbol names) nearest to `typed`: those it starts, then
 * those it is part of, then by the edit distance of their last path segments (a file's name; a
 * symbol's whole name).
 */
function closest(typed: string, items: readonly string[]): string[] {
  const t = typed.toLowerCase();
  const name = (p: string): string => p.slice(p.lastIndexOf('/') + 1);
  const score = (p: string): number => {
    const l = p.toLowerCase();
    return l.startsWith(t) ? 0 : l.includes(t) ? 1 : 2 + editDistance(name(t), name(l));
  };
  // A name further than this from every item's name suggests nothing useful.
  const far = 2 + Math.max(3, Math.ceil(name(t).length / 2));
  return items
    .map((p) => ({ p, s: score(p) }))
    .filter((x) => x.s <= far)
    .sort((a, b) => a.s - b.s || a.p.length - b.p.length || (a.p < b.p ? -1 : 1))
    .slice(0, 5)
    .map((x) => x.p);
}

/** Levenshtein distance, one row at a time (file and symbol names are short). */
function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}
