/**
 * Run-time checks of public functions' arguments: what the TypeScript types promise, checked where
 * a caller in plain JavaScript, or with data parsed from JSON, could break it. A wrong argument is
 * INVALID_PARAMS naming the parameter and the kind of value it got, never a TypeError from deep
 * inside. Messages never echo the value itself: it may be a secret pasted in the wrong place.
 */
import { invalidParams } from './errors.ts';
import type { CtxgateError } from './errors.ts';

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

/**
 * How a rejected value appears in a message: a number as itself (`-1`, `1.5`, `NaN`: limits and
 * counts), anything else by its kind only, since a string in a number's place may be a secret.
 */
export function described(value: unknown): string {
  return typeof value === 'number' ? String(value) : kindOf(value);
}

/** INVALID_PARAMS: `field` must be `expected` (an article and a noun) but is of another kind. */
export function wrongKind(field: string, expected: string, value: unknown): CtxgateError {
  return invalidParams(field, `must be ${expected} (got ${kindOf(value)}).`, { expected, got: kindOf(value) });
}

/**
 * INVALID_PARAMS for item `index` of the list `field` (`keys: item 3 must be a string (got a
 * number).`), with the index in details.
 */
export function wrongItem(field: string, index: number, expected: string, value: unknown): CtxgateError {
  return invalidParams(field, `item ${index} must be ${expected} (got ${kindOf(value)}).`, { index, expected, got: kindOf(value) });
}

/**
 * INVALID_PARAMS: `field` must be one of `allowed` (names, listed in the message). A string outside
 * the list is "another string", never quoted: it may be something pasted in the wrong place.
 */
export function notOneOf(field: string, allowed: readonly string[], value: unknown): CtxgateError {
  const got = typeof value === 'string' ? 'another string' : kindOf(value);
  return invalidParams(field, `must be one of ${allowed.join(', ')} (got ${got}).`, { expected: [...allowed], got: kindOf(value) });
}

function wrong(field: string, expected: string, value: unknown): never {
  throw wrongKind(field, expected, value);
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

/**
 * A number that is not NaN: ±Infinity passes, as "no bound" or "no cap". `expected` words the
 * message (`a number of items`).
 */
export function expectNumberNotNaN(value: unknown, field: string, expected = 'a number'): asserts value is number {
  if (typeof value !== 'number' || Number.isNaN(value)) {
    throw invalidParams(field, `must be ${expected} (got ${typeof value === 'number' ? 'NaN' : kindOf(value)}).`, { expected, got: kindOf(value) });
  }
}

/** A non-null object that is not an array (functions are not accepted either). */
export function expectObject(value: unknown, field: string): asserts value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) wrong(field, 'an object', value);
}

/** `null` or an object (not an array). */
export function expectNullableObject(value: unknown, field: string): asserts value is Record<string, unknown> | null {
  if (value !== null && (typeof value !== 'object' || Array.isArray(value))) wrong(field, 'an object or null', value);
}

/** `null` or a string. */
export function expectNullableString(value: unknown, field: string): asserts value is string | null {
  if (value !== null && typeof value !== 'string') wrong(field, 'a string or null', value);
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

/** Bytes: a live Uint8Array (a Buffer is one); a detached one is refused ({@link expectLive}). */
export function expectBytes(value: unknown, field: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) wrong(field, 'a Uint8Array', value);
  expectLive(value, field);
}

/** A string or bytes (a live Uint8Array; a detached one is refused, see {@link expectLive}). */
export function expectText(value: unknown, field: string): asserts value is string | Uint8Array {
  if (typeof value !== 'string' && !(value instanceof Uint8Array)) wrong(field, 'a string or a Uint8Array', value);
  expectLive(value, field);
}

/**
 * True when `bytes` is a view of an ArrayBuffer that was transferred (postMessage,
 * structuredClone with `transfer`) or otherwise detached. Such a view reads as empty, so the
 * functions that take bytes would silently treat it as `''`, or fail with a TypeError when they
 * copy it. Only an empty view can be detached, so live data costs one comparison.
 */
export function isDetached(bytes: Uint8Array): boolean {
  if (bytes.byteLength !== 0) return false;
  const buffer = bytes.buffer as ArrayBuffer & { detached?: unknown };
  // `detached` is ES2024; Node 20 and older engines lack it, and there a new view on a detached
  // buffer is the one check that throws.
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/** INVALID_PARAMS (`field`) when `value` is a detached Uint8Array; any other value passes. */
export function expectLive(value: unknown, field: string): void {
  if (value instanceof Uint8Array && isDetached(value)) throw detachedBytes(field);
}

/** The INVALID_PARAMS error for a detached Uint8Array in `field`. */
export function detachedBytes(field: string): CtxgateError {
  return invalidParams(field, 'is detached (its ArrayBuffer was transferred); pass a live copy.', { expected: 'a live Uint8Array', got: 'a detached Uint8Array' });
}

/**
 * A Date holding a time (not an Invalid Date), recognised by its tag rather than `instanceof`, so a
 * Date from another realm (an iframe, a vm context) counts too.
 */
export function isValidDate(value: unknown): value is Date {
  return Object.prototype.toString.call(value) === '[object Date]' && !Number.isNaN(Date.prototype.getTime.call(value));
}

/** An object (or function) with the named methods: a store, a server, an adapter. */
export function expectMethods(value: unknown, field: string, methods: readonly string[], what: string): void {
  const isHolder = value !== null && (typeof value === 'object' || typeof value === 'function');
  const missing = isHolder ? methods.filter((m) => typeof (value as Record<string, unknown>)[m] !== 'function') : methods;
  if (missing.length > 0) {
    const got = isHolder ? `${kindOf(value)} without ${missing.map((m) => `${m}()`).join(', ')}` : kindOf(value);
    throw invalidParams(field, `must be ${what} (got ${got}).`, { expected: what, got: kindOf(value) });
  }
}
