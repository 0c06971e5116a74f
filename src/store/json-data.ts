import { CtxgateError, quietCause } from '../errors.ts';
import { MAX_WALK_DEPTH, assertWalkDepth, isPlainObject } from './json-safety.ts';

/**
 * Copying and comparing JSON data (plain objects, arrays, primitives) by walking it directly.
 * Contexts are JSON data by construction (validated on every write), and for such data a direct
 * walk is several times faster than `structuredClone`, which serialises through a byte buffer, or
 * than comparing `JSON.stringify` texts; strings are immutable and shared, so equal strings
 * compare by reference almost always.
 */

/**
 * A deep copy of JSON data that shares no object with the original. Anything that is not a plain
 * object or an array (a Date or a Map in data that skipped validation) is copied by
 * `structuredClone`, so the copy never aliases the original either way.
 *
 * INVALID_PARAMS naming the place (under `field`, `value` itself `depth` levels below its root)
 * if the data is nested deeper than {@link MAX_WALK_DEPTH} levels: no copy is made, at the same
 * depth in every runtime. A cycle is not depth: it is copied by `structuredClone`, as it always was.
 */
export function copyJson<T>(value: T, field = 'value', depth = 0): T {
  try {
    return copy(value, depth, false) as T;
  } catch (error) {
    if (error !== TOO_DEEP) throw error;
  }
  // The walk went deeper than the limit: refused if the data really is that deep, while a cycle,
  // which makes any walk endless, is left to structuredClone (whose own recursion is then bounded).
  assertWalkDepth(value, field, depth);
  return copy(value, depth, true) as T;
}

/** Thrown inside the copy walk when it reaches {@link MAX_WALK_DEPTH}. */
const TOO_DEEP: unique symbol = Symbol('copyJson: too deep');

function copy(value: unknown, depth: number, cloneDeep: boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_WALK_DEPTH) {
    if (!cloneDeep) throw TOO_DEEP;
    return structuredClone(value);
  }
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copy(value[i], depth + 1, cloneDeep);
    return out;
  }
  if (!isPlainObject(value)) return structuredClone(value);
  const out: Record<string, unknown> = Object.getPrototypeOf(value) === null ? Object.create(null) : {};
  for (const key of Object.keys(value)) {
    const member = copy(value[key], depth + 1, cloneDeep);
    // Plain assignment of `__proto__` would replace the copy's prototype instead of adding a key.
    if (key === '__proto__') Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
    else out[key] = member;
  }
  return out;
}

/**
 * True if `a` and `b` are the same JSON data: equal primitives, arrays equal item by item, objects
 * with the same members in any order. A member whose value is `undefined` counts as absent, as
 * in JSON. Non-plain objects are equal only if they are the same object.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return equal(a, b, 0);
}

function equal(a: unknown, b: unknown, depth: number): boolean {
  if (a === b) return true;
  if (typeof a === 'number' && typeof b === 'number') return Number.isNaN(a) && Number.isNaN(b);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || depth > MAX_WALK_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!equal(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlainObject(a) || !isPlainObject(b)) return false;
  let present = 0;
  for (const key of Object.keys(a)) {
    const av = a[key];
    if (av === undefined) continue;
    present++;
    if (!Object.hasOwn(b, key) || !equal(av, b[key], depth + 1)) return false;
  }
  for (const key of Object.keys(b)) if (b[key] !== undefined) present--;
  return present === 0;
}

/**
 * `structuredClone(value)`; a value that cannot be cloned (a function, a symbol, a class instance)
 * is INVALID_PARAMS on `field` ("holds a value that cannot be {verb} …; {hint}"), without the
 * DataCloneError's message, which quotes the value.
 */
export function cloneOrRefuse<T>(value: T, field: string, verb: string, hint: string): T {
  try {
    return structuredClone(value);
  } catch (cause) {
    throw new CtxgateError('INVALID_PARAMS', `${field}: holds a value that cannot be ${verb} (a function, a symbol, a class instance); ${hint}`, {
      details: { field },
      cause: quietCause(cause),
    });
  }
}
