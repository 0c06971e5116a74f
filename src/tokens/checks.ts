/**
 * Small argument checks shared by the token modules, beside the package-wide ones in `args.ts`.
 * Messages name the parameter and the kind of value received, never a non-numeric value itself.
 */
import { kindOf } from '../args.ts';
import { invalidParams } from '../errors.ts';

/**
 * How a rejected value is described in a message: a number as itself (`-1`, `1.5`, `NaN`), anything
 * else only by its kind, since a string in a number's place may be a secret pasted there.
 */
export function described(value: unknown): string {
  return typeof value === 'number' ? String(value) : kindOf(value);
}

/** A value of type number (NaN and ±Infinity included: the caller's arithmetic decides). */
export function expectNumberKind(value: unknown, field: string): asserts value is number {
  if (typeof value !== 'number') throw invalidParams(field, `must be a number (got ${kindOf(value)}).`, { expected: 'a number', got: kindOf(value) });
}

/** `undefined`, `null` or a string: the optional text fields of a handoff. */
export function expectOptionalText(value: unknown, field: string): asserts value is string | null | undefined {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw invalidParams(field, `must be a string (got ${kindOf(value)}).`, { expected: 'a string', got: kindOf(value) });
  }
}
