// The public buildContext(): validate, plan which files are needed, read them (the filesystem is
// the source of truth), then one batched, transferred call into the engine, which does all the
// scanning, estimation, hashing and sorting for every candidate.
import { transfer } from 'comlink';
import { expectMethods, expectOptions, isDetached, kindOf, wrongKind } from '../args.ts';
import { CtxgateError, invalidParams, isCtxgateError } from '../errors.ts';
import { sharedEngine } from '../ctxgate.ts';
import type { Engine } from '../worker/engine.ts';
import { establishCandidates } from './candidates.ts';
import { isFreshReader } from './fresh-reader.ts';
import { createPathGates } from './default-gates.ts';
import { validateBuildInput } from './schema.ts';
import { normalizeProjectPath } from '../secrets/paths.ts';
import type { BuildContextInput, BuildContextResult, ExplainEntry, IndexedFile } from './types.ts';

/** Where {@link buildContext} gets file contents from. */
export interface BuildContextOptions {
  /** Reads a file by its normalised project-relative path (Node/Deno: see `ctxgate/fs`). */
  readFile?: (path: string) => Promise<Uint8Array | string>;
  /**
   * Contents already in memory, by path; used before `readFile`. Keys are matched as the index's
   * paths are normalised (`./src/a.ts` and `src//a.ts` are `src/a.ts`, an NFD name is its NFC
   * form), so the list given to indexProject can key them as it was written; a key written exactly
   * as the index names the file wins. Two other keys of one file with different contents are
   * INVALID_PARAMS.
   */
  contents?: ReadonlyMap<string, Uint8Array | string> | Readonly<Record<string, Uint8Array | string>>;
  /** The engine to run on; the shared engine by default. */
  engine?: Engine;
  /**
   * Receives what the builder decided, as structured events: paths, hashes, sizes, reasons and
   * counts only, never file contents or secret values (spec 001, Logging Restrictions).
   */
  logger?: (event: BuilderLogEvent) => void;
  /** Leave paths out of log events (default false). */
  hidePathsInLogs?: boolean;
}

/** One structured log event of {@link buildContext}. The type has no field that could hold content. */
export type BuilderLogEvent =
  | {
      event: 'candidate';
      path: string | null;
      outcome: ExplainEntry['outcome'];
      reason: string;
      priority: string | null;
      hash: string | null;
      byteSize: number;
      tokens: number | null;
      slicing: string | null;
    }
  | { event: 'redactions'; total: number; byType: Record<string, number> }
  | { event: 'budget'; decision: string; estimatedInputTokens: number; hardLimitTokens: number; softLimitTokens: number }
  | { event: 'bundle'; bundleId: string; blocks: number; bundleFingerprint: string }
  | { event: 'refused'; code: string; name: string };

/**
 * Builds a context bundle (spec 001): the ordered blocks, the manifest with its three
 * fingerprints, the redaction report and the budget report, plus `explain`. Refuses with a typed
 * error instead of truncating or leaking: ContextTooLargeError (with its budget report),
 * SecretRiskError, AmbiguousTargetError (with the candidates), INVALID_PARAMS naming a bad field,
 * READ_FAILED, UNSUPPORTED_ENCODING, OUTSIDE_SANDBOX.
 *
 * `options` that is not an object, or a member of the wrong kind (`options.readFile` not a
 * function, `options.contents` neither a Map nor an object, …), is INVALID_PARAMS naming it, as is
 * content (given, or returned by `readFile`) that is neither a string nor a live Uint8Array.
 */
export async function buildContext(input: BuildContextInput, options: BuildContextOptions = {}): Promise<BuildContextResult> {
  checkOptions(options);
  const valid = validateBuildInput(input);
  const needed = neededPaths(valid);
  const given = contentsByPath(options.contents instanceof Map ? options.contents : new Map(Object.entries(options.contents ?? {})));
  const entries: [string, Uint8Array | string][] = [];
  const owned: ArrayBuffer[] = [];
  const fresh = isFreshReader(options.readFile);
  for (const path of needed) {
    const have = given(path);
    if (have !== undefined) {
      checkContent(have, 'options.contents', path);
      entries.push([path, have]);
      continue;
    }
    if (!options.readFile) continue; // the engine refuses with READ_FAILED if a candidate has no content
    let content: Uint8Array | string;
    try {
      content = await options.readFile(path);
    } catch (cause) {
      throw new CtxgateError('READ_FAILED', `Reading ${path} failed; the bundle cannot be built deterministically without it.`, { cause, details: { path } });
    }
    checkContent(content, 'options.readFile', path);
    if (fresh && content instanceof Uint8Array && content.byteOffset === 0 && content.byteLength === content.buffer.byteLength && content.buffer instanceof ArrayBuffer) {
      owned.push(content.buffer);
    }
    entries.push([path, content]);
  }
  const engine = options.engine ?? (await sharedEngine());
  // What ctxgate's own reader read is ours to transfer; the caller's buffers (given, or returned
  // by a reader of theirs, which may keep them) are copied.
  let result: BuildContextResult;
  try {
    result = await engine.buildContext(valid, transfer(entries, owned));
  } catch (error) {
    if (options.logger && isCtxgateError(error)) options.logger({ event: 'refused', code: error.code, name: error.name });
    throw error;
  }
  if (options.logger) log(result, options.logger, options.hidePathsInLogs ?? false);
  return result;
}

/**
 * A lookup of `contents` by normalised path: the key as written first, else a key that normalises
 * to the path (worked out once, at the first miss: callers who key by the index's paths pay
 * nothing). Keys that normalise to nothing inside the project can name no indexed file and are
 * left unused.
 */
function contentsByPath(contents: ReadonlyMap<string, Uint8Array | string>): (path: string) => Uint8Array | string | undefined {
  let normalized: Map<string, Uint8Array | string> | undefined;
  const conflicting = new Map<string, number>();
  return (path) => {
    const exact = contents.get(path);
    if (exact !== undefined) return exact;
    if (normalized === undefined) {
      normalized = new Map();
      for (const [key, value] of contents) {
        if (typeof key !== 'string') continue;
        const n = normalizeProjectPath(key);
        if (!n.ok || n.path === key) continue;
        const before = normalized.get(n.path);
        if (before !== undefined && before !== value) conflicting.set(n.path, (conflicting.get(n.path) ?? 1) + 1);
        else normalized.set(n.path, value);
      }
    }
    const count = conflicting.get(path);
    if (count !== undefined) {
      // The keys are not shown: they are the caller's strings, and the path says which file.
      throw invalidParams('options.contents', `${count} keys name ${path} once normalised (./ prefixes, doubled slashes, Unicode forms), with different contents; keep one, or key it as the index names it.`, { path });
    }
    return normalized.get(path);
  };
}

/** INVALID_PARAMS unless `options` and the members buildContext reads have the right kinds. */
function checkOptions(options: unknown): asserts options is BuildContextOptions {
  expectOptions(options);
  const o = options ?? {};
  if (o.readFile !== undefined && typeof o.readFile !== 'function') throw wrongKind('options.readFile', 'a function', o.readFile);
  if (o.contents !== undefined && (o.contents === null || typeof o.contents !== 'object' || Array.isArray(o.contents))) {
    throw wrongKind('options.contents', 'a Map or an object of contents by path', o.contents);
  }
  if (o.engine !== undefined) expectMethods(o.engine, 'options.engine', ['buildContext'], 'an engine from createCtxgate()');
  if (o.logger !== undefined && typeof o.logger !== 'function') throw wrongKind('options.logger', 'a function', o.logger);
  if (o.hidePathsInLogs !== undefined && typeof o.hidePathsInLogs !== 'boolean') throw wrongKind('options.hidePathsInLogs', 'a boolean', o.hidePathsInLogs);
}

/** INVALID_PARAMS (`field`, naming the file's path) unless `content` is a string or live bytes. */
function checkContent(content: unknown, field: string, path: string): void {
  const what = field === 'options.readFile' ? 'must return' : 'must hold';
  if (typeof content !== 'string' && !(content instanceof Uint8Array)) {
    throw invalidParams(field, `${what} a string or a Uint8Array for ${path} (got ${kindOf(content)}).`, { path, expected: 'a string or a Uint8Array', got: kindOf(content) });
  }
  if (content instanceof Uint8Array && isDetached(content)) {
    throw invalidParams(field, `${what} live bytes for ${path}; the Uint8Array is detached (its ArrayBuffer was transferred); pass a live copy.`, {
      path,
      expected: 'a live Uint8Array',
      got: 'a detached Uint8Array',
    });
  }
}

function log(result: BuildContextResult, logger: (event: BuilderLogEvent) => void, hidePaths: boolean): void {
  const hashes = new Map(result.manifest.selection.includedFiles.map((f) => [f.path, f.hash]));
  for (const e of result.explain) {
    logger({
      event: 'candidate',
      path: hidePaths ? null : e.path,
      outcome: e.outcome,
      reason: e.reason,
      priority: e.priority,
      hash: hashes.get(e.path) ?? null,
      byteSize: e.byteSize,
      tokens: e.tokens,
      slicing: e.slicing,
    });
  }
  const byType: Record<string, number> = {};
  for (const r of result.redactionReport.redactions) byType[r.type] = (byType[r.type] ?? 0) + 1;
  logger({ event: 'redactions', total: result.redactionReport.redactions.length, byType });
  const b = result.budgetReport;
  logger({ event: 'budget', decision: b.decision, estimatedInputTokens: b.estimatedInputTokens, hardLimitTokens: b.hardLimitTokens, softLimitTokens: b.softLimitTokens });
  logger({ event: 'bundle', bundleId: result.bundle.bundleId, blocks: result.bundle.blocks.length, bundleFingerprint: result.manifest.fingerprints.bundleFingerprint });
}

/**
 * The paths whose contents the builder needs: every candidate of step 0. Computed on the caller's
 * side (cheap graph work) so that only these files are read and sent.
 */
export function neededPaths(input: BuildContextInput): string[] {
  if (input.purpose === 'intent') return [];
  const gates = createPathGates(input.sandbox);
  const files = new Map<string, IndexedFile>();
  for (const f of input.projectIndex.files) {
    const n = gates.normalizePath(f.path);
    if (n.ok && !files.has(n.path)) files.set(n.path, { ...f, path: n.path });
  }
  const normalize = (p: string): string => {
    const n = gates.normalizePath(p);
    return n.ok ? n.path : p;
  };
  let candidates: ReturnType<typeof establishCandidates>['candidates'];
  try {
    ({ candidates } = establishCandidates(input, files, normalize));
  } catch (error) {
    // Nothing is needed for a build that step 0 refuses: the engine refuses it the same way, before
    // reading any content, with the caller's strings in the message masked (it holds the scanner).
    if (isCtxgateError(error)) return [];
    throw error;
  }
  return candidates
    .filter((c) => !gates.isDenied(c.path).denied && !c.file.excluded)
    .map((c) => c.path)
    .sort();
}
