/**
 * Small argument checks shared by the token modules, beside the package-wide ones in `args.ts`.
 * Messages name the parameter and the kind of value received, never a non-numeric value itself.
 */
import { wrongKind } from '../args.ts';

/** A value of type number (NaN and ±Infinity included: the caller's arithmetic decides). */
export function expectNumberKind(value: unknown, field: string): asserts value is number {
  if (typeof value !== 'number') throw wrongKind(field, 'a number', value);
}

/** `undefined`, `null` or a string: the optional text fields of a handoff. */
export function expectOptionalText(value: unknown, field: string): asserts value is string | null | undefined {
  if (value !== undefined && value !== null && typeof value !== 'string') {
    throw wrongKind(field, 'a string', value);
  }
}
