// Selection step 0 (spec 001): establish candidates from the plan step, the user's selection and
// the index's graph, deduplicated by normalised path. Pure data in, data out.
import { AmbiguousTargetError, invalidParams } from '../errors.ts';
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
 * relative form (it throws for paths outside the jail, so those surface as exclusions upstream).
 */
export function establishCandidates(
  input: BuildContextInput,
  files: ReadonlyMap<string, IndexedFile>,
  normalize: (path: string) => string,
): { candidates: Candidate[]; targetFiles: string[]; targetSymbols: string[]; unresolved: { path: string; field: string }[] } {
  const byPath = new Map<string, Candidate>();
  const unresolved: { path: string; field: string }[] = [];
  const symbols = input.projectIndex.symbols ?? [];
  const edges = input.projectIndex.dependencies ?? [];

  const offer = (c: Omit<Candidate, 'file'>): void => {
    const file = files.get(c.path);
    if (!file) return;
    const prev = byPath.get(c.path);
    if (!prev) {
      byPath.set(c.path, { ...c, file });
      return;
    }
    // Dedupe by normalised path: keep the strongest claim, merge target symbols.
    const better = c.base > prev.base || (c.base === prev.base && c.hops < prev.hops);
    const merged = better ? { ...c, file } : prev;
    merged.target = prev.target || c.target;
    merged.symbols = dedupeSymbols([...prev.symbols, ...c.symbols]);
    if (merged.target) merged.priority = 'P0';
    byPath.set(c.path, merged);
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
  (input.planStep?.targetSymbols ?? []).forEach((name, i) => {
    const matches = symbols.filter((s) => s.name === name);
    const chosen = selections.filter((s) => s.name === name).map((s) => normalize(s.path));
    const defs = chosen.length ? matches.filter((m) => chosen.includes(normalize(m.path))) : matches;
    if (defs.length === 0) {
      throw invalidParams(`planStep.targetSymbols[${i}]`, `symbol ${JSON.stringify(name)} is not in the project index; index it or name the file instead`);
    }
    if (defs.length > 1) {
      const list = defs.map((d) => ({ name: d.name, path: d.path, startLine: d.startLine, kind: d.kind ?? null }));
      throw new AmbiguousTargetError(
        `The step targets symbol ${JSON.stringify(name)}, which is defined in ${defs.length} places; choose one (userSelectedTargets.symbols) and retry.`,
        { details: { symbol: name, candidates: list } },
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
  explore(targets, edges, normalize, input.maxHops ?? 2, offer);

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
    const path = normalize(input.activeFile);
    offer({ path, reason: 'user_selected', base: WEIGHTS.other, hops: 1, priority: 'P3', target: false, symbols: [] });
  }

  return { candidates: [...byPath.values()], targetFiles, targetSymbols, unresolved };
}

function explore(
  targets: string[],
  edges: readonly DependencyEdge[],
  normalize: (path: string) => string,
  maxHops: number,
  offer: (c: Omit<Candidate, 'file'>) => void,
): void {
  const out = new Map<string, DependencyEdge[]>();
  const incoming = new Map<string, DependencyEdge[]>();
  for (const e of edges) {
    const edge = { ...e, from: normalize(e.from), to: normalize(e.to) };
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
        if (!seen.has(e.to)) next.push(e.to);
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

function dedupeSymbols(list: IndexedSymbol[]): IndexedSymbol[] {
  const seen = new Set<string>();
  return list.filter((s) => {
    const k = `${s.name}\u0000${s.path}\u0000${s.startLine}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
