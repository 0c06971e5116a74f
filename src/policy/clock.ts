import { isValidDate, kindOf } from '../args.ts';
import { invalidParams } from '../errors.ts';

/**
 * A source of the current time in milliseconds since the Unix epoch. Every policy module that
 * stamps or measures time takes one, so tests can pin timestamps and elapsed times exactly.
 */
export type Clock = () => number;

/** The real clock, `Date.now`. */
export const systemClock: Clock = () => Date.now();

/**
 * ISO-8601 UTC timestamp (`2026-01-22T12:00:00.000Z`) for the clock's current time. A clock that
 * is not a function, or returns something that is not a valid time, is INVALID_PARAMS naming
 * `clock`.
 */
export function isoTimestamp(clock: Clock = systemClock): string {
  if (typeof clock !== 'function') throw invalidParams('clock', 'must be a function returning milliseconds since the epoch (like Date.now).');
  return isoFromMillis(clock());
}

/** ISO-8601 UTC form of a time a {@link Clock} returned; INVALID_PARAMS naming `clock` if it is not a time. */
export function isoFromMillis(ms: number): string {
  const date = typeof ms === 'symbol' || typeof ms === 'bigint' ? undefined : new Date(ms);
  if (date === undefined || Number.isNaN(date.getTime())) {
    throw invalidParams('clock', 'must return milliseconds since the epoch (a finite number in the Date range), like Date.now.');
  }
  return date.toISOString();
}

/**
 * The time `clock` returns now, checked: a finite number of milliseconds, else INVALID_PARAMS
 * naming `field` (a NaN time would make every comparison false: entries that never expire).
 */
export function readClock(clock: Clock, field: string): number {
  const ms: unknown = clock();
  if (typeof ms !== 'number' || !Number.isFinite(ms)) {
    throw invalidParams(field, `must return milliseconds since the epoch (a finite number), like Date.now (returned ${typeof ms === 'number' ? String(ms) : kindOf(ms)}).`, {
      expected: 'a finite number',
      got: kindOf(ms),
    });
  }
  return ms;
}

/**
 * ISO-8601 text of a Date a `() => Date` clock returned; INVALID_PARAMS naming `field` unless it is
 * a valid Date (by its tag, so a Date from another realm counts; an Invalid Date does not).
 */
export function isoFromDate(at: unknown, field: string): string {
  if (!isValidDate(at)) {
    const got = Object.prototype.toString.call(at) === '[object Date]' ? 'an Invalid Date' : kindOf(at);
    throw invalidParams(field, `must return a valid Date (returned ${got}).`, { expected: 'a valid Date', got });
  }
  return Date.prototype.toISOString.call(at);
}
