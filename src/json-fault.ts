/**
 * Where a value holds what `JSON.stringify` refuses: a BigInt or a cycle. Callers serialise first
 * and call this only after a failure, to turn JSON.stringify's TypeError into an UNSUPPORTED_VALUE
 * that says what and where, so the happy path never walks a value twice.
 */

/** A value JSON cannot write, where it is (`$.a[2].b`) and what to do about it. */
export interface JsonFault {
  readonly path: string;
  readonly what: 'a BigInt' | 'a cycle';
  readonly hint: string;
}

const BIGINT_HINT = 'JSON has no BigInt; convert it to a number or a string first';
const CYCLE_HINT = 'the value refers to itself; only JSON data can be measured or sent, so remove the back-reference';

/**
 * The first BigInt or cycle in `root` (named `base` in paths; `''` gives paths like `a.b[2]`),
 * following `toJSON` as JSON.stringify does; undefined if there is none (the failure came from the
 * data's own code, a getter or a `toJSON`, or the value is too deep to walk). Linear in the size
 * of the value: an object shared (not cyclic) is walked once.
 */
export function findJsonFault(root: unknown, base = '$'): JsonFault | undefined {
  const open = new Set<object>();
  const done = new Set<object>();
  const visit = (input: unknown, key: string, path: string): JsonFault | undefined => {
    let v = input;
    if (v !== null && (typeof v === 'object' || typeof v === 'bigint')) {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') v = toJSON.call(v, key);
    }
    if (typeof v === 'bigint') return { path, what: 'a BigInt', hint: BIGINT_HINT };
    if (v === null || typeof v !== 'object' || done.has(v)) return undefined;
    if (open.has(v)) return { path, what: 'a cycle', hint: CYCLE_HINT };
    open.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const f = visit(v[i], String(i), `${path}[${i}]`);
        if (f) return f;
      }
    } else {
      for (const k of Object.keys(v)) {
        const f = visit((v as Record<string, unknown>)[k], k, path === '' ? k : `${path}.${k}`);
        if (f) return f;
      }
    }
    open.delete(v);
    done.add(v);
    return undefined;
  };
  try {
    return visit(root, '', base);
  } catch {
    return undefined;
  }
}
