import { expectFunction, expectObject, expectOptions, expectString, kindOf, wrongKind } from '../args.ts';
import { CtxgateError, invalidParams, isDataCloneError, quietCause } from '../errors.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { copyJson, jsonEqual } from './json-data.ts';
import { inheritsEnumerableMembers, isPlainObject } from './json-safety.ts';
import type { JsonTape } from './json-tape.ts';
import { TAPE_ARRAY, recordItemTape, recordTape, tapeMatches } from './json-tape.ts';
import type { AgentContext, ContextChanges, ContextDiff, Namespace } from './model.ts';
import { NAMESPACES } from './model.ts';

/**
 * Fields that are maps from a name to a value: their entries are diffed one by one. Every other
 * object-valued field (`usage`, `performance`, `dependencyMap`) is one value that changes whole.
 */
const MAP_FIELDS: ReadonlySet<string> = new Set(['reasoning.entities', 'reasoning.confidenceScores', 'llm.cache']);

/**
 * Formats a diff the spec's way: `[intent_detection] Changes: reasoning.intents_added=1`.
 * INVALID_PARAMS unless `diff.agentId` is a string and `diff.changes` maps namespaces to objects of
 * numeric counters (the field named, e.g. `diff.changes.reasoning.intents_added`).
 */
export function summarizeDiff(diff: Pick<ContextDiff, 'agentId' | 'changes'>): string {
  expectObject(diff, 'diff');
  expectString(diff.agentId, 'diff.agentId');
  const changes: unknown = diff.changes;
  expectObject(changes, 'diff.changes');
  const parts: string[] = [];
  const namespaces = [...NAMESPACES, ...Object.keys(changes).filter((ns) => !(NAMESPACES as readonly string[]).includes(ns)).sort()];
  for (const ns of namespaces) {
    const counters = changes[ns];
    if (counters === undefined) continue;
    expectObject(counters, `diff.changes.${ns}`);
    for (const name of Object.keys(counters).sort()) {
      const n = counters[name];
      if (typeof n !== 'number') throw wrongKind(`diff.changes.${ns}.${name}`, 'a number', n);
      parts.push(`${ns}.${name}=${n}`);
    }
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
  /**
   * The baseline, namespace by namespace (in NAMESPACES order): the tracker's private copies,
   * which nothing ever changes, with the tapes (json-tape.ts) of their fields. A live field that
   * still matches its tape is unchanged without a comparison walk over two object graphs; a field
   * without a tape (not plain JSON data) or that does not match is compared the full way.
   */
  private namespaces: readonly NamespaceBaseline[];
  private readonly now: () => Date;

  /**
   * Snapshots `context` as the baseline. INVALID_PARAMS unless `context` is an object (`context`)
   * and `options` an object or undefined whose `now`, if given, is a function (`options.now`), and
   * naming the place if the context is nested deeper than MAX_WALK_DEPTH (200) levels
   * (json-safety.ts); UNSUPPORTED_VALUE if the context holds a value that cannot be copied (a
   * function inside a class instance, a platform object).
   */
  constructor(context: AgentContext, options: DiffTrackerOptions = {}) {
    expectObject(context, 'context');
    expectOptions(options);
    if (options.now !== undefined) expectFunction(options.now, 'options.now');
    try {
      this.namespaces = NAMESPACES.map((ns) => {
        const copy: unknown = copyJson(context[ns], `context.${ns}`, 1);
        if (!isPlainObject(copy)) return { value: copy, live: NO_NAMES, keys: NO_NAMES, tapes: [] };
        const live = Object.keys(copy);
        const keys = [...live].sort();
        return { value: copy, live, keys, tapes: keys.map((key) => recordTape(copy[key])) };
      });
    } catch (error) {
      throw copyFailure(error);
    }
    this.now = options.now ?? (() => new Date());
  }

  /**
   * Diffs `context` against the baseline, attributes it to `agentId`, and makes `context` the new
   * baseline, so consecutive agents each get only their own changes. Changed values are compared
   * as RFC 8785 text, so one JCS cannot represent (NaN, a lone surrogate) is UNSUPPORTED_VALUE, as
   * is one that cannot be copied into the baseline. INVALID_PARAMS unless `agentId` is a non-empty
   * string and `context` an object, and naming the place where a changed field is nested deeper
   * than MAX_WALK_DEPTH (200) levels. A failed capture keeps the baseline it had, and never modifies
   * `context`.
   */
  capture(agentId: string, context: AgentContext): CapturedDiff {
    if (typeof agentId !== 'string' || agentId === '') throw invalidParams('agentId', 'must be a non-empty string');
    expectObject(context, 'context');
    let next: NamespaceBaseline[];
    let changes: ContextChanges;
    let keysWritten: string[];
    try {
      ({ next, changes, keysWritten } = diffContext(this.namespaces, context));
    } catch (error) {
      throw copyFailure(error);
    }
    const timestamp = isoTimestamp(this.now());
    // Only now, with nothing left to fail, does the new baseline replace the old.
    this.namespaces = next;
    return new CapturedDiff({ timestamp, agentId, changes }, keysWritten);
  }
}

/** ISO-8601 text of what the clock returned; INVALID_PARAMS (`options.now`) unless it is a valid Date. */
function isoTimestamp(at: unknown): string {
  // By its tag, not instanceof, so a Date from another realm (a vm context, an iframe) still counts.
  if (Object.prototype.toString.call(at) !== '[object Date]' || Number.isNaN(Date.prototype.getTime.call(at))) {
    throw invalidParams('options.now', `must return a valid Date (returned ${kindOf(at)}).`, { expected: 'a valid Date', got: kindOf(at) });
  }
  return Date.prototype.toISOString.call(at);
}

/**
 * The diff of `context` against the baseline `namespaces`, and the baseline that follows it;
 * modifies neither. A module function, not a method, so it is not an entry point of its own.
 */
function diffContext(namespaces: readonly NamespaceBaseline[], context: AgentContext): { next: NamespaceBaseline[]; changes: ContextChanges; keysWritten: string[] } {
  const changes: ContextChanges = {};
  const keysWritten: string[] = [];
  // for-in lists exactly a plain object's own members unless Object.prototype has enumerable ones.
  const forInIsOwn = !inheritsEnumerableMembers();
  const next: NamespaceBaseline[] = [];
  for (let i = 0; i < NAMESPACES.length; i++) {
    const ns = NAMESPACES[i]!;
    const base = namespaces[i]!;
    const afterValue: unknown = context[ns];
    // The usual case: the live namespace has the very names, in the same order, of the one the
    // baseline was copied from, and each field still matches its tape: the baseline carries over.
    // Otherwise the fields proven unchanged before the first that is not are not proven again.
    let proven = 0;
    if (forInIsOwn && base.live !== NO_NAMES && isPlainObject(afterValue) && sameNames(afterValue, base.live)) {
      proven = matchingFields(afterValue, base);
      if (proven === base.keys.length) {
        next.push(base);
        continue;
      }
    }
    next.push(diffNamespace(ns, base, afterValue, proven, context, changes, keysWritten));
  }
  return { next, changes, keysWritten };
}

/**
 * What to throw for `error`, raised while copying a context into a baseline: a DataCloneError
 * (structuredClone refusing what it was handed for a value that is not plain data, such as a class
 * instance holding a function) is UNSUPPORTED_VALUE on `context`; anything else is unchanged.
 */
function copyFailure(error: unknown): unknown {
  if (!isDataCloneError(error)) return error;
  return new CtxgateError('UNSUPPORTED_VALUE', 'context: holds a value that cannot be copied (a function or a symbol inside a class instance, a platform object); a context is plain JSON data.', {
    details: { field: 'context' },
    cause: quietCause(error),
  });
}

/** The baseline of one namespace; see {@link DiffTracker}. */
interface NamespaceBaseline {
  /** The private copy: a plain object built in `keys` order, or whatever else the namespace was (undefined if absent). */
  readonly value: unknown;
  /** Member names as the live namespace listed them when it was copied ({@link NO_NAMES} if not a plain object). */
  readonly live: readonly string[];
  /** The same names sorted, and the tape of each field's copy (undefined where it has none). */
  readonly keys: readonly string[];
  readonly tapes: readonly (JsonTape | undefined)[];
}

/** Names of a namespace that is not a plain object. */
const NO_NAMES: readonly string[] = [];

/** True if for-in lists exactly `names`, in order (allocation-free: no Object.keys). */
function sameNames(value: Record<string, unknown>, names: readonly string[]): boolean {
  let i = 0;
  for (const key in value) if (i >= names.length || names[i++] !== key) return false;
  return i === names.length;
}

/**
 * How many fields of `value` (which has the baseline's names), in sorted order, match the tapes
 * of the baseline's copies before the first that does not (or has no tape).
 */
function matchingFields(value: Record<string, unknown>, base: NamespaceBaseline): number {
  const { keys, tapes } = base;
  for (let k = 0; k < keys.length; k++) {
    const tape = tapes[k];
    if (tape === undefined || !tapeMatches(value[keys[k]!], tape)) return k;
  }
  return keys.length;
}

/**
 * Diffs one namespace field by field, adds what changed to `changes` and `keysWritten`, and
 * returns the namespace's next baseline: the baseline's own copy of every unchanged field and a
 * copy of every changed one. The first `proven` fields (in the baseline's sorted order, which the
 * live namespace shares) are already proven unchanged.
 */
function diffNamespace(
  ns: Namespace,
  base: NamespaceBaseline,
  afterValue: unknown,
  proven: number,
  context: AgentContext,
  changes: ContextChanges,
  keysWritten: string[],
): NamespaceBaseline {
  const before = (isPlainObject(base.value) ? base.value : {}) as Record<string, unknown>;
  const afterIsObject = isPlainObject(afterValue);
  const after = (afterIsObject ? afterValue : {}) as Record<string, unknown>;
  const live = Object.keys(after);
  // Same names in the same order as the live namespace the baseline was copied from: the
  // baseline has exactly these names, so the union is the remembered sorted list.
  const sameKeys = base.live !== NO_NAMES && sameList(base.live, live);
  const keys = sameKeys ? base.keys : unionSorted(Object.keys(before), live);
  const tapeOf = sameKeys ? undefined : new Map(base.keys.map((key, k) => [key, base.tapes[k]]));
  const nextValue: Record<string, unknown> = {};
  const nextKeys: string[] = [];
  const nextTapes: (JsonTape | undefined)[] = [];
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const inBefore = Object.hasOwn(before, key);
    const tape = !inBefore ? undefined : tapeOf === undefined ? base.tapes[k] : tapeOf.get(key);
    // A matching tape means the value equals the baseline's (so diffField would find nothing).
    const unchanged = tape !== undefined && (k < proven || tapeMatches(after[key], tape));
    const items: ItemNotes | undefined = unchanged ? undefined : { texts: [], same: [] };
    // Too deep a changed field is refused by its copy below (copyJson names where); the
    // comparisons stop well short of an engine's stack on such data, so it is walked only there.
    const counters = items === undefined ? undefined : diffField(ns, key, before[key], after[key], items);
    if (Object.hasOwn(after, key)) {
      nextKeys.push(key);
      if (counters === undefined && inBefore) {
        setMember(nextValue, key, before[key]);
        nextTapes.push(tape);
      } else {
        const value = after[key];
        const { copy, tape: copyTape } =
          Array.isArray(value) && items !== undefined && items.texts.length === value.length
            ? copyItems(value, items, `context.${ns}.${key}`)
            : copyField(value, `context.${ns}.${key}`);
        setMember(nextValue, key, copy);
        nextTapes.push(copyTape);
      }
    }
    if (counters === undefined) continue;
    keysWritten.push(`${ns}.${key}`);
    Object.assign((changes[ns] ??= {}), counters);
  }
  if (afterIsObject) return { value: nextValue, live: sameKeys ? base.live : live, keys: nextKeys, tapes: nextTapes };
  const present = afterValue !== undefined || Object.hasOwn(context, ns);
  return { value: present ? copyJson(afterValue, `context.${ns}`, 1) : undefined, live: NO_NAMES, keys: NO_NAMES, tapes: [] };
}

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
 * What diffing a live array learned about each item, by position: its RFC 8785 text, and the
 * baseline item it was proven equal to (by that item's tape), or {@link NOT_SAME}.
 */
interface ItemNotes {
  readonly texts: string[];
  readonly same: unknown[];
}

/** In {@link ItemNotes.same}: the live item equals no baseline item it was compared with. */
const NOT_SAME: unique symbol = Symbol('not the same');

/**
 * Counters for one field, or undefined if it did not change. When `after` is an array compared
 * item by item, what was learned about each of its items is pushed to `items`.
 */
function diffField(ns: Namespace, key: string, before: unknown, after: unknown, items: ItemNotes): Record<string, number> | undefined {
  // Key order does not count, as in RFC 8785 text; untouched strings compare by reference.
  if (jsonEqual(before, after)) return undefined;
  let counts: { added: number; removed: number; modified: number } | undefined;
  if ((Array.isArray(before) || before === undefined) && Array.isArray(after)) counts = diffArrays(before ?? [], after, items);
  else if (Array.isArray(before) && after === undefined) counts = diffArrays(before, [], items);
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

/** The id an array item is matched by (items with a string `id`), or undefined to match it by value. */
function itemId(item: unknown): string | undefined {
  return isPlainObject(item) && typeof item.id === 'string' ? item.id : undefined;
}

/**
 * RFC 8785 text and tape of baseline array items, by item. Baseline items are the tracker's
 * private copies, never changed after they are made, so what is known about one can be kept for as
 * long as the item lives (a live context's items can change in place, so theirs are always proven
 * against a baseline item's tape or written afresh).
 */
const baselineItems = new WeakMap<object, { text: string; tape?: JsonTape }>();

function baselineItemText(item: unknown): string {
  if (item === null || typeof item !== 'object') return canonicalize(item);
  let known = baselineItems.get(item);
  if (known === undefined) baselineItems.set(item, (known = { text: canonicalize(item) }));
  return known.text;
}

function diffArrays(before: readonly unknown[], after: readonly unknown[], items: ItemNotes): { added: number; removed: number; modified: number } {
  // Items with an id are matched by id (an edited item counts as modified); others by their text.
  const byId = new Map<string, string[]>();
  const byText = new Map<string, number>();
  for (const item of before) {
    const text = baselineItemText(item);
    const id = itemId(item);
    if (id === undefined) byText.set(text, (byText.get(text) ?? 0) + 1);
    else {
      const bucket = byId.get(id);
      if (bucket) bucket.push(text);
      else byId.set(id, [text]);
    }
  }
  let added = 0;
  let modified = 0;
  for (let i = 0; i < after.length; i++) {
    const item = after[i];
    // The usual case for arrays that only grew: the live item still equals the baseline item at
    // its position, whose text (and copy, for the next baseline) are reused.
    let same: unknown = NOT_SAME;
    let text: string | undefined;
    const base = i < before.length ? before[i] : undefined;
    if (item !== null && typeof item === 'object' && base !== null && typeof base === 'object') {
      const known = baselineItems.get(base);
      if (known?.tape !== undefined && tapeMatches(item, known.tape)) {
        text = known.text;
        same = base;
      }
    }
    text ??= canonicalize(item);
    items.texts.push(text);
    items.same.push(same);
    const id = itemId(item);
    if (id === undefined) {
      const left = byText.get(text);
      if (left === undefined || left === 0) added++;
      else byText.set(text, left - 1);
      continue;
    }
    const bucket = byId.get(id);
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
  for (const left of byText.values()) removed += left;
  for (const bucket of byId.values()) removed += bucket.length;
  return { added, removed, modified };
}

/** A private copy of changed field `field` for the next baseline, and its tape (undefined if it has none). */
function copyField(value: unknown, field: string): { copy: unknown; tape: JsonTape | undefined } {
  const copy = copyJson(value, field, 2);
  return { copy, tape: recordTape(copy) };
}

/**
 * {@link copyField} for a changed array, item by item: an item proven equal to a baseline item
 * reuses that item's copy and tape; any other is copied and recorded, and its text (just written
 * by diffArrays) remembered, so the next capture neither copies, records nor writes it again. The
 * array's tape is its items' tapes in a row, exactly what recording the whole copy would give.
 */
function copyItems(after: readonly unknown[], items: ItemNotes, field: string): { copy: unknown[]; tape: JsonTape | undefined } {
  const n = after.length;
  const copy = new Array<unknown>(n);
  let tape: unknown[] | undefined = [TAPE_ARRAY, n];
  for (let i = 0; i < n; i++) {
    const same = items.same[i];
    let itemTape: JsonTape | undefined;
    if (same !== NOT_SAME) {
      copy[i] = same;
      itemTape = baselineItems.get(same as object)!.tape;
    } else {
      const item = copyJson(after[i], `${field}[${i}]`, 3);
      copy[i] = item;
      itemTape = recordItemTape(item);
      if (item !== null && typeof item === 'object') {
        baselineItems.set(item, itemTape === undefined ? { text: items.texts[i]! } : { text: items.texts[i]!, tape: itemTape });
      }
    }
    if (itemTape === undefined) tape = undefined;
    else if (tape !== undefined) for (let k = 0; k < itemTape.length; k++) tape.push(itemTape[k]);
  }
  return { copy, tape };
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
