/**
 * Spec 000 §4 "History > 30 days: aggregate to daily stats". Long histories (hourly kills, price
 * ticks) are reduced to one row per UTC day with min/max/mean/sum/first/last of each numeric field,
 * which keeps trends visible at a small, bounded size.
 */
import { expectArray, expectObject } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { expectInteger, expectOptionalFunction } from './checks.ts';
import { GLOBAL_LIMITS } from './limits.ts';

/** Stats of one numeric field over one day. */
export interface FieldStats {
  readonly min: number;
  readonly max: number;
  readonly mean: number;
  readonly sum: number;
  /** Value of the earliest entry of the day. */
  readonly first: number;
  /** Value of the latest entry of the day. */
  readonly last: number;
  /** Entries that had a number in this field. */
  readonly samples: number;
}

/** One aggregated day. */
export interface DailyStats {
  /** UTC date, `YYYY-MM-DD`. */
  readonly date: string;
  /** Entries that fell on this day. */
  readonly count: number;
  /** Stats per requested field (fields with no numbers that day are absent). */
  readonly stats: Readonly<Record<string, FieldStats>>;
}

/** Result of {@link aggregateDaily}. */
export type DailyAggregation<T> =
  | { readonly aggregated: false; readonly entries: readonly T[]; readonly originalCount: number; readonly spanDays: number }
  | { readonly aggregated: true; readonly days: readonly DailyStats[]; readonly originalCount: number; readonly spanDays: number };

/** Options of {@link aggregateDaily}. */
export interface AggregateDailyOptions<T> {
  /** When an entry happened: ISO string, epoch milliseconds or Date (default: its `timestamp` or `date` field). */
  timestamp?: (entry: T) => string | number | Date;
  /** Numeric fields to aggregate. */
  fields: readonly string[];
  /** Aggregate only histories spanning more than this many calendar days (default 30). */
  thresholdDays?: number;
}

const DAY_MS = 86_400_000;

/** Farthest time from the epoch a Date can hold (±100,000,000 days): a day outside has no date. */
const MAX_TIME_MS = 8.64e15;

function toTime(value: unknown, index: number): number {
  const t = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : typeof value === 'string' ? Date.parse(value) : NaN;
  if (!Number.isFinite(t) || Math.abs(t) > MAX_TIME_MS) {
    throw invalidParams(`history[${index}].timestamp`, 'is not a valid date; give an ISO-8601 string, epoch milliseconds or a Date');
  }
  return t;
}

/**
 * Aggregates `history` to daily stats when it spans more than `thresholdDays` calendar days (UTC),
 * otherwise returns it unchanged. Days come out in ascending order; `first`/`last` follow entry
 * time, ties in input order. `history` must be an array and `options` an object with a `fields`
 * array (else INVALID_PARAMS); an entry without a valid time (also a number of milliseconds
 * outside the Date range, ±8.64e15) is INVALID_PARAMS naming it. Errors thrown by the caller's own
 * `timestamp` function (say, reading a field of a `null` entry) pass through unchanged.
 */
export function aggregateDaily<T>(history: readonly T[], options: AggregateDailyOptions<T>): DailyAggregation<T> {
  expectArray(history, 'history');
  expectObject(options, 'options');
  expectArray(options.fields, 'options.fields');
  expectOptionalFunction(options.timestamp, 'options.timestamp');
  const threshold = options.thresholdDays ?? GLOBAL_LIMITS.historyAggregateDays;
  expectInteger(threshold, 'thresholdDays', 1);
  const read =
    options.timestamp ??
    ((e: T) => {
      if (e === null || e === undefined) return undefined as unknown as string;
      const r = e as Record<string, unknown>;
      return (r.timestamp ?? r.date) as string;
    });
  const timed = history.map((entry, index) => ({ entry, index, time: toTime(read(entry), index) }));
  if (timed.length === 0) return { aggregated: false, entries: [], originalCount: 0, spanDays: 0 };
  let minDay = Infinity;
  let maxDay = -Infinity;
  for (const t of timed) {
    const day = Math.floor(t.time / DAY_MS);
    minDay = Math.min(minDay, day);
    maxDay = Math.max(maxDay, day);
  }
  const spanDays = maxDay - minDay + 1;
  if (spanDays <= threshold) return { aggregated: false, entries: history.slice(), originalCount: history.length, spanDays };
  timed.sort((a, b) => a.time - b.time || a.index - b.index);
  const days = new Map<number, { count: number; stats: Record<string, { min: number; max: number; sum: number; first: number; last: number; samples: number }> }>();
  for (const { entry, time } of timed) {
    const day = Math.floor(time / DAY_MS);
    let bucket = days.get(day);
    if (!bucket) days.set(day, (bucket = { count: 0, stats: {} }));
    bucket.count++;
    for (const f of options.fields) {
      const v = entry === null || entry === undefined ? undefined : (entry as Record<string, unknown>)[f];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      const s = bucket.stats[f];
      if (!s) bucket.stats[f] = { min: v, max: v, sum: v, first: v, last: v, samples: 1 };
      else {
        s.min = Math.min(s.min, v);
        s.max = Math.max(s.max, v);
        s.sum += v;
        s.last = v;
        s.samples++;
      }
    }
  }
  const out: DailyStats[] = [...days.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([day, b]) => {
      const stats: Record<string, FieldStats> = {};
      for (const [f, s] of Object.entries(b.stats)) stats[f] = { ...s, mean: s.sum / s.samples };
      return { date: new Date(day * DAY_MS).toISOString().slice(0, 10), count: b.count, stats };
    });
  return { aggregated: true, days: out, originalCount: history.length, spanDays };
}
