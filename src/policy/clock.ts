/**
 * A source of the current time in milliseconds since the Unix epoch. Every policy module that
 * stamps or measures time takes one, so tests can pin timestamps and elapsed times exactly.
 */
export type Clock = () => number;

/** The real clock, `Date.now`. */
export const systemClock: Clock = () => Date.now();

/** ISO-8601 UTC timestamp (`2026-01-22T12:00:00.000Z`) for the clock's current time. */
export function isoTimestamp(clock: Clock = systemClock): string {
  return new Date(clock()).toISOString();
}
