// The project index: paths, sizes, SHA-256 hashes and encodings of a project's files, plus the
// symbols, dependency edges and line ranges the caller's indexer provides. Content is hashed in the
// core in one batched call.
import { detachedBytes, expectArray, expectObject, expectOptions, isDetached, wrongKind } from '../args.ts';
import { CtxgateError, invalidParams } from '../errors.ts';
import { sha256ManySync } from '../core/sha256.ts';
import { fingerprintSync } from '../fingerprint/fingerprint.ts';
import { countLines } from './lines.ts';
import type { BuilderGates } from './gates.ts';
import type { DependencyEdge, IndexedFile, IndexedSymbol, ProjectIndex } from './types.ts';
import { utf8ByteLength } from '../encoding/utf8-size.ts';
import { normalizeProjectPath } from '../secrets/paths.ts';
import { refuseLoneSurrogate } from '../encoding/utf16.ts';
import { checkIndexExtras } from './schema.ts';

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
 * The fingerprint of an index: over every member that can change a bundle (paths, sizes, hashes,
 * encodings, line counts, roles, indexer exclusions, signatures and summaries; symbols with their
 * signatures; edges) in canonical order, so the same project gives the same fingerprint whatever
 * order it was listed in, and an index that would send something else fingerprints differently.
 *
 * `index` must be an object whose `files` is an array of objects with a string `path`, and whose
 * `symbols` and `dependencies`, when present, are arrays of objects (INVALID_PARAMS naming the
 * field, e.g. `index.files[2].path`). Values JSON cannot represent in the fingerprinted members are
 * UNSUPPORTED_VALUE, as in `fingerprint()`. Two entries of `files` for one normalised path that
 * differ are INVALID_PARAMS (see {@link checkIndexedDuplicates}).
 */
export function projectIndexFingerprint(index: ProjectIndex): string {
  return fingerprintSync(projectIndexIdentity(index));
}

/** The data the project index fingerprint is taken over (canonical order, no contents). */
export function projectIndexIdentity(index: ProjectIndex, field = 'index'): unknown {
  expectObject(index, field);
  const files = index.files;
  expectArray(files, `${field}.files`);
  for (let i = 0; i < files.length; i++) {
    const f = files[i];
    expectObject(f, `${field}.files[${i}]`);
    if (typeof f.path !== 'string') throw wrongKind(`${field}.files[${i}].path`, 'a string', f.path);
  }
  checkIndexedDuplicates(files, `${field}.files`);
  const symbols = listOfObjects(index.symbols, `${field}.symbols`);
  const dependencies = listOfObjects(index.dependencies, `${field}.dependencies`);
  return {
    // Sorted by their JSON, not by path alone: entries that share a raw path (identical, since
    // differing ones were refused above) then still have one order.
    files: sortedByJson(files.map(fileIdentity), `${field}.files`),
    // `signature`, `signatures` and `summary` are what SIGNATURES_ONLY / SUMMARY_ONLY blocks send.
    symbols: sortedByJson(
      symbols.map((s) => ({ name: s.name, path: s.path, kind: s.kind ?? null, startLine: s.startLine, endLine: s.endLine, signature: s.signature ?? null })),
      `${field}.symbols`,
    ),
    dependencies: sortedByJson(
      dependencies.map((d) => ({ from: d.from, to: d.to, kind: d.kind })),
      `${field}.dependencies`,
    ),
  };
}

/** The members of an index entry that can change a bundle, absent ones as `null`. */
function fileIdentity(f: IndexedFile): Record<string, unknown> {
  return {
    path: f.path,
    byteSize: f.byteSize,
    hash: f.hash,
    encoding: f.encoding,
    lineCount: f.lineCount ?? null,
    role: f.role ?? null,
    excluded: f.excluded ?? null,
    signatures: f.signatures ?? null,
    summary: f.summary ?? null,
  };
}

/**
 * INVALID_PARAMS when two entries of an index's `files` (`field` names the list) name the same
 * normalised path (`a.ts`, `./a.ts`…) with different members: which one the builder sends would
 * depend on their order in the list (spec 001 edge case 1 and INV-CONTEXT-2). The error names the
 * path and both indexes. Identical entries are allowed: whichever is kept, the bundle is the same.
 * Paths outside the jail are left to the builder to exclude.
 */
export function checkIndexedDuplicates(files: readonly IndexedFile[], field: string): void {
  const first = new Map<string, { i: number; key: string | undefined }>();
  for (let i = 0; i < files.length; i++) {
    const f = files[i]!;
    const n = normalizeProjectPath(f.path);
    if (!n.ok) continue;
    const earlier = first.get(n.path);
    if (earlier === undefined) {
      // The entry's identity is serialised only when its path turns out to be listed twice.
      first.set(n.path, { i, key: undefined });
      continue;
    }
    earlier.key ??= memberKey(files[earlier.i]!, `${field}[${earlier.i}]`);
    if (memberKey(f, `${field}[${i}]`) !== earlier.key) {
      throw invalidParams(
        `${field}[${i}]`,
        `names the same file as ${field}[${earlier.i}] (${JSON.stringify(n.path)} after normalisation) with different members; list each file once, or make the entries identical.`,
        { path: n.path, index: i, firstIndex: earlier.i },
      );
    }
  }
}

/** An entry's identity without its path spelling (`a.ts` and `./a.ts` may be the same entry). */
function memberKey(f: IndexedFile, field: string): string {
  const { path: _path, ...rest } = fileIdentity(f);
  try {
    return JSON.stringify(rest);
  } catch (cause) {
    throw new CtxgateError('UNSUPPORTED_VALUE', `Cannot compare the project index's entries: ${field} holds a value JSON cannot represent (a BigInt or a cycle).`, {
      details: { path: field },
      cause,
    });
  }
}

/**
 * The index's fingerprint, checked against the one the caller supplied, if any: a supplied
 * fingerprint that does not match the index is INVALID_PARAMS (`projectIndex.projectIndexFingerprint`),
 * since the manifest would otherwise claim an index the bundle was not built from. Computing it
 * costs one canonical serialisation and hash of the metadata (no file contents), small next to a
 * build. Needs the core loaded, like {@link projectIndexFingerprint}.
 */
export function verifiedProjectIndexFingerprint(index: ProjectIndex, field = 'projectIndex'): string {
  const computed = fingerprintSync(projectIndexIdentity(index, field));
  const given = index.projectIndexFingerprint;
  if (given !== undefined && given !== null && given !== computed) {
    throw invalidParams(
      `${field}.projectIndexFingerprint`,
      `does not match the index (computed ${computed}): the index changed after it was fingerprinted, or an older ctxgate fingerprinted it (the fingerprint now also covers signatures, summaries, line counts and symbol signatures). Leave it out, or recompute it with projectIndexFingerprint().`,
      { given, computed },
    );
  }
  return computed;
}

/** An optional list of objects (`undefined` is empty), checked item by item. */
function listOfObjects<T>(list: readonly T[] | undefined, field: string): readonly T[] {
  if (list === undefined) return [];
  expectArray(list, field);
  for (let i = 0; i < list.length; i++) expectObject(list[i], `${field}[${i}]`);
  return list;
}

/**
 * The items in the order of their JSON text (the order the fingerprint has always used), each
 * serialised once. An item JSON cannot serialise (a BigInt, a cycle) is UNSUPPORTED_VALUE.
 */
function sortedByJson<T>(items: T[], field: string): T[] {
  const keyed = items.map((value, i) => {
    try {
      return { value, key: JSON.stringify(value) };
    } catch (cause) {
      throw new CtxgateError('UNSUPPORTED_VALUE', `Cannot fingerprint the project index: ${field}[${i}] holds a value JSON cannot represent (a BigInt or a cycle).`, {
        details: { path: `${field}[${i}]` },
        cause,
      });
    }
  });
  return keyed.sort((a, b) => (a.key < b.key ? -1 : 1)).map((k) => k.value);
}

/** A value that is absent: `undefined`, or `null` as JSON writes it. */
function absent(value: unknown): value is undefined | null {
  return value === undefined || value === null;
}

/**
 * Checks one {@link ProjectFile} (`field` names it, e.g. `files[3]`): an object with a string
 * `path`; `bytes` a Uint8Array, `text` a string, `byteSize` a number and `role`, `signatures` and
 * `summary` strings when present (`null` counts as absent). INVALID_PARAMS naming the member; a
 * detached `bytes` (its buffer transferred) is INVALID_PARAMS too, since it would read as empty.
 */
export function checkProjectFile(f: unknown, field: string): asserts f is ProjectFile {
  if (f === null || typeof f !== 'object' || Array.isArray(f)) throw wrongKind(field, 'an object with a path and bytes or text', f);
  const file = f as Record<string, unknown>;
  if (typeof file.path !== 'string') throw wrongKind(`${field}.path`, 'a string', file.path);
  if (!absent(file.bytes) && !(file.bytes instanceof Uint8Array)) throw wrongKind(`${field}.bytes`, 'a Uint8Array', file.bytes);
  if (file.bytes instanceof Uint8Array && isDetached(file.bytes)) throw detachedBytes(`${field}.bytes`);
  if (!absent(file.text) && typeof file.text !== 'string') throw wrongKind(`${field}.text`, 'a string', file.text);
  if (!absent(file.byteSize) && typeof file.byteSize !== 'number') throw wrongKind(`${field}.byteSize`, 'a number', file.byteSize);
  for (const key of ['role', 'signatures', 'summary'] as const) {
    if (!absent(file[key]) && typeof file[key] !== 'string') throw wrongKind(`${field}.${key}`, 'a string', file[key]);
  }
}

/**
 * INVALID_PARAMS when two of `files` (already checked, `field` names the list) have the same path
 * after normalisation (`a.ts`, `./a.ts`, `a//a.ts` and so on): which content the index should hold
 * is ambiguous, and keeping one silently would hash a file the caller did not mean. The error
 * names the path and both indexes. Paths the jail refuses are left to the indexer to report.
 */
export function checkDuplicatePaths(
  files: readonly ProjectFile[],
  field: string,
  normalized: readonly ({ ok: true; path: string } | { ok: false })[] = files.map((f) => normalizeProjectPath(f.path)),
): void {
  const first = new Map<string, number>();
  for (let i = 0; i < files.length; i++) {
    const n = normalized[i]!;
    if (!n.ok) continue;
    const earlier = first.get(n.path);
    if (earlier !== undefined) {
      throw invalidParams(`${field}[${i}].path`, `names the same file as ${field}[${earlier}].path (${JSON.stringify(n.path)} after normalisation); list each file once.`, {
        path: n.path,
        index: i,
        firstIndex: earlier,
      });
    }
    first.set(n.path, i);
  }
}

/**
 * Indexes files given as bytes or text: normalises paths into the project jail, drops what the
 * deny rules never send, classifies binary and encodings, and hashes all contents in one call into
 * the core. Synchronous: needs the core loaded (the engine's `indexProject` does that for you).
 * Two files with the same normalised path are INVALID_PARAMS naming both (`files[3].path`); so is
 * a symbol or edge of `extras` the builder would refuse (`extras.symbols[0].startLine`).
 */
export function indexProjectSync(
  files: readonly ProjectFile[],
  gates: Pick<BuilderGates, 'normalizePath' | 'isDenied' | 'classifyContent'>,
  extras: IndexExtras = {},
): ProjectIndex {
  expectArray(files, 'files');
  expectOptions(extras, 'extras');
  checkIndexExtras(extras ?? {}, 'extras');
  for (let i = 0; i < files.length; i++) checkProjectFile(files[i], `files[${i}]`);
  // Each path is normalised once, for this check and for the index.
  const normalized = files.map((f) => gates.normalizePath(f.path));
  checkDuplicatePaths(files, 'files', normalized);
  const entries: IndexedFile[] = [];
  // Denied paths are indexed without hashing: their content is never looked at.
  const contents: (Uint8Array | string | undefined)[] = [];
  files.forEach((f, i) => {
    const n = normalized[i]!;
    const path = n.ok ? n.path : f.path;
    const denied = n.ok && gates.isDenied(path).denied;
    if (absent(f.bytes) && absent(f.text)) {
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
      refuseLoneSurrogate(content, `files[${i}].text`, { field: `files[${i}].text` }, { why: ', and would be hashed as U+FFFD', bytes: "the file's bytes" });
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
