// Loading a project into the playground: from the sample, dropped files or folders, a folder
// input, or the File System Access API. Files are read, analysed (page worker), indexed and
// scanned (ctxgate's worker) in batches, with progress, so a large folder never freezes the page.
import type { Remote } from 'comlink';
import { indexProject, type DependencyEdge, type Engine, type IndexedFile, type IndexedSymbol, type ProjectIndex } from '../../src/index.ts';
import type { FileFacts } from './analyze.ts';
import type { AnalyzeApi } from './analyze.worker.ts';
import { nextFrame } from './dom.ts';

/** One file to load: its project-relative path and how to read it. */
export interface SourceFile {
  path: string;
  size: number;
  read(): Promise<Uint8Array>;
}

/** A loaded project. */
export interface LoadedProject {
  name: string;
  index: ProjectIndex;
  /** File bytes by path, handed to buildContext as `contents`. */
  contents: Map<string, Uint8Array>;
  /** Secret findings per file (count by confidence), from the load-time scan. */
  findings: Map<string, { high: number; medium: number }>;
  /** Directories not read at all, with why. */
  skipped: string[];
  symbols: IndexedSymbol[];
  dependencies: DependencyEdge[];
}

/** Progress of a load. */
export interface LoadProgress {
  phase: 'reading' | 'indexing' | 'linking' | 'done';
  done: number;
  total: number;
}

/** Files per round trip: large enough to amortise messaging, small enough to report progress. */
const BATCH = 64;
/** Directories never walked: their contents are never sent and can be huge. */
const SKIP_DIRS = new Set(['.git', 'node_modules']);
const SCAN_MAX_BYTES = 1024 * 1024;

/** Sources from in-memory text (the sample). */
export function fromTexts(files: readonly { path: string; text: string }[]): SourceFile[] {
  const enc = new TextEncoder();
  return files.map((f) => {
    const bytes = enc.encode(f.text);
    return { path: f.path, size: bytes.byteLength, read: async () => bytes };
  });
}

/** Sources from a FileList (an `<input type=file>`, with `webkitdirectory` or `multiple`). */
export function fromFileList(list: FileList | readonly File[]): { files: SourceFile[]; skipped: string[] } {
  const all = Array.from(list);
  const rel = all.map((f) => f.webkitRelativePath || f.name);
  const roots = new Set(rel.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const strip = roots.size === 1 && !roots.has('') ? [...roots][0]!.length + 1 : 0;
  const skipped = new Set<string>();
  const files: SourceFile[] = [];
  all.forEach((f, i) => {
    const path = rel[i]!.slice(strip);
    const top = path.split('/').find((seg) => SKIP_DIRS.has(seg));
    if (top) {
      skipped.add(top);
      return;
    }
    files.push({ path, size: f.size, read: async () => new Uint8Array(await f.arrayBuffer()) });
  });
  return { files, skipped: [...skipped].map((d) => `${d}/ (never sent; not read)`) };
}

/** Sources from a drop: files and folders, walked with webkitGetAsEntry. */
export async function fromDataTransfer(dt: DataTransfer): Promise<{ files: SourceFile[]; skipped: string[]; name: string }> {
  const entries = [...dt.items].map((i) => i.webkitGetAsEntry()).filter((e): e is FileSystemEntry => e !== null);
  // Without entries (some browsers, synthetic drops) the plain file list still works, flat.
  if (entries.length === 0) return { ...fromFileList(dt.files), name: `${dt.files.length} dropped file(s)` };
  const files: SourceFile[] = [];
  const skipped: string[] = [];
  // One dropped folder is the project root; otherwise the dropped items are.
  const single = entries.length === 1 && entries[0]!.isDirectory ? (entries[0] as FileSystemDirectoryEntry) : null;
  const walk = async (entry: FileSystemEntry, prefix: string): Promise<void> => {
    const path = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory) {
      if (SKIP_DIRS.has(entry.name)) {
        skipped.push(`${path}/ (never sent; not read)`);
        return;
      }
      const reader = (entry as FileSystemDirectoryEntry).createReader();
      for (;;) {
        const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
        if (!batch.length) break;
        for (const child of batch) await walk(child, path);
      }
    } else {
      const file = await new Promise<File>((res, rej) => (entry as FileSystemFileEntry).file(res, rej));
      files.push({ path, size: file.size, read: async () => new Uint8Array(await file.arrayBuffer()) });
    }
  };
  if (single) {
    const reader = single.createReader();
    for (;;) {
      const batch = await new Promise<FileSystemEntry[]>((res, rej) => reader.readEntries(res, rej));
      if (!batch.length) break;
      for (const child of batch) await walk(child, '');
    }
  } else for (const e of entries) await walk(e, '');
  return { files, skipped, name: single?.name ?? `${files.length} dropped file(s)` };
}

/** Minimal File System Access API types (not in every TypeScript DOM lib). */
interface DirHandle {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<DirHandle | { kind: 'file'; name: string; getFile(): Promise<File> }>;
}

/** Sources from a directory handle (`showDirectoryPicker`). */
export async function fromDirectoryHandle(root: DirHandle): Promise<{ files: SourceFile[]; skipped: string[] }> {
  const files: SourceFile[] = [];
  const skipped: string[] = [];
  const walk = async (dir: DirHandle, prefix: string): Promise<void> => {
    for await (const child of dir.values()) {
      const path = prefix ? `${prefix}/${child.name}` : child.name;
      if (child.kind === 'directory') {
        if (SKIP_DIRS.has(child.name)) skipped.push(`${path}/ (never sent; not read)`);
        else await walk(child, path);
      } else {
        const file = await child.getFile();
        files.push({ path, size: file.size, read: async () => new Uint8Array(await file.arrayBuffer()) });
      }
    }
  };
  await walk(root, '');
  return { files, skipped };
}

/** Whether this browser has the File System Access API's directory picker. */
export function hasDirectoryPicker(): boolean {
  return typeof (window as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

/** Opens the directory picker. */
export async function pickDirectory(): Promise<DirHandle> {
  return (window as unknown as { showDirectoryPicker(o?: object): Promise<DirHandle> }).showDirectoryPicker({ mode: 'read' });
}

/**
 * Reads, analyses, indexes and scans the files in batches. All hashing, encoding detection and
 * secret scanning runs in ctxgate's worker; the language analysis in the page's worker.
 */
export async function loadProject(
  name: string,
  sources: readonly SourceFile[],
  skipped: string[],
  deps: { engine: Engine; analyzer: Remote<AnalyzeApi>; onProgress(p: LoadProgress): void },
): Promise<LoadedProject> {
  const { engine, analyzer, onProgress } = deps;
  const sorted = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const total = sorted.length;
  const contents = new Map<string, Uint8Array>();
  const facts: FileFacts[] = [];
  const indexed: IndexedFile[] = [];
  const findings = new Map<string, { high: number; medium: number }>();
  const decoder = new TextDecoder();
  onProgress({ phase: 'reading', done: 0, total });
  for (let i = 0; i < total; i += BATCH) {
    const batch = sorted.slice(i, i + BATCH);
    const bytes = await Promise.all(batch.map((s) => s.read()));
    batch.forEach((s, k) => contents.set(s.path, bytes[k]!));
    const batchFacts = await analyzer.analyze(batch.map((s, k) => ({ path: s.path, bytes: bytes[k]! })));
    facts.push(...batchFacts);
    const part = await indexProject(
      batch.map((s, k) => {
        const f = batchFacts[k]!;
        return { path: s.path, bytes: bytes[k]!, role: f.role, ...(f.signatures ? { signatures: f.signatures } : {}), ...(f.summary ? { summary: f.summary } : {}) };
      }),
      { engine },
    );
    indexed.push(...part.files);
    // Scan what could be sent: text files the never-send rules do not exclude.
    const scannable = part.files.filter((f) => !f.excluded && f.byteSize <= SCAN_MAX_BYTES && contents.has(f.path));
    // With each file's path, as the builder scans it (source code reads unquoted names as code).
    const results = await Promise.all(scannable.map((f) => engine.scanSecrets(decoder.decode(contents.get(f.path)!), { path: f.path })));
    scannable.forEach((f, k) => {
      const list = results[k]!;
      if (list.length) findings.set(f.path, { high: list.filter((x) => x.confidence === 'high').length, medium: list.filter((x) => x.confidence === 'medium').length });
    });
    onProgress({ phase: 'indexing', done: Math.min(i + BATCH, total), total });
    await nextFrame();
  }
  onProgress({ phase: 'linking', done: total, total });
  const dependencies = await analyzer.link(
    indexed.map((f) => f.path),
    facts.map((f) => ({ path: f.path, imports: f.imports })),
  );
  const symbols = facts.flatMap((f) => f.symbols);
  indexed.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  // The index of all batches; buildContext computes its fingerprint (order-independent).
  const index: ProjectIndex = { files: indexed, symbols, dependencies };
  onProgress({ phase: 'done', done: total, total });
  return { name, index, contents, findings, skipped, symbols, dependencies };
}
