// Selection step 0 (spec 001): establish candidates from the plan step, the user's selection and
// the index's graph, deduplicated by normalised path. Pure data in, data out.
import { AmbiguousTargetError, CtxgateError, invalidParams, isCtxgateError } from '../errors.ts';
import { normalizeProjectPath } from '../secrets/paths.ts';
import { checkIndexedDuplicates } from './project-index.ts';
import type { BuildContextInput, DependencyEdge, InclusionReason, IndexedFile, IndexedSymbol, Priority } from './types.ts';

/** A file that may go into the bundle, before exclusions and ranking. */
export interface Candidate {
  path: string;
  reason: InclusionReason;
  /** Base weight of the ranking score (spec 001 step 2). */
  base: number;
  /** Graph distance from the nearest target (0 for targets). */
  hops: number;
  priority: Priority;
  /** True for the plan step's target files and target-symbol definition files. */
  target: boolean;
  /** Target symbols defined in this file (enables TARGET_REGION_ONLY). */
  symbols: IndexedSymbol[];
  file: IndexedFile;
}

/** Base weights of spec 001 step 2. */
export const WEIGHTS = Object.freeze({
  targetFile: 100,
  targetSymbolFile: 90,
  dependency: 60,
  interface: 55,
  caller: 40,
  config: 30,
  other: 0,
});

/** Where a path came from, for explaining a refusal. */
export type PathNormalizer = (path: string, field: string) => string;

/**
 * Builds the candidate set. `normalize` turns a caller-supplied path into the index's normalised
 * relative form; for a path outside the project jail it may throw OUTSIDE_SANDBOX.
 *
 * Outside the jail (spec 001 step 1, "outside project root jail"): a *target* (plan step target
 * file, user-selected file or symbol, or a target symbol defined only outside) is refused with
 * OUTSIDE_SANDBOX. Anything else that leaves the project (a dependency edge's end, a caller, the
 * active file) is a candidate that step 1 rejects: it is returned under its raw path with an index
 * entry marked `excluded: 'outside_sandbox'`, so it appears in `excluded_candidates` instead of
 * failing a build it has nothing to do with. An outside raw path that the index itself already
 * lists (and so already excludes) is not repeated.
 *
 * Deterministic whatever the order of files, symbols and edges: two claims on one path are decided
 * by base weight, then hops, then reason name bytewise (INV-CONTEXT-2), and two index entries for
 * one normalised path that differ are INVALID_PARAMS naming it (spec 001 edge case 1).
 */
export function establishCandidates(
  input: BuildContextInput,
  files: ReadonlyMap<string, IndexedFile>,
  normalize: (path: string) => string,
  mask: (text: string) => string = (text) => text,
): { candidates: Candidate[]; targetFiles: string[]; targetSymbols: string[]; unresolved: { path: string; field: string }[] } {
  // Both sides of a build (the caller's neededPaths and the engine's assembly) come through here,
  // so an index listing one file twice with different members is refused before either picks one.
  checkIndexedDuplicates(input.projectIndex.files, 'projectIndex.files');
  const byPath = new Map<string, Candidate>();
  /** Target-symbol keys already in each candidate's `symbols` (merging stays linear). */
  const symbolKeys = new Map<string, Set<string>>();
  /** Non-target candidates outside the jail, by raw path (never equal to a normalised path). */
  const outside = new Map<string, Candidate>();
  const unresolved: { path: string; field: string }[] = [];
  const symbols = input.projectIndex.symbols ?? [];
  const edges = input.projectIndex.dependencies ?? [];

  const offer = (c: Omit<Candidate, 'file'>): void => {
    const file = files.get(c.path);
    if (!file) return;
    const prev = byPath.get(c.path);
    if (!prev) {
      const keys = new Set<string>();
      byPath.set(c.path, { ...c, file, symbols: addSymbols([], keys, c.symbols) });
      symbolKeys.set(c.path, keys);
      return;
    }
    // Dedupe by normalised path: keep the strongest claim, merge target symbols. The order of the
    // tie-breaks is total, so which claim wins does not depend on the order claims arrive in.
    const merged = strongerClaim(c, prev) ? { ...c, file, symbols: prev.symbols } : prev;
    merged.target = prev.target || c.target;
    addSymbols(merged.symbols, symbolKeys.get(c.path)!, c.symbols);
    if (merged.target) merged.priority = 'P0';
    byPath.set(c.path, merged);
  };

  // Raw index paths the index already excludes as outside the jail (computed when first needed).
  let outsideIndexPaths: Set<string> | undefined;
  /** A non-target claim on `raw`, a path outside the jail: a candidate that step 1 excludes. */
  const offerOutside = (raw: string, c: Omit<Candidate, 'file' | 'path'>): void => {
    outsideIndexPaths ??= new Set(input.projectIndex.files.filter((f) => tryNormalize(normalize, f.path) === undefined).map((f) => f.path));
    if (outsideIndexPaths.has(raw)) return;
    const prev = outside.get(raw);
    if (prev && !strongerClaim(c, prev)) return;
    const file: IndexedFile = { path: raw, byteSize: 0, hash: '', encoding: 'unknown', excluded: 'outside_sandbox' };
    outside.set(raw, { ...c, path: raw, file });
  };
  const normalizeOrOffer = (raw: string, c: Omit<Candidate, 'file' | 'path'>): void => {
    const path = tryNormalize(normalize, raw);
    if (path !== undefined) offer({ ...c, path });
    else offerOutside(raw, c);
  };

  // Explicit target files.
  const targetFiles: string[] = [];
  (input.planStep?.targetFiles ?? []).forEach((raw, i) => {
    const path = normalize(raw);
    if (!files.has(path)) {
      unresolved.push({ path, field: `planStep.targetFiles[${i}]` });
      return;
    }
    targetFiles.push(path);
    offer({ path, reason: 'target', base: WEIGHTS.targetFile, hops: 0, priority: 'P0', target: true, symbols: [] });
  });

  // Explicit target symbols: each must resolve to exactly one definition, or the user chose one.
  const targetSymbols: string[] = [];
  const selections = input.userSelectedTargets?.symbols ?? [];
  // Grouped by name once, so resolving many target symbols is linear, not targets × symbols.
  const targetNames = new Set(input.planStep?.targetSymbols ?? []);
  const byName = groupBy(symbols.filter((s) => targetNames.has(s.name)), (s) => s.name);
  const chosenByName = groupBy(selections.filter((s) => targetNames.has(s.name)), (s) => s.name);
  (input.planStep?.targetSymbols ?? []).forEach((name, i) => {
    const matches = byName.get(name) ?? [];
    // A user's choice is a target: outside the jail it is refused (normalize throws).
    const chosen = new Set((chosenByName.get(name) ?? []).map((s) => normalize(s.path)));
    // A definition outside the jail can never be sent, so it is not a candidate definition; if it
    // is the only one, the target is outside and refused below.
    const inside = matches.map((m) => ({ m, path: tryNormalize(normalize, m.path) })).filter((d): d is { m: IndexedSymbol; path: string } => d.path !== undefined);
    if (inside.length === 0 && matches.length > 0 && chosen.size === 0) {
      const path = mask(matches.map((m) => m.path).sort()[0]!);
      throw new CtxgateError(
        'OUTSIDE_SANDBOX',
        `planStep.targetSymbols[${i}]: symbol ${JSON.stringify(mask(name))} is defined only outside the project root (${JSON.stringify(path)}); target a symbol defined inside the project.`,
        { details: { field: `planStep.targetSymbols[${i}]`, symbol: mask(name), path } },
      );
    }
    const defs = (chosen.size ? inside.filter((d) => chosen.has(d.path)) : inside).map((d) => d.m);
    if (defs.length === 0) {
      throw invalidParams(`planStep.targetSymbols[${i}]`, `symbol ${JSON.stringify(mask(name))} is not in the project index; index it or name the file instead`);
    }
    if (defs.length > 1) {
      const list = defs.map((d) => ({ name: mask(d.name), path: d.path, startLine: d.startLine, kind: d.kind ?? null }));
      throw new AmbiguousTargetError(
        `The step targets symbol ${JSON.stringify(mask(name))}, which is defined in ${defs.length} places; choose one (userSelectedTargets.symbols) and retry.`,
        { details: { symbol: mask(name), candidates: list } },
      );
    }
    const def = defs[0]!;
    targetSymbols.push(name);
    offer({ path: normalize(def.path), reason: 'target', base: WEIGHTS.targetSymbolFile, hops: 0, priority: 'P0', target: true, symbols: [def] });
  });

  // Files the user selected explicitly (after a disambiguation, or by hand).
  (input.userSelectedTargets?.files ?? []).forEach((raw, i) => {
    const path = normalize(raw);
    if (!files.has(path)) {
      unresolved.push({ path, field: `userSelectedTargets.files[${i}]` });
      return;
    }
    offer({ path, reason: 'user_selected', base: WEIGHTS.targetFile, hops: 0, priority: 'P0', target: true, symbols: [] });
  });

  // Index-derived relations, breadth-first from the targets.
  const targets = [...byPath.values()].filter((c) => c.target).map((c) => c.path);
  explore(targets, edges, normalize, input.maxHops ?? 2, offer, offerOutside);

  // Config files next to a target or at the project root are relevant to the step.
  const targetDirs = new Set(targets.map(dirOf));
  for (const file of files.values()) {
    if (file.role !== 'config') continue;
    const dir = dirOf(file.path);
    if (dir === '' || targetDirs.has(dir)) {
      offer({ path: file.path, reason: 'config', base: WEIGHTS.config, hops: 1, priority: 'P2', target: false, symbols: [] });
    }
  }

  // The file open in the editor is optional context (P3): first to go when over budget.
  if (input.activeFile) {
    normalizeOrOffer(input.activeFile, { reason: 'user_selected', base: WEIGHTS.other, hops: 1, priority: 'P3', target: false, symbols: [] });
  }

  return { candidates: [...byPath.values(), ...outside.values()], targetFiles, targetSymbols, unresolved };
}

/**
 * `normalize(raw)`, or undefined when the path is outside the project jail: the jail refuses it, or
 * the normaliser throws OUTSIDE_SANDBOX. The jail is asked directly too because not every caller's
 * normaliser throws (the caller-side `neededPaths` passes outside paths through unchanged), and the
 * candidate set must be the same on both sides. Any other error is not ours to swallow.
 */
function tryNormalize(normalize: (path: string) => string, raw: string): string | undefined {
  if (!normalizeProjectPath(raw).ok) return undefined;
  try {
    return normalize(raw);
  } catch (error) {
    if (isCtxgateError(error, 'OUTSIDE_SANDBOX')) return undefined;
    throw error;
  }
}

/**
 * Whether claim `c` beats `prev` on the same path: higher base weight, then fewer hops, then the
 * reason name bytewise (`base_type` before `interface`, both weigh 55). A total order on what a
 * claim decides, so the winner is independent of input order (INV-CONTEXT-2).
 */
function strongerClaim(c: Pick<Candidate, 'base' | 'hops' | 'reason'>, prev: Pick<Candidate, 'base' | 'hops' | 'reason'>): boolean {
  if (c.base !== prev.base) return c.base > prev.base;
  if (c.hops !== prev.hops) return c.hops < prev.hops;
  return c.reason < prev.reason;
}

/**
 * Breadth-first over the edges from the targets. An edge end outside the jail is kept under its
 * raw path (it can never be a target or lead anywhere in the project) and given to
 * `offerOutside` when it is reached, so it can be excluded; every other end, normalised once
 * here, goes to `offerInside`.
 */
function explore(
  targets: string[],
  edges: readonly DependencyEdge[],
  normalize: (path: string) => string,
  maxHops: number,
  offerInside: (c: Omit<Candidate, 'file'>) => void,
  offerOutside: (raw: string, c: Omit<Candidate, 'file' | 'path'>) => void,
): void {
  const out = new Map<string, DependencyEdge[]>();
  const incoming = new Map<string, DependencyEdge[]>();
  // Ends outside the jail: reached and excluded, but never explored further (a rejected
  // candidate does not pull in what it depends on).
  const outside = new Set<string>();
  const offer = (c: Omit<Candidate, 'file'>): void => {
    if (!outside.has(c.path)) return offerInside(c);
    const { path, ...rest } = c;
    offerOutside(path, rest);
  };
  // Edge ends repeat (a file imported by many), so each distinct spelling is normalised once.
  const seenEnds = new Map<string, string>();
  const end = (raw: string): string => {
    let path = seenEnds.get(raw);
    if (path !== undefined) return path;
    const n = tryNormalize(normalize, raw);
    if (n === undefined) outside.add(raw);
    path = n ?? raw;
    seenEnds.set(raw, path);
    return path;
  };
  for (const e of edges) {
    const edge = { ...e, from: end(e.from), to: end(e.to) };
    (out.get(edge.from) ?? out.set(edge.from, []).get(edge.from)!).push(edge);
    (incoming.get(edge.to) ?? incoming.set(edge.to, []).get(edge.to)!).push(edge);
  }
  const seen = new Set(targets);
  let frontier = [...targets].sort();
  for (let hops = 1; hops <= maxHops && frontier.length; hops++) {
    const next: string[] = [];
    for (const path of frontier) {
      // What the file uses: dependencies, interfaces and base types (P1), callees (P2).
      for (const e of out.get(path) ?? []) {
        const [reason, base, priority] = classify(e.kind);
        offer({ path: e.to, reason, base, hops, priority, target: false, symbols: [] });
        if (!seen.has(e.to) && !outside.has(e.to)) next.push(e.to);
        seen.add(e.to);
      }
      // Who uses the file: callers, one hop only (spec: "Caller/callee one hop").
      if (hops === 1) {
        for (const e of incoming.get(path) ?? []) {
          offer({ path: e.from, reason: 'caller', base: WEIGHTS.caller, hops, priority: 'P2', target: false, symbols: [] });
        }
      }
    }
    frontier = [...new Set(next)].sort();
  }
}

function classify(kind: DependencyEdge['kind']): [InclusionReason, number, Priority] {
  switch (kind) {
    case 'import':
      return ['dependency', WEIGHTS.dependency, 'P1'];
    case 'interface':
      return ['interface', WEIGHTS.interface, 'P1'];
    case 'base_type':
      return ['base_type', WEIGHTS.interface, 'P1'];
    case 'call':
      return ['caller', WEIGHTS.caller, 'P2'];
  }
}

function dirOf(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Appends to `list` each of `more` whose key is not in `keys` yet (amortised O(1) each). */
function addSymbols(list: IndexedSymbol[], keys: Set<string>, more: readonly IndexedSymbol[]): IndexedSymbol[] {
  for (const s of more) {
    const k = `${s.name}\u0000${s.path}\u0000${s.startLine}`;
    if (keys.has(k)) continue;
    keys.add(k);
    list.push(s);
  }
  return list;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const g = groups.get(k);
    if (g) g.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}
