/**
 * Run-time checks of public functions' arguments: what the TypeScript types promise, checked where
 * a caller in plain JavaScript, or with data parsed from JSON, could break it. A wrong argument is
 * INVALID_PARAMS naming the parameter and the kind of value it got, never a TypeError from deep
 * inside. Messages never echo the value itself: it may be a secret pasted in the wrong place.
 */
import { invalidParams } from './errors.ts';

/** A short description of a value's kind for error messages: `null`, `an array`, `a number`, … */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'object':
      return 'an object';
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'bigint':
      return 'a bigint';
    case 'boolean':
      return 'a boolean';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      return typeof value;
  }
}

function wrong(field: string, expected: string, value: unknown): never {
  throw invalidParams(field, `must be ${expected} (got ${kindOf(value)}).`, { expected, got: kindOf(value) });
}

/** A string. */
export function expectString(value: unknown, field: string): asserts value is string {
  if (typeof value !== 'string') wrong(field, 'a string', value);
}

/** A string or `undefined`. */
export function expectOptionalString(value: unknown, field: string): asserts value is string | undefined {
  if (value !== undefined && typeof value !== 'string') wrong(field, 'a string', value);
}

/** A finite number. */
export function expectNumber(value: unknown, field: string): asserts value is number {
  if (typeof value !== 'number' || !Number.isFinite(value)) wrong(field, 'a finite number', value);
}

/** A finite number or `undefined`. */
export function expectOptionalNumber(value: unknown, field: string): asserts value is number | undefined {
  if (value !== undefined) expectNumber(value, field);
}

/** A non-null object that is not an array (functions are not accepted either). */
export function expectObject(value: unknown, field: string): asserts value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) wrong(field, 'an object', value);
}

/** An options object or `undefined` (the usual last parameter). */
export function expectOptions(value: unknown, field = 'options'): asserts value is Record<string, unknown> | undefined {
  if (value !== undefined) expectObject(value, field);
}

/** An array. */
export function expectArray(value: unknown, field: string): asserts value is unknown[] {
  if (!Array.isArray(value)) wrong(field, 'an array', value);
}

/** An array or `undefined`. */
export function expectOptionalArray(value: unknown, field: string): asserts value is unknown[] | undefined {
  if (value !== undefined && !Array.isArray(value)) wrong(field, 'an array', value);
}

/** A function. */
export function expectFunction(value: unknown, field: string): asserts value is (...args: never[]) => unknown {
  if (typeof value !== 'function') wrong(field, 'a function', value);
}

/** Bytes: a Uint8Array (a Buffer is one). */
export function expectBytes(value: unknown, field: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) wrong(field, 'a Uint8Array', value);
}

/** A string or bytes (a Uint8Array). */
export function expectText(value: unknown, field: string): asserts value is string | Uint8Array {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) wrong(field, 'a string or a Uint8Array', value);
}
