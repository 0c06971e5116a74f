import { expect } from 'vitest';
import { CtxgateError } from '../../src/errors.ts';
import type { CtxgateErrorCode } from '../../src/errors.ts';
import type { TokenCounter } from '../../src/tokens/counter.ts';
import type { Clock } from '../../src/policy/clock.ts';

/** Deterministic test counter: one token per 4 UTF-16 units, rounded up (not additive, on purpose). */
export const quarterCounter: TokenCounter = (text) => ({ tokens: Math.ceil(text.length / 4), exact: false, encoder: 'test/quarter' });

/** 2026-01-22T12:00:00.000Z, the spec's example time. */
export const SPEC_TIME = Date.UTC(2026, 0, 22, 12, 0, 0);

/** A clock fixed at the spec's time. */
export const fixedClock: Clock = () => SPEC_TIME;

/** A clock that advances by `step` ms on every read. */
export function steppingClock(start = SPEC_TIME, step = 7): Clock {
  let t = start - step;
  return () => (t += step);
}

/** UTF-8 bytes of the compact JSON of a value, measured independently with TextEncoder. */
export function encodedBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

/**
 * Calls `fn`, which must throw a ctxgate error with `code` and, when given, `details.field`; the
 * message must start with the field too (INVALID_PARAMS is "field: ..."). Returns the error.
 */
export function expectCtxgateError(fn: () => unknown, code: CtxgateErrorCode, field?: string): CtxgateError {
  let thrown: unknown;
  try {
    fn();
  } catch (e) {
    thrown = e;
  }
  expect(thrown, 'expected a throw').toBeInstanceOf(CtxgateError);
  const error = thrown as CtxgateError;
  expect(error.code).toBe(code);
  if (field !== undefined) {
    expect(error.details.field).toBe(field);
    expect(error.message.startsWith(`${field}: `)).toBe(true);
  }
  return error;
}

/**
 * A 25-system route (Sys0 … Sys24) whose middle (Sys5 … Sys19) holds 7 highsec, 5 lowsec and 3
 * nullsec systems, the lowest Sys14 at -0.9: the route summaries' known answer.
 */
export const SPEC_ROUTE_SYSTEMS: readonly { name: string; security: number }[] = [1.0, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, -0.2, 0.2, 0.1, 0.0, 0.45, 0.04, -0.9, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 0.9, 0.8, 0.7, 0.5].map((security, i) => ({ name: `Sys${i}`, security }));

/** The summary of SPEC_ROUTE_SYSTEMS' middle (Sys5..Sys19) that the route limits produce: the known answer. */
export const SPEC_ROUTE_MIDDLE_SUMMARY = {
  omitted: 15,
  fromIndex: 5,
  toIndex: 19,
  security: { highsec: 7, lowsec: 5, nullsec: 3 },
  lowestSecurity: { name: 'Sys14', security: -0.9 },
} as const;
