import { invalidParams } from '../errors.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { copyJson, jsonEqual } from './json-data.ts';
import { isPlainObject } from './json-safety.ts';
import type { JsonTape } from './json-tape.ts';
import { recordTape, tapeMatches } from './json-tape.ts';
import type { AgentContext, ContextChanges, ContextDiff, Namespace } from './model.ts';
import { NAMESPACES, isNamespace } from './model.ts';

/**
 * Fields that are maps from a name to a value: their entries are diffed one by one. Every other
 * object-valued field (`usage`, `performance`, `dependencyMap`) is one value that changes whole.
 */
const MAP_FIELDS: ReadonlySet<string> = new Set(['reasoning.entities', 'reasoning.confidenceScores', 'llm.cache']);

/** Formats a diff the spec's way: `[intent_detection] Changes: reasoning.intents_added=1`. */
export function summarizeDiff(diff: Pick<ContextDiff, 'agentId' | 'changes'>): string {
  const parts: string[] = [];
  const namespaces = [...NAMESPACES, ...Object.keys(diff.changes).filter((ns) => !(NAMESPACES as readonly string[]).includes(ns)).sort()];
  for (const ns of namespaces) {
    const counters = diff.changes[ns];
    if (counters === undefined) continue;
    for (const name of Object.keys(counters).sort()) parts.push(`${ns}.${name}=${counters[name]}`);
  }
  return `[${diff.agentId}] Changes: ${parts.length === 0 ? 'none' : parts.join(', ')}`;
}

/** What one agent changed in a context, as captured by {@link DiffTracker.capture}. */
export class CapturedDiff implements ContextDiff {
  /** When the diff was captured, ISO-8601. */
  readonly timestamp: string;
  /** Agent that made the changes. */
  readonly agentId: string;
  /** Change counters by namespace, e.g. `{ reasoning: { intents_added: 1 } }`. Only non-zero counters. */
  readonly changes: ContextChanges;
  /** Changed fields as `namespace.key`, in namespace order: what goes into `AgentRun.keysWritten`. */
  readonly keysWritten: readonly string[];

  /** Built by {@link DiffTracker}; exposed for rebuilding from an audit entry. */
  constructor(diff: ContextDiff, keysWritten: readonly string[]) {
    this.timestamp = diff.timestamp;
    this.agentId = diff.agentId;
    this.changes = diff.changes;
    this.keysWritten = keysWritten;
  }

  /** True if the agent changed nothing. */
  get isEmpty(): boolean {
    return this.keysWritten.length === 0;
  }

  /** The spec's one-line summary, e.g. `[intent_detection] Changes: reasoning.intents_added=1`. */
  summary(): string {
    return summarizeDiff(this);
  }

  /** The plain audit entry (spec `ContextDiff`) to append to `audit.diffs`. */
  toJSON(): ContextDiff {
    return { timestamp: this.timestamp, agentId: this.agentId, changes: structuredClone(this.changes) };
  }
}

/** Options of {@link DiffTracker}. */
export interface DiffTrackerOptions {
  /** Clock for diff timestamps; inject one for reproducible audit trails. */
  now?: () => Date;
}

/**
 * Captures what an agent changed in a context (spec `DiffTracker`): snapshot before the agent
 * runs, {@link capture} after. Arrays are compared item by item (items with a string `id` are
 * matched by id, so an edited item counts as modified; other items by value), map fields entry by
 * entry, everything else as one value.
 */
export class DiffTracker {
  private baseline: AgentContext;
  /**
   * Tapes (json-tape.ts) of the baseline's fields by namespace then key, recorded from the
   * baseline's private copies, which nothing ever changes. A field of the live context that still
   * matches its tape is unchanged without a comparison walk over two object graphs; a field
   * without a tape (not plain JSON data) or that does not match is compared as before.
   */
  private tapes: Map<string, Map<string, JsonTape>>;
  /**
   * Member names of each baseline namespace that is a plain object: as the live namespace listed
   * them when it was copied, and sorted. A live namespace listing the same names in the same order
   * has the same union with the baseline's, so the sorted list is reused instead of rebuilt.
   */
  private keyLists: Map<string, KeyList>;
  private readonly now: () => Date;

  /** Snapshots `context` as the baseline. */
  constructor(context: AgentContext, options: DiffTrackerOptions = {}) {
    this.baseline = copyJson(context);
    this.tapes = new Map();
    this.keyLists = new Map();
    for (const ns of NAMESPACES) {
      const fields: unknown = this.baseline[ns];
      const nsTapes = new Map<string, JsonTape>();
      if (isPlainObject(fields)) {
        const live = Object.keys(fields);
        for (const key of live) {
          const tape = recordTape(fields[key]);
          if (tape !== undefined) nsTapes.set(key, tape);
        }
        this.keyLists.set(ns, { live, sorted: [...live].sort() });
      }
      this.tapes.set(ns, nsTapes);
    }
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Diffs `context` against the baseline, attributes it to `agentId`, and makes `context` the new
   * baseline, so consecutive agents each get only their own changes. Changed values are compared
   * as RFC 8785 text, so one JCS cannot represent (NaN, a lone surrogate) is UNSUPPORTED_VALUE.
   */
  capture(agentId: string, context: AgentContext): CapturedDiff {
    if (typeof agentId !== 'string' || agentId === '') throw invalidParams('agentId', 'must be a non-empty string');
    const changes: ContextChanges = {};
    const keysWritten: string[] = [];
    // The next baseline reuses the baseline's own private copy of every unchanged field and copies
    // only what changed, so a capture costs one comparison walk, not a comparison and a full copy.
    const next: Record<string, unknown> = {};
    const nextTapes = new Map<string, Map<string, JsonTape>>();
    const nextKeyLists = new Map<string, KeyList>();
    for (const key of Object.keys(context)) if (!isNamespace(key)) setMember(next, key, copyJson((context as unknown as Record<string, unknown>)[key]));
    for (const ns of NAMESPACES) {
      const beforeValue: unknown = this.baseline[ns];
      const before = (isPlainObject(beforeValue) ? beforeValue : {}) as unknown as Record<string, unknown>;
      const tapes = this.tapes.get(ns);
      const afterValue: unknown = context[ns];
      const afterIsObject = isPlainObject(afterValue);
      const after = (afterIsObject ? afterValue : {}) as Record<string, unknown>;
      const live = Object.keys(after);
      const known = this.keyLists.get(ns);
      // Same names in the same order as the live namespace the baseline was copied from: the
      // baseline has exactly these names, so the union is the remembered sorted list.
      const sameKeys = known !== undefined && sameList(known.live, live);
      const keys = sameKeys ? known.sorted : unionSorted(Object.keys(before), live);
      // Built only once a field differs: until then every field is the baseline's own, and a
      // namespace with no change at all keeps the baseline's namespace object and tapes whole.
      let nextNs: Record<string, unknown> | undefined;
      let nextNsTapes: Map<string, JsonTape> | undefined;
      for (let k = 0; k < keys.length; k++) {
        const key = keys[k]!;
        const inBefore = Object.hasOwn(before, key);
        const tape = inBefore ? tapes?.get(key) : undefined;
        // A matching tape means the value equals the baseline's (so diffField would find nothing).
        const unchanged = tape !== undefined && tapeMatches(after[key], tape);
        const itemTexts: string[] = unchanged ? NO_TEXTS : [];
        const counters = unchanged ? undefined : diffField(ns, key, before[key], after[key], itemTexts);
        const inAfter = Object.hasOwn(after, key);
        if (nextNs === undefined && counters === undefined && inBefore && inAfter) continue;
        if (nextNs === undefined || nextNsTapes === undefined) {
          nextNs = {};
          nextNsTapes = new Map();
          // Every earlier field was unchanged and in both: the baseline's own copies carry over.
          for (let j = 0; j < k; j++) {
            const earlier = keys[j]!;
            setMember(nextNs, earlier, before[earlier]);
            const earlierTape = tapes?.get(earlier);
            if (earlierTape !== undefined) nextNsTapes.set(earlier, earlierTape);
          }
        }
        if (inAfter) {
          if (counters === undefined && inBefore) {
            setMember(nextNs, key, before[key]);
            if (tape !== undefined) nextNsTapes.set(key, tape);
          } else {
            const copy = copyJson(after[key]);
            setMember(nextNs, key, copy);
            const copyTape = recordTape(copy);
            if (copyTape !== undefined) {
              nextNsTapes.set(key, copyTape);
              // The copy is plain JSON data equal to the live array its item texts were just written
              // from, so they are its items' texts too: the next capture need not write them again.
              if (Array.isArray(copy) && copy.length === itemTexts.length) rememberItemTexts(copy, itemTexts);
            }
          }
        }
        if (counters === undefined) continue;
        keysWritten.push(`${ns}.${key}`);
        Object.assign((changes[ns] ??= {}), counters);
      }
      if (afterIsObject) {
        nextKeyLists.set(ns, sameKeys ? known : { live, sorted: keys.length === live.length ? keys : [...live].sort() });
        if (nextNs === undefined && isPlainObject(beforeValue)) {
          // No field changed and every name is in both (the union adds none): the baseline's
          // namespace carries over whole; the order of its names never matters to a lookup.
          next[ns] = beforeValue;
          nextTapes.set(ns, tapes ?? new Map());
        } else {
          next[ns] = nextNs ?? {};
          nextTapes.set(ns, nextNsTapes ?? new Map());
        }
      } else if (afterValue !== undefined || Object.hasOwn(context, ns)) next[ns] = copyJson(afterValue);
    }
    this.baseline = next as unknown as AgentContext;
    this.tapes = nextTapes;
    this.keyLists = nextKeyLists;
    return new CapturedDiff({ timestamp: this.now().toISOString(), agentId, changes }, keysWritten);
  }
}

/** A namespace's member names, in the live namespace's order and sorted; see DiffTracker.keyLists. */
interface KeyList {
  readonly live: readonly string[];
  readonly sorted: readonly string[];
}

/** Shared empty list for fields whose item texts are not needed; never written to. */
const NO_TEXTS: string[] = [];

function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The keys of both lists, once each, sorted. */
function unionSorted(a: string[], b: readonly string[]): readonly string[] {
  return [...new Set([...a, ...b])].sort();
}

/** Sets `key` as an own data member, even `__proto__` (plain assignment would change the prototype). */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/**
 * Counters for one field, or undefined if it did not change. When `after` is an array compared
 * item by item, the RFC 8785 text of each of its items is pushed to `afterTexts`.
 */
function diffField(ns: Namespace, key: string, before: unknown, after: unknown, afterTexts: string[]): Record<string, number> | undefined {
  // Key order does not count, as in RFC 8785 text; untouched strings compare by reference.
  if (jsonEqual(before, after)) return undefined;
  let counts: { added: number; removed: number; modified: number } | undefined;
  if ((Array.isArray(before) || before === undefined) && Array.isArray(after)) counts = diffArrays(before ?? [], after, afterTexts);
  else if (Array.isArray(before) && after === undefined) counts = diffArrays(before, [], afterTexts);
  else if (MAP_FIELDS.has(`${ns}.${key}`) && (isPlainObject(before) || before === undefined) && (isPlainObject(after) || after === undefined)) {
    counts = diffMaps(before ?? {}, after ?? {});
  }
  if (counts === undefined) {
    const kind = before === undefined ? 'set' : after === undefined ? 'cleared' : 'changed';
    return { [`${key}_${kind}`]: 1 };
  }
  const out: Record<string, number> = {};
  if (counts.added > 0) out[`${key}_added`] = counts.added;
  if (counts.removed > 0) out[`${key}_removed`] = counts.removed;
  if (counts.modified > 0) out[`${key}_modified`] = counts.modified;
  // A reorder with identical items changes the text but no item; still report that the field was written.
  return Object.keys(out).length > 0 ? out : { [`${key}_changed`]: 1 };
}

function identity(item: unknown, text: string): string {
  if (isPlainObject(item) && typeof item.id === 'string') return `id:${item.id}`;
  return `v:${text}`;
}

/**
 * RFC 8785 text of baseline array items, by item. Baseline items are the tracker's private copies,
 * never changed after they are made, so an item's text can be kept for as long as the item lives
 * (a live context's items can change in place, so theirs are always written afresh).
 */
const baselineItemTexts = new WeakMap<object, { text: string; tape?: JsonTape }>();

function baselineItemText(item: unknown): string {
  if (item === null || typeof item !== 'object') return canonicalize(item);
  let known = baselineItemTexts.get(item);
  if (known === undefined) baselineItemTexts.set(item, (known = { text: canonicalize(item) }));
  return known.text;
}

/**
 * RFC 8785 text of a live array item: the text of the baseline item at the same position when the
 * live item still matches that item's tape (the usual case for arrays that only grew), else
 * written afresh.
 */
function liveItemText(item: unknown, baselineItem: unknown): string {
  if (item !== null && typeof item === 'object' && baselineItem !== null && typeof baselineItem === 'object') {
    const known = baselineItemTexts.get(baselineItem);
    if (known?.tape !== undefined && tapeMatches(item, known.tape)) return known.text;
  }
  return canonicalize(item);
}

/** Remembers the texts of a new baseline array's object items (see {@link baselineItemTexts}). */
function rememberItemTexts(items: readonly unknown[], texts: readonly string[]): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (item === null || typeof item !== 'object') continue;
    const tape = recordTape(item);
    baselineItemTexts.set(item, tape === undefined ? { text: texts[i]! } : { text: texts[i]!, tape });
  }
}

function diffArrays(before: readonly unknown[], after: readonly unknown[], afterTexts: string[]): { added: number; removed: number; modified: number } {
  const pool = new Map<string, string[]>();
  for (const item of before) {
    const text = baselineItemText(item);
    const id = identity(item, text);
    const bucket = pool.get(id);
    if (bucket) bucket.push(text);
    else pool.set(id, [text]);
  }
  let added = 0;
  let modified = 0;
  for (let i = 0; i < after.length; i++) {
    const item = after[i];
    const text = liveItemText(item, before[i]);
    afterTexts.push(text);
    const bucket = pool.get(identity(item, text));
    if (bucket === undefined || bucket.length === 0) {
      added++;
      continue;
    }
    const exact = bucket.indexOf(text);
    if (exact >= 0) bucket.splice(exact, 1);
    else {
      bucket.shift();
      modified++;
    }
  }
  let removed = 0;
  for (const bucket of pool.values()) removed += bucket.length;
  return { added, removed, modified };
}

function diffMaps(before: Record<string, unknown>, after: Record<string, unknown>): { added: number; removed: number; modified: number } {
  let added = 0;
  let removed = 0;
  let modified = 0;
  for (const key of Object.keys(after)) {
    if (!Object.hasOwn(before, key)) added++;
    else if (!jsonEqual(before[key], after[key])) modified++;
  }
  for (const key of Object.keys(before)) if (!Object.hasOwn(after, key)) removed++;
  return { added, removed, modified };
}
