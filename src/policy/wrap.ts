/**
 * Output wrappers (spec 000 §3): bound a tool's output by items and by serialised UTF-8 bytes and
 * stamp it with `_meta`. The byte limit covers the whole JSON text, `_meta` included, so a "3 KB"
 * tool never sends more than 3,072 bytes.
 */
import { expectArray, expectFunction, expectObject, expectOptionalString, expectOptions, expectString, kindOf } from '../args.ts';
import { invalidParams, isCtxgateError } from '../errors.ts';
import { isPlainObject } from '../store/json-safety.ts';
import { toJsonText, utf8ByteLength } from './bytes.ts';
import { expectInteger, expectOptionalFunction } from './checks.ts';
import { isoTimestamp, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { fitLists, shrinkStrings } from './fit.ts';
import { checkStrategy, DEFAULT_TOOL_LIMITS } from './limits.ts';
import type { SequenceSummaryName, ToolLimits, TruncationStrategy } from './limits.ts';
import { extraMeta } from './meta.ts';
import type { ListMeta, OutputMeta, WithMeta } from './meta.ts';

/** Options shared by the wrappers. Explicit values win over `limits`, which wins over the defaults. */
export interface WrapOptions {
  /** The tool's declared limits (from `defineToolLimits` or `ARIA_LIMITS.tools`). */
  limits?: ToolLimits;
  /** Most items kept per list (default: `limits.maxItems`, else 30). */
  maxItems?: number;
  /** Most bytes of the serialised output (default: `limits.maxBytes`, else 10 KB). */
  maxBytes?: number;
  /** How lists are cut (default: `limits.truncation`, else keep the head). */
  truncation?: TruncationStrategy;
  /** Clock for `_meta.timestamp`. */
  clock?: Clock;
}

/** Options of {@link wrapOutput}. */
export interface WrapOutputOptions<Item = unknown> extends WrapOptions {
  /**
   * For the `summarizeMiddle` strategy: stats of the items left out, merged into the summary
   * object after the counts (e.g. a route's security breakdown). Wins over a stats name in the
   * strategy (`summarize: 'route'`). It must return a plain object (else INVALID_PARAMS naming
   * `options.summarize`); `omitted`, `fromIndex` and `toIndex` in it are ignored, so the counts
   * always describe what was really left out.
   */
  summarize?: (middle: readonly Item[]) => Record<string, unknown>;
  /** Key of the summary object (default `${key}Summary`). */
  summaryKey?: string;
}

type Data = Record<string, unknown>;

interface Resolved {
  maxItems: number;
  maxBytes: number;
  truncation: TruncationStrategy;
  clock: Clock;
}

function resolve(options: WrapOptions): Resolved {
  expectOptions(options);
  if (options.limits !== undefined && options.limits !== null) expectObject(options.limits, 'options.limits');
  expectOptionalFunction(options.clock, 'options.clock');
  const limits = options.limits ?? DEFAULT_TOOL_LIMITS;
  const maxItems = options.maxItems ?? limits.maxItems;
  const maxBytes = options.maxBytes ?? limits.maxBytes;
  expectInteger(maxItems, 'maxItems', 0);
  expectInteger(maxBytes, 'maxBytes', 1);
  const truncation = options.truncation ?? limits.truncation;
  checkStrategy(truncation, 'truncation');
  return { maxItems, maxBytes, truncation, clock: options.clock ?? systemClock };
}

/**
 * Runs a wrapper. The wrappers serialise copies of `data` with `_meta` added, and items on their
 * own, so a cycle, a BigInt or too deep a nesting would be reported at a path in that copy (a
 * top-level cycle at `$.me.me`, a BigInt item at `$`). Such an UNSUPPORTED_VALUE is reported again
 * from `data` itself, at the path the caller can find; one that `data` alone does not cause (a
 * BigInt in stats a `summarize` callback returned) passes through as it was.
 */
export function withDataPaths<R>(data: Data, wrap: () => R): R {
  try {
    return wrap();
  } catch (error) {
    if (isCtxgateError(error, 'UNSUPPORTED_VALUE')) toJsonText(data);
    throw error;
  }
}

/** The output of a wrapper: a plain object holding the lists (INVALID_PARAMS naming `field` otherwise). */
export function assertData(data: unknown, field = 'data'): asserts data is Data {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    throw invalidParams(field, 'must be a plain object such as { systems: [...] }; wrap arrays and scalars in an object first');
  }
}

function listOf(data: Data, key: string): unknown[] {
  const list = data[key];
  if (!Array.isArray(list)) {
    throw invalidParams(key, `must be an array in the output; got ${list === null ? 'null' : typeof list}. Pass the key of the list to bound`);
  }
  return list;
}

/**
 * The items a strategy keeps when a list is longer than `max` (best first). `items` must be an
 * array, `max` a non-negative integer and `strategy` a valid strategy, checked by the schema of
 * `defineToolLimits` (else INVALID_PARAMS naming `items`, `max` or the strategy's field, e.g.
 * `strategy.order`): a negative or fractional `max` would otherwise drop items without saying so.
 */
export function selectItems<T>(items: readonly T[], max: number, strategy: TruncationStrategy): T[] {
  expectArray(items, 'items');
  expectInteger(max, 'max', 0);
  checkStrategy(strategy, 'strategy');
  return pickItems<T>(items, max, strategy);
}

/**
 * {@link selectItems} without its argument checks, for callers that made them already (the
 * wrappers check their strategy once, in `resolve`, rather than again for every list).
 */
export function pickItems<T>(items: readonly T[], max: number, strategy: TruncationStrategy): T[] {
  if (items.length <= max) return items.slice();
  if (strategy.kind !== 'topN') return items.slice(0, max);
  const { by, order } = strategy;
  const ranked = items.map((item, index) => {
    const raw = item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[by] : undefined;
    return { item, index, value: typeof raw === 'number' && !Number.isNaN(raw) ? raw : undefined };
  });
  ranked.sort((a, b) => {
    if (a.value === undefined || b.value === undefined) {
      // Items without a rank go last, in their original order.
      return a.value === b.value ? a.index - b.index : a.value === undefined ? 1 : -1;
    }
    return (order === 'desc' ? b.value - a.value : a.value - b.value) || a.index - b.index;
  });
  return ranked.slice(0, max).map((r) => r.item);
}

function listMeta(count: number, from: number): ListMeta {
  return count < from ? { count, truncated: true, truncatedFrom: from } : { count };
}

function baseMeta(extra: Data, count: number, from: number, timestamp: string): OutputMeta {
  return count < from
    ? { ...extra, count, truncated: true, truncatedFrom: from, timestamp }
    : { ...extra, count, timestamp };
}

/**
 * Shortens long strings when even empty lists do not fit; marks the output truncated and lists the
 * shortened paths in `_meta.shortenedFields`.
 */
function shrinkToFit<T extends Data>(value: T, maxBytes: number): T {
  return shrinkStrings(value, maxBytes, (v, paths) => {
    if (paths.length === 0) return v;
    const meta = v._meta as OutputMeta;
    return {
      ...v,
      _meta: { ...meta, truncated: true, truncatedFrom: meta.truncatedFrom ?? meta.count, shortenedFields: [...paths] },
    };
  }).value;
}

/**
 * Bounds the list `data[key]` and adds `_meta` (spec 000 §3):
 * `count` (items kept), `truncated` and `truncatedFrom` (only when items were dropped) and an
 * ISO-8601 `timestamp`. The list is cut first by `maxItems` with the truncation strategy, then from
 * its end until the whole serialised output fits `maxBytes`. With the `summarizeMiddle` strategy a
 * long list keeps its head and tail and gains a summary object `{ omitted, fromIndex, toIndex,
 * ...stats }` under `summaryKey` (`_meta.summarized`, `_meta.originalCount`); the stats come from
 * `options.summarize`, else from the strategy's named stats (`summarize: 'route'`: the same
 * security breakdown and lowest-security system as `summarizeRoute`). The input is not modified.
 * A cycle, a BigInt or nesting deeper than 100 levels in `data` is UNSUPPORTED_VALUE naming its
 * path in `data`.
 *
 * @example wrapOutput({ systems }, 'systems', { limits: ARIA_LIMITS.tools['universe.search'] })
 */
export function wrapOutput<T extends Data, Item = unknown>(data: T, key: keyof T & string, options: WrapOutputOptions<Item> = {}): WithMeta<T> {
  assertData(data);
  expectString(key, 'key');
  const opts = resolve(options);
  expectOptionalFunction(options.summarize, 'options.summarize');
  if (options.summaryKey !== null) expectOptionalString(options.summaryKey, 'options.summaryKey');
  const items = listOf(data, key);
  const timestamp = isoTimestamp(opts.clock);
  const extra = extraMeta(data._meta);
  const strategy = opts.truncation;
  return withDataPaths(data, () => {
    if (strategy.kind === 'summarizeMiddle' && items.length > strategy.threshold) {
      return summarizeMiddle(data, key, items as Item[], strategy, opts, options, timestamp, extra) as WithMeta<T>;
    }
    const selected = pickItems(items, opts.maxItems, strategy);
    const n = items.length;
    const fit = fitLists(data, [{ key, items: selected }], ([k]) => baseMeta(extra, k as number, n, timestamp), opts.maxBytes);
    const k = fit ? (fit.counts[0] as number) : 0;
    const out = { ...data, [key]: selected.slice(0, k), _meta: baseMeta(extra, k, n, timestamp) };
    return (fit && utf8ByteLength(toJsonText(out)) <= opts.maxBytes ? out : shrinkToFit(out, opts.maxBytes)) as unknown as WithMeta<T>;
  });
}

/** The stats functions a `summarizeMiddle` strategy can name (plain data cannot hold a callback). */
const NAMED_SUMMARIES: Readonly<Record<SequenceSummaryName, (middle: readonly unknown[]) => Record<string, unknown>>> = Object.freeze({
  route: (middle: readonly unknown[]) => routeStats(middle),
});

function summarizeMiddle<Item>(
  data: Data,
  key: string,
  items: readonly Item[],
  strategy: Extract<TruncationStrategy, { kind: 'summarizeMiddle' }>,
  opts: Resolved,
  options: WrapOutputOptions<Item>,
  timestamp: string,
  extra: Data,
): Data {
  const n = items.length;
  const summaryKey = options.summaryKey ?? `${key}Summary`;
  const stats = options.summarize ?? (strategy.summarize === undefined ? undefined : NAMED_SUMMARIES[strategy.summarize]);
  // The item limit still applies to what is shown; split it like the configured head and tail.
  let head = Math.min(strategy.head, opts.maxItems);
  let tail = Math.min(strategy.tail, Math.max(0, opts.maxItems - head));
  const build = (h: number, t: number): Data => {
    const middle = items.slice(h, n - t);
    const kept = [...items.slice(0, h), ...items.slice(n - t)];
    const counts = { omitted: middle.length, fromIndex: h, toIndex: n - t - 1 };
    const extraStats: unknown = stats === undefined ? {} : stats(middle);
    if (!isPlainObject(extraStats)) {
      // Spread, a string would become { 0: 'a', 1: 'b', … } and an array its indexes.
      throw invalidParams('options.summarize', `must return a plain object of stats such as { security: { highsec: 3 } } (returned ${kindOf(extraStats)}).`, {
        got: kindOf(extraStats),
      });
    }
    // The counts go first (their place in the object) and last (their value): stats cannot override them.
    const summary = { ...counts, ...extraStats, ...counts };
    return {
      ...data,
      [key]: kept,
      [summaryKey]: summary,
      _meta: { ...baseMeta(extra, kept.length, n, timestamp), summarized: true, originalCount: n },
    };
  };
  let out = build(head, tail);
  while (utf8ByteLength(toJsonText(out)) > opts.maxBytes && head + tail > 0) {
    if (tail >= head && tail > 0) tail--;
    else head--;
    out = build(head, tail);
  }
  return utf8ByteLength(toJsonText(out)) <= opts.maxBytes ? out : shrinkToFit(out, opts.maxBytes);
}

/** One list of a multi-list output: its key and, optionally, its own item limit and strategy. */
export type ListSpec = string | readonly [key: string, maxItems: number] | { key: string; maxItems?: number; truncation?: TruncationStrategy };

/**
 * Bounds several lists of one output (e.g. buy and sell orders), each by its own item limit, then
 * all together by the byte limit, dropping from the longest list first so no side is starved.
 * `_meta.count` is the total kept, `_meta.truncatedFrom` the total before, and `_meta.lists` gives
 * each list's counts. `lists` must name at least one list (INVALID_PARAMS otherwise: an output
 * without lists is a scalar output, see {@link wrapScalarOutput}).
 *
 * @example wrapOutputMulti({ buyOrders, sellOrders }, [['buyOrders', 20], ['sellOrders', 20]], { maxBytes: 3 * KB })
 */
export function wrapOutputMulti<T extends Data>(data: T, lists: readonly ListSpec[], options: WrapOptions = {}): WithMeta<T> {
  assertData(data);
  expectArray(lists, 'lists');
  // No list named, nothing would be bounded by items and `count` (items in the output) would be 0
  // whatever the output holds.
  if (lists.length === 0) throw invalidParams('lists', 'must name at least one list to bound; use wrapScalarOutput for an output without lists', { got: 0 });
  const opts = resolve(options);
  const specs = lists.map((s, i) => {
    const spec =
      typeof s === 'string' ? { key: s } : Array.isArray(s) ? { key: s[0] as string, maxItems: s[1] as number } : (s as { key: string; maxItems?: number; truncation?: TruncationStrategy });
    if (spec === null || typeof spec !== 'object') {
      throw invalidParams(`lists[${i}]`, `must be a key, a [key, maxItems] pair or { key, maxItems?, truncation? } (got ${kindOf(s)}).`);
    }
    expectString(spec.key, `lists[${i}].key`);
    if (spec.truncation !== undefined) checkStrategy(spec.truncation, `lists[${i}].truncation`);
    return spec;
  });
  const seen = new Set<string>();
  for (const s of specs) {
    if (seen.has(s.key)) throw invalidParams('lists', `names "${s.key}" twice; list each key once`);
    seen.add(s.key);
  }
  const originals = specs.map((s) => listOf(data, s.key));
  return withDataPaths(data, () => {
    const selected = specs.map((s, i) => {
      const max = s.maxItems ?? opts.maxItems;
      expectInteger(max, `lists.${s.key}.maxItems`, 0);
      return pickItems(originals[i] as unknown[], max, s.truncation ?? opts.truncation);
    });
    const timestamp = isoTimestamp(opts.clock);
    const extra = extraMeta(data._meta);
    const totalFrom = originals.reduce((a, l) => a + l.length, 0);
    const metaFor = (counts: readonly number[]): OutputMeta => {
      const per: Record<string, ListMeta> = {};
      specs.forEach((s, i) => (per[s.key] = listMeta(counts[i] as number, (originals[i] as unknown[]).length)));
      return { ...baseMeta(extra, counts.reduce((a, b) => a + b, 0), totalFrom, timestamp), lists: per };
    };
    const fit = fitLists(
      data,
      specs.map((s, i) => ({ key: s.key, items: selected[i] as unknown[] })),
      metaFor,
      opts.maxBytes,
    );
    const counts = fit ? fit.counts : specs.map(() => 0);
    const out: Data = { ...data };
    specs.forEach((s, i) => (out[s.key] = (selected[i] as unknown[]).slice(0, counts[i])));
    out._meta = metaFor(counts);
    return fit && utf8ByteLength(toJsonText(out)) <= opts.maxBytes ? out : shrinkToFit(out, opts.maxBytes);
  }) as unknown as WithMeta<T>;
}

/**
 * Adds `_meta` to a single-item output (`count: 1`). If the output is over the byte limit, its
 * longest strings are shortened (head and tail kept) and listed in `_meta.shortenedFields`. Data
 * JSON cannot hold (a cycle, a BigInt, nesting deeper than 100 levels) is UNSUPPORTED_VALUE.
 *
 * @example wrapScalarOutput({ item: itemData })
 */
export function wrapScalarOutput<T extends Data>(data: T, options: Pick<WrapOptions, 'limits' | 'maxBytes' | 'clock'> = {}): WithMeta<T> {
  assertData(data);
  const opts = resolve(options);
  const out = { ...data, _meta: baseMeta(extraMeta(data._meta), 1, 1, isoTimestamp(opts.clock)) };
  return withDataPaths(data, () => (utf8ByteLength(toJsonText(out)) <= opts.maxBytes ? out : shrinkToFit(out, opts.maxBytes))) as unknown as WithMeta<T>;
}

// ---------------------------------------------------------------- route stats (spec 000 §4)

/** Security class of a solar system, as EVE shows it. */
export type SecurityClass = 'highsec' | 'lowsec' | 'nullsec';

/**
 * Rounds a true security status the way EVE displays it (one decimal; anything above 0.0 but
 * below 0.05 shows as 0.1) and classifies it: 0.5 and up is highsec, 0.1 to 0.4 lowsec, 0.0 and
 * below nullsec. A `trueSec` that is not a number (or is NaN) is INVALID_PARAMS.
 */
export function securityClass(trueSec: number): SecurityClass {
  if (typeof trueSec !== 'number' || Number.isNaN(trueSec)) {
    throw invalidParams('trueSec', `must be a security status number such as 0.45 (got ${Number.isNaN(trueSec) ? 'NaN' : kindOf(trueSec)}).`);
  }
  return classify(trueSec);
}

/** {@link securityClass} without the argument check, for statuses a reader already returned. */
function classify(trueSec: number): SecurityClass {
  const displayed = trueSec > 0 && trueSec < 0.05 ? 0.1 : Math.round(trueSec * 10) / 10;
  if (displayed >= 0.5) return 'highsec';
  if (displayed > 0) return 'lowsec';
  return 'nullsec';
}

/** Stats of the omitted middle of a route. */
export interface RouteMiddleStats {
  readonly security: Readonly<Record<SecurityClass, number>>;
  /** The lowest-security system of the middle (first one on ties), or null if none had a status. */
  readonly lowestSecurity: { readonly name: string; readonly security: number } | null;
  [key: string]: unknown;
}

function field(system: unknown, keys: readonly string[]): unknown {
  if (system === null || typeof system !== 'object') return undefined;
  for (const k of keys) {
    const v = (system as Record<string, unknown>)[k];
    if (v !== undefined) return v;
  }
  return undefined;
}

/** Security breakdown and lowest-security system of a run of systems (spec 000 §4). */
export function routeStats<System>(
  systems: readonly System[],
  security: (s: System) => number | undefined = (s) => {
    const v = field(s, ['security', 'securityStatus', 'security_status']);
    return typeof v === 'number' ? v : undefined;
  },
  name: (s: System) => string = (s) => String(field(s, ['name', 'system', 'systemName']) ?? '?'),
): RouteMiddleStats {
  expectArray(systems, 'systems');
  expectFunction(security, 'security');
  expectFunction(name, 'name');
  const counts: Record<SecurityClass, number> = { highsec: 0, lowsec: 0, nullsec: 0 };
  let lowest: { name: string; security: number } | null = null;
  for (const s of systems) {
    const sec = security(s);
    if (sec === undefined || Number.isNaN(sec)) continue;
    counts[classify(sec)]++;
    if (lowest === null || sec < lowest.security) lowest = { name: name(s), security: sec };
  }
  return { security: counts, lowestSecurity: lowest };
}

