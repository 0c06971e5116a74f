/**
 * Summarisation triggers of spec 000 §4 for sequences and lists: a long sequence keeps its head and
 * tail and replaces the middle by caller-chosen stats; a long list is cut with counts. The route
 * helper is the spec's worked example.
 */
import { expectArray, expectFunction, expectObject, expectOptionalString, expectOptions, expectString, kindOf } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { KB } from './bytes.ts';
import { expectInteger, expectOptionalFunction } from './checks.ts';
import type { Clock } from './clock.ts';
import { GLOBAL_LIMITS } from './limits.ts';
import type { TruncationStrategy } from './limits.ts';
import type { ListMeta, WithMeta } from './meta.ts';
import { assertData, selectItems, wrapOutput } from './wrap.ts';
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
  /** Stats of the omitted middle, merged into the summary object. */
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

/** Options of {@link summarizeRoute}. */
export interface SummarizeRouteOptions<System> extends Omit<SummarizeSequenceOptions<System>, 'key' | 'summarize'> {
  /** Key of the systems list (default `systems`). */
  systemsKey?: string;
  /** Reads a system's security status (default: `security`, `securityStatus` or `security_status`). */
  security?: (system: System) => number | undefined;
  /** Reads a system's name (default: `name`, `system` or `systemName`). */
  name?: (system: System) => string;
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
