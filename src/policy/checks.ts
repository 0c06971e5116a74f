/**
 * Argument checks the policy functions share, beyond the general ones in src/args.ts. A wrong
 * argument is INVALID_PARAMS naming the parameter; data that cannot be copied (a function inside
 * limits) is UNSUPPORTED_VALUE saying where it is (data JSON cannot hold: see bytes.ts). Messages
 * name the kind of a wrong value, never the value itself (it may be a secret); numbers, which are
 * limits and counts, are quoted.
 */
import { pathBeyondDepth } from '../json-depth.ts';
import { MAX_VALUE_DEPTH, formatPath } from '../store/json-safety.ts';
import { described, expectFunction, wrongKind } from '../args.ts';
import { CtxgateError, invalidParams, isDataCloneError, quietCause } from '../errors.ts';

/**
 * A function, or absent: `undefined` or `null`, which the policy's `??` defaults have always
 * treated alike.
 */
export function expectOptionalFunction(value: unknown, field: string): asserts value is ((...args: never[]) => unknown) | undefined | null {
  if (value !== undefined && value !== null) expectFunction(value, field);
}

/** An integer of at least `min` (limits and counts). The message quotes a wrong number, else its kind. */
export function expectInteger(value: unknown, field: string, min: number): asserts value is number {
  if (!Number.isInteger(value) || (value as number) < min) {
    const expected = min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer of at least ${min}`;
    throw invalidParams(field, `must be ${expected}; got ${described(value)}`);
  }
}

/** {@link expectInteger}, or `undefined`. */
export function expectOptionalInteger(value: unknown, field: string, min: number): asserts value is number | undefined {
  if (value !== undefined) expectInteger(value, field, min);
}

/** A RegExp (or an object with a `test` method, such as a RegExp from another realm). */
export function expectPattern(value: unknown, field: string): asserts value is RegExp {
  if (value instanceof RegExp) return;
  if (value !== null && typeof value === 'object' && typeof (value as { test?: unknown }).test === 'function') return;
  throw wrongKind(field, 'a RegExp', value);
}

// ---------------------------------------------------------------- data nested too deep

/**
 * Deepest nesting of arrays and objects the policy accepts in outputs and limit tables: the same
 * 100 levels as agent-context values (src/store/json-safety.ts). Tool output is read by a model and
 * limits by a reviewer; neither is ever legitimately this deep, and refusing at a fixed depth gives
 * the same answer in every runtime, whatever its stack size.
 */
export const MAX_DATA_DEPTH = MAX_VALUE_DEPTH;

/**
 * Path (`$.a.a[3]`) of the first array or object in `root` nested more than {@link MAX_DATA_DEPTH}
 * levels deep, or undefined. With `followToJSON`, values are replaced by their `toJSON()` first, as
 * JSON.stringify does. The walk stops at the limit, so it never goes deeper than the limit itself.
 */
export function findTooDeep(root: unknown, followToJSON = false): string | undefined {
  const segments = pathBeyondDepth(root, MAX_DATA_DEPTH, followToJSON);
  return segments === undefined ? undefined : formatPath('$', segments);
}

/** UNSUPPORTED_VALUE: `field` holds data nested deeper than {@link MAX_DATA_DEPTH}, at `path` when known. */
export function tooDeep(field: string, path: string | undefined): CtxgateError {
  const at = path === undefined ? '' : ` (at ${path.length > 120 ? `${path.slice(0, 120)}…` : path})`;
  return new CtxgateError('UNSUPPORTED_VALUE', `${field} is nested deeper than ${MAX_DATA_DEPTH} levels${at}; flatten the data.`, {
    details: { field, maxDepth: MAX_DATA_DEPTH, ...(path === undefined ? {} : { path: path.slice(0, 120) }) },
  });
}

// ---------------------------------------------------------------- data that cannot be copied

/** Path of the first function or symbol in `root` (what structured clone refuses in plain data). */
function findUncloneable(root: unknown): { path: string; what: string } | undefined {
  const seen = new Set<object>();
  const visit = (v: unknown, path: string): { path: string; what: string } | undefined => {
    if (typeof v === 'function') return { path, what: 'a function' };
    if (typeof v === 'symbol') return { path, what: 'a symbol' };
    if (v === null || typeof v !== 'object' || seen.has(v)) return undefined;
    seen.add(v);
    const entries: [string, unknown][] = Array.isArray(v) ? v.map((x, i) => [`[${i}]`, x]) : Object.keys(v).map((k) => [`.${k}`, (v as Record<string, unknown>)[k]]);
    for (const [step, child] of entries) {
      const f = visit(child, `${path}${step}`);
      if (f) return f;
    }
    return undefined;
  };
  try {
    return visit(root, '$');
  } catch {
    return undefined;
  }
}

/**
 * `structuredClone` of caller data meant to be plain (limit tables). A value it cannot copy (a
 * function, a symbol, a platform object) is UNSUPPORTED_VALUE naming `field` and, where found,
 * the path; other errors (a throwing getter) pass through.
 */
export function clonePlainData<T>(value: T, field: string): T {
  try {
    return structuredClone(value);
  } catch (error) {
    if (!isDataCloneError(error)) throw error;
    const where = findUncloneable(value);
    const at = where ? ` (${where.what} at ${where.path})` : '';
    throw new CtxgateError(
      'UNSUPPORTED_VALUE',
      `${field} holds a value that cannot be copied${at}: limits are plain data (numbers, strings, booleans, arrays and plain objects); move functions and class instances out of them.`,
      { details: { field, ...(where ? { path: where.path, what: where.what } : {}) }, cause: quietCause(error) },
    );
  }
}
