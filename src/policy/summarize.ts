/**
 * Summarisation triggers of spec 000 §4 for sequences and lists: a long sequence keeps its head and
 * tail and replaces the middle by caller-chosen stats; a long list is cut with counts. The route
 * helper is the spec's worked example.
 */
import { expectArray, expectObject, expectOptionalString, expectOptions, expectString } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { KB } from './bytes.ts';
import { expectInteger, expectOptionalFunction } from './checks.ts';
import type { Clock } from './clock.ts';
import { GLOBAL_LIMITS } from './limits.ts';
import type { TruncationStrategy } from './limits.ts';
import type { ListMeta, WithMeta } from './meta.ts';
import { assertData, routeStats, securityClass, selectItems, wrapOutput } from './wrap.ts';
import type { WrapOutputOptions } from './wrap.ts';

/** Options of {@link summarizeSequence}. */
export interface SummarizeSequenceOptions<Item> {
  /** Key of the sequence in the output. */
  key: string;
  /** Summarise only sequences longer than this (default 20). */
  threshold?: number;
  /** Items shown in full at the start (default 5). */
  head?: number;
  /** Items shown in full at the end (default 5). */
  tail?: number;
  /**
   * Stats of the omitted middle, merged into the summary object after the counts. It must return a
   * plain object (else INVALID_PARAMS naming `options.summarize`); `omitted`, `fromIndex` and
   * `toIndex` in it are ignored, the real counts are kept.
   */
  summarize?: (middle: readonly Item[]) => Record<string, unknown>;
  /** Key of the summary object (default `${key}Summary`). */
  summaryKey?: string;
  /** Most bytes of the serialised output (default 10 KB); head and tail shrink to fit. */
  maxBytes?: number;
  /** Clock for `_meta.timestamp`. */
  clock?: Clock;
}

/**
 * Head + summary + tail. Sequences of at most `threshold` items pass through whole (still with
 * `_meta`). Longer ones keep `head` and `tail` items, gain `{ omitted, fromIndex, toIndex, ...stats }`
 * under `summaryKey`, and `_meta` gets `summarized: true` and `originalCount`, plus `truncated` and
 * `truncatedFrom` since items were left out. `head + shown middle + tail` always accounts for
 * every original item: `count + summary.omitted === originalCount`.
 */
export function summarizeSequence<T extends Record<string, unknown>, Item = unknown>(
  data: T,
  options: SummarizeSequenceOptions<Item>,
): WithMeta<T> {
  assertData(data);
  expectObject(options, 'options');
  expectString(options.key, 'options.key');
  expectOptionalFunction(options.summarize, 'options.summarize');
  if (options.summaryKey !== null) expectOptionalString(options.summaryKey, 'options.summaryKey');
  const threshold = options.threshold ?? GLOBAL_LIMITS.sequenceSummarizeThreshold;
  const head = options.head ?? GLOBAL_LIMITS.sequenceShowHead;
  const tail = options.tail ?? GLOBAL_LIMITS.sequenceShowTail;
  for (const [field, v] of [['threshold', threshold], ['head', head], ['tail', tail]] as const) {
    expectInteger(v, field, 0);
  }
  if (head + tail >= threshold) {
    throw invalidParams('head', `head (${head}) + tail (${tail}) must be below threshold (${threshold}), or nothing would be summarised`);
  }
  const wrapOptions: WrapOutputOptions<Item> = {
    maxItems: threshold,
    maxBytes: options.maxBytes ?? GLOBAL_LIMITS.toolResultMaxBytes,
    truncation: { kind: 'summarizeMiddle', threshold, head, tail },
  };
  if (options.summarize) wrapOptions.summarize = options.summarize;
  if (options.summaryKey !== undefined) wrapOptions.summaryKey = options.summaryKey;
  if (options.clock) wrapOptions.clock = options.clock;
  return wrapOutput<T, Item>(data, options.key as keyof T & string, wrapOptions);
}

// The route stats are defined in wrap.ts, where a limits table's `summarize: 'route'` strategy runs
// them (wrap.ts cannot import this module, which imports wrap.ts); they are still exported here.
export { routeStats, securityClass };
export type { RouteMiddleStats, SecurityClass } from './wrap.ts';

/** Options of {@link summarizeRoute}. */
export interface SummarizeRouteOptions<System> extends Omit<SummarizeSequenceOptions<System>, 'key' | 'summarize'> {
  /** Key of the systems list (default `systems`). */
  systemsKey?: string;
  /** Reads a system's security status (default: `security`, `securityStatus` or `security_status`). */
  security?: (system: System) => number | undefined;
  /** Reads a system's name (default: `name`, `system` or `systemName`). */
  name?: (system: System) => string;
}

/**
 * The spec's route example: routes longer than 20 jumps show the first 5 and last 5 systems in
 * full and summarise the middle hops as a security breakdown (highsec/lowsec/nullsec counts) and
 * the lowest-security system, under `systemsSummary`. Default byte limit 5 KB (the
 * `universe.route` row).
 */
export function summarizeRoute<T extends Record<string, unknown>, System = unknown>(
  routeData: T,
  options: SummarizeRouteOptions<System> = {},
): WithMeta<T> {
  assertData(routeData, 'routeData');
  expectOptions(options);
  const { systemsKey, security, name, ...rest } = options;
  if (systemsKey !== null) expectOptionalString(systemsKey, 'options.systemsKey');
  expectOptionalFunction(security, 'options.security');
  expectOptionalFunction(name, 'options.name');
  return summarizeSequence<T, System>(routeData, {
    maxBytes: 5 * KB,
    ...rest,
    key: systemsKey ?? 'systems',
    summarize: (middle) => routeStats(middle, security ?? undefined, name ?? undefined),
  });
}

/** A list cut to its limit, with counts (spec 000 §4 "List > 30 items: truncate with count"). */
export interface TruncatedList<T> {
  readonly items: T[];
  readonly meta: ListMeta & { readonly omitted: number };
}

/** Keeps at most `max` items (default 30) chosen by `strategy` (default: the head), with counts. */
export function truncateList<T>(
  items: readonly T[],
  max: number = GLOBAL_LIMITS.listTruncateThreshold,
  strategy: TruncationStrategy = { kind: 'head' },
): TruncatedList<T> {
  expectArray(items, 'items');
  expectInteger(max, 'max', 0);
  const kept = selectItems<T>(items, max, strategy);
  const omitted = items.length - kept.length;
  return {
    items: kept,
    meta: omitted > 0 ? { count: kept.length, truncated: true, truncatedFrom: items.length, omitted } : { count: kept.length, omitted: 0 },
  };
}
