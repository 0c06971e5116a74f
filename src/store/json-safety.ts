import { isWellFormed } from '../encoding/utf16.ts';
import { CtxgateError, invalidParams } from '../errors.ts';
import { pathBeyondDepth } from '../json-depth.ts';

/**
 * Object keys the store refuses anywhere in stored data. Assigning them while copying or merging
 * rewrites an object's prototype (`__proto__`) or shadows built-ins, and `JSON.parse` happily
 * produces them as own properties, so a payload from the network could otherwise poison every
 * object that later reads from the context.
 */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Deepest nesting accepted in stored values; deeper data is almost surely a bug or an attack. */
export const MAX_VALUE_DEPTH = 100;

/**
 * Deepest nesting the lenient walks accept: measuring (getStats, ContextSizeChecker), copying
 * (cloneContext, DiffTracker) and comparing take contexts that were never validated, so they
 * accept data somewhat deeper than {@link MAX_VALUE_DEPTH} (validation names that precisely). Data
 * deeper than this is refused with the same INVALID_PARAMS as validation's, at the same depth in
 * every runtime, instead of overflowing a stack whose size differs between engines.
 */
export const MAX_WALK_DEPTH = 200;

/** The refusal of data nested too deep, worded alike wherever a walk gives up on it. */
function tooDeep(path: string, limit: number): CtxgateError {
  return invalidParams(path, `is nested deeper than ${limit} levels; flatten the data`);
}

/**
 * Throws INVALID_PARAMS naming the first object or array of `value` (itself `depth` levels below
 * the root that `field` names) that sits {@link MAX_WALK_DEPTH} levels deep, as JSON would reach it
 * (array items and own enumerable members). A member that refers back to one of its ancestors is not
 * followed: a cycle is not depth, and the callers report it their own way (JSON.stringify's
 * TypeError, structured clone). The recursion is bounded by the limit, so this never overflows.
 */
export function assertWalkDepth(value: unknown, field: string, depth = 0): void {
  const segments = pathBeyondDepth(value, MAX_WALK_DEPTH - depth);
  if (segments !== undefined) throw tooDeep(formatPath(field, segments), MAX_WALK_DEPTH);
}

/** Formats a path like `reasoning.intents[0].confidence` from its segments. */
export function formatPath(base: string, segments: readonly PropertyKey[]): string {
  let out = base;
  for (const seg of segments) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? String(seg) : `.${String(seg)}`;
  }
  return out;
}

/** True if `value` is a plain object (object literal, `JSON.parse` output or null-prototype). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * True if `Object.prototype` has enumerable members (someone assigned to it): then a for-in walk
 * over a plain object also visits them, while `Object.keys` and JSON do not. Walks that use for-in
 * to avoid allocating check this once and take their careful path when it is true.
 */
export function inheritsEnumerableMembers(): boolean {
  for (const key in Object.prototype) {
    void key;
    return true;
  }
  return false;
}

/**
 * Throws INVALID_PARAMS naming the offending path unless `value` is plain JSON data (null,
 * booleans, finite numbers, strings, arrays and plain objects) free of {@link FORBIDDEN_KEYS} at
 * every depth. Stored contexts cross structured clone, JSON and three storage engines, so anything
 * else (a Date, a Map, a class instance, a cycle) would silently change shape on the way.
 */
export function assertSafeJson(value: unknown, field: string): void {
  walk(value, field, 0, new Set(), false);
}

/**
 * {@link assertSafeJson} for a value that is to be stored `depth` levels below the root of a
 * context (2 for a namespace's field), so the depth limit counts from the context's root, as
 * validating the whole context will; it also refuses a string or member name with a lone
 * surrogate, which serialising the context refuses (RFC 8785 has no form for broken UTF-16). A
 * value this accepts is one the store will accept where it is put.
 */
export function assertStorableJson(value: unknown, field: string, depth: number): void {
  walk(value, field, depth, new Set(), true);
}

/**
 * {@link assertSafeJson} for one member of `parent`, checked exactly as the walk over `parent`
 * would check it (one level deeper, `parent` counted as an ancestor for cycles), so a context can be
 * re-checked namespace by namespace with the same verdict as a walk over the whole context.
 */
export function assertSafeJsonMember(parent: object, value: unknown, field: string): void {
  walk(value, field, 1, new Set([parent]), false);
}

const LONE_SURROGATE = 'contains a lone surrogate, which is not valid Unicode and cannot be stored; repair or drop the text';

function walk(value: unknown, path: string, depth: number, stack: Set<object>, wellFormed: boolean): void {
  if (typeof value === 'string') {
    if (wellFormed && !isWellFormed(value)) throw invalidParams(path, LONE_SURROGATE);
    return;
  }
  if (value === null || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalidParams(path, 'must be a finite number; NaN and Infinity do not survive JSON');
    return;
  }
  if (typeof value !== 'object') {
    throw invalidParams(path, `must be JSON data; got a ${typeof value}. Store strings, numbers, booleans, arrays or plain objects`);
  }
  if (depth >= MAX_VALUE_DEPTH) throw tooDeep(path, MAX_VALUE_DEPTH);
  if (stack.has(value)) throw invalidParams(path, 'refers back to itself; stored data must be a tree, not a cycle');
  stack.add(value);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) walk(value[i], `${path}[${i}]`, depth + 1, stack, wellFormed);
  } else if (isPlainObject(value)) {
    for (const key of Object.keys(value)) {
      const child = path === '' ? key : `${path}.${key}`;
      if (FORBIDDEN_KEYS.has(key)) {
        throw invalidParams(child, `the key "${key}" is not allowed in stored data because it can pollute object prototypes; rename it`);
      }
      if (wellFormed && !isWellFormed(key)) throw invalidParams(child, `the member name ${LONE_SURROGATE}`);
      walk(value[key], child, depth + 1, stack, wellFormed);
    }
  } else {
    const kind = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    throw invalidParams(path, `must be JSON data; got a ${kind}. Convert it first (dates as ISO-8601 strings)`);
  }
  stack.delete(value);
}

/**
 * Parses JSON text and refuses forbidden keys in the result, so untrusted text never yields an
 * object with an own `__proto__` property that later code could copy into a prototype.
 */
export function parseSafeJson(text: string, field: string): unknown {
  const value = parseJson(text, field);
  assertSafeJson(value, field);
  return value;
}

/** `JSON.parse`, with malformed text reported as INVALID_PARAMS on `field`; the value is not yet checked. */
export function parseJson(text: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    throw new CtxgateError('INVALID_PARAMS', `${field}: is not valid JSON; pass the exact text produced by serializeContext`, {
      details: { field },
      cause,
    });
  }
}
