// The project index: paths, sizes, SHA-256 hashes and encodings of a project's files, plus the
// symbols, dependency edges and line ranges the caller's indexer provides. Content is hashed in the
// core in one batched call.
import { invalidParams } from '../errors.ts';
import { sha256ManySync } from '../core/sha256.ts';
import { fingerprintSync } from '../fingerprint/fingerprint.ts';
import { countLines } from './lines.ts';
import type { BuilderGates } from './gates.ts';
import type { DependencyEdge, IndexedFile, IndexedSymbol, ProjectIndex } from './types.ts';
import { utf8ByteLength } from '../encoding/utf8-size.ts';

/** One file given to {@link indexProjectSync}. */
export interface ProjectFile {
  path: string;
  /** The content; may be left out only for paths the deny rules never send (they are not read). */
  bytes?: Uint8Array;
  text?: string;
  /** Size in bytes, for files listed without content. */
  byteSize?: number;
  role?: IndexedFile['role'];
  signatures?: string;
  summary?: string;
}

/** Extra knowledge from the caller's indexer (ctxgate does not parse languages). */
export interface IndexExtras {
  symbols?: IndexedSymbol[];
  dependencies?: DependencyEdge[];
}

/**
 * The fingerprint of an index: over paths, sizes, hashes, encodings, roles, symbols and edges in
 * canonical order, so the same project gives the same fingerprint whatever order it was listed in.
 */
export function projectIndexFingerprint(index: ProjectIndex): string {
  return fingerprintSync(projectIndexIdentity(index));
}

/** The data the project index fingerprint is taken over (canonical order, no contents). */
export function projectIndexIdentity(index: ProjectIndex): unknown {
  const byPath = (a: { path: string }, b: { path: string }): number => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  const key = (x: unknown): string => JSON.stringify(x);
  return {
    files: [...index.files].sort(byPath).map((f) => ({ path: f.path, byteSize: f.byteSize, hash: f.hash, encoding: f.encoding, role: f.role ?? null, excluded: f.excluded ?? null })),
    symbols: [...(index.symbols ?? [])].map((s) => ({ name: s.name, path: s.path, kind: s.kind ?? null, startLine: s.startLine, endLine: s.endLine })).sort((a, b) => (key(a) < key(b) ? -1 : 1)),
    dependencies: [...(index.dependencies ?? [])].map((d) => ({ from: d.from, to: d.to, kind: d.kind })).sort((a, b) => (key(a) < key(b) ? -1 : 1)),
  };
}

/**
 * Indexes files given as bytes or text: normalises paths into the project jail, drops what the
 * deny rules never send, classifies binary and encodings, and hashes all contents in one call into
 * the core. Synchronous: needs the core loaded (the engine's `indexProject` does that for you).
 */
export function indexProjectSync(
  files: readonly ProjectFile[],
  gates: Pick<BuilderGates, 'normalizePath' | 'isDenied' | 'classifyContent'>,
  extras: IndexExtras = {},
): ProjectIndex {
  const entries: IndexedFile[] = [];
  // Denied paths are indexed without hashing: their content is never looked at.
  const contents: (Uint8Array | string | undefined)[] = [];
  const seen = new Set<string>();
  files.forEach((f, i) => {
    if (typeof f?.path !== 'string') throw invalidParams(`files[${i}].path`, 'must be a string');
    const n = gates.normalizePath(f.path);
    const path = n.ok ? n.path : f.path;
    if (n.ok && seen.has(path)) return; // dedupe by normalised path; the first listed wins
    seen.add(path);
    const denied = n.ok && gates.isDenied(path).denied;
    if (f.bytes === undefined && f.text === undefined) {
      if (!denied) throw invalidParams(`files[${i}]`, 'needs bytes or text (only never-send paths may be listed without content)');
      entries.push({ path, byteSize: f.byteSize ?? 0, hash: '', encoding: 'unknown', excluded: 'deny_rule' });
      contents.push(undefined);
      return;
    }
    const content = f.bytes ?? f.text!;
    const base = { path, ...(f.role ? { role: f.role } : {}), ...(f.signatures ? { signatures: f.signatures } : {}), ...(f.summary ? { summary: f.summary } : {}) };
    if (!n.ok) {
      entries.push({ ...base, byteSize: byteLength(content), hash: '', encoding: 'unknown', excluded: 'outside_sandbox' });
    } else if (denied) {
      entries.push({ ...base, byteSize: byteLength(content), hash: '', encoding: 'unknown', excluded: 'deny_rule' });
    } else if (typeof content === 'string') {
      entries.push({ ...base, byteSize: byteLength(content), hash: '', encoding: 'utf-8', lineCount: countLines(content) });
    } else {
      const decoded = gates.classifyContent(content);
      entries.push({
        ...base,
        byteSize: content.byteLength,
        hash: '',
        encoding: decoded.encoding,
        ...(decoded.binary ? { excluded: 'binary' as const } : { lineCount: decoded.lineCount }),
      });
    }
    contents.push(content);
  });
  const hashed = contents.map((c, i) => [c, i] as const).filter(([c, i]) => c !== undefined && entries[i]!.excluded !== 'deny_rule');
  const hashes = sha256ManySync(hashed.map(([c]) => c!));
  hashed.forEach(([, i], k) => (entries[i]!.hash = hashes[k]!));
  entries.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const index: ProjectIndex = { files: entries, symbols: extras.symbols ?? [], dependencies: extras.dependencies ?? [] };
  index.projectIndexFingerprint = projectIndexFingerprint(index);
  return index;
}

function byteLength(content: Uint8Array | string): number {
  return typeof content === 'string' ? utf8ByteLength(content) : content.byteLength;
}
