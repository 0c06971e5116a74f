// Where a value stops being JSON data (a function, NaN, a Date, undefined, …), for messages that
// name the member and the kind, never the value. Shared by the layers' schema and indexProject's
// options, which must refuse in the caller's thread what a worker could not be sent.
import { isPlainObject } from './store/json-safety.ts';

/** A value that is not JSON data: where it is, what it is (`NaN`, `a Date`) and what to do instead. */
export interface NonJsonValue {
  path: string;
  what: string;
  problem: string;
}

/**
 * The first value inside `value` (named `base`) that the JSON-data schema refuses: a number that
 * is not finite, `undefined` (an array hole too), a function, a symbol, a BigInt, or an object that
 * is neither an array nor a plain object (a Date, a Map, a class instance); `null` when there is
 * none. The layers' schema calls it only after parsing failed, so valid data is never walked
 * twice; indexProject calls it on each member of each symbol and edge, which its schema leaves
 * unchecked. Messages name the kind, never the value (it may be user content). A getter that
 * throws, or data too deep to walk, gives `null` (the schema's own message stands), or with
 * `rethrow` the throw itself, for a caller that names where it came from.
 */
export function findNonJson(value: unknown, base: string, rethrow = false): NonJsonValue | null {
  const open = new Set<object>();
  const visit = (v: unknown, path: string): NonJsonValue | null => {
    if (v === null || typeof v === 'string' || typeof v === 'boolean') return null;
    if (typeof v === 'number') {
      if (Number.isFinite(v)) return null;
      return { path, what: String(v), problem: `is ${String(v)}, which JSON cannot represent; use a finite number, a string or null` };
    }
    if (v === undefined) return { path, what: 'undefined', problem: 'is undefined, which JSON cannot represent; use null, or leave the member out' };
    if (typeof v === 'bigint') return { path, what: 'a BigInt', problem: 'is a BigInt, which JSON cannot represent; convert it to a number or a string' };
    if (typeof v !== 'object') {
      const what = typeof v === 'function' ? 'a function' : 'a symbol';
      return { path, what, problem: `is ${what}, which is not data; pass plain JSON data (strings, numbers, booleans, null, arrays, plain objects)` };
    }
    // A cycle is not the schema's complaint (expectAcyclic reports it): do not follow it.
    if (open.has(v)) return null;
    if (!Array.isArray(v) && !isPlainObject(v)) {
      const name = (v as { constructor?: { name?: unknown } }).constructor?.name;
      const what = typeof name === 'string' && name !== '' ? `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}` : 'an object with a custom prototype';
      return {
        path,
        what,
        problem: `is ${what}, not a plain object or array, which JSON cannot represent as is; convert it first (dates as ISO-8601 strings, maps as plain objects)`,
      };
    }
    open.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const fault = visit(v[i], `${path}[${i}]`);
        if (fault !== null) return fault;
      }
    } else {
      for (const key of Object.keys(v)) {
        const fault = visit((v as Record<string, unknown>)[key], path === '' ? key : `${path}.${key}`);
        if (fault !== null) return fault;
      }
    }
    open.delete(v);
    return null;
  };
  try {
    return visit(value, base);
  } catch (error) {
    if (rethrow) throw error;
    return null;
  }
}
