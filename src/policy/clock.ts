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
