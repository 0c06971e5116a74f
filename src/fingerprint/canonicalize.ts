import { CtxgateError } from '../errors.ts';

/**
 * RFC 8785 JSON Canonicalization Scheme: the one serialisation every fingerprint is taken over.
 *
 * - Object members sorted by their names' UTF-16 code units (RFC 8785 §3.2.3), recursively.
 * - Numbers in ECMAScript `Number.prototype.toString` form (§3.2.2.3); -0 becomes 0.
 * - Strings escaped as ECMAScript `JSON.stringify` does for well-formed strings (§3.2.2.2).
 * - No whitespace.
 *
 * Values JCS cannot represent are refused with UNSUPPORTED_VALUE naming where they are, never
 * serialised some other way: NaN and ±Infinity, `undefined` and functions in arrays or at the top,
 * BigInt, symbols, cycles, lone surrogates in strings or names, and objects whose JSON form is
 * ambiguous (Map, Set, typed arrays, class instances without `toJSON`). Object members whose value
 * is `undefined` are omitted, as in JSON. `toJSON()` is honoured (so a Date becomes its ISO string).
 */
export function canonicalize(value: unknown): string {
  return serialize(value, '$', new Set());
}

function fail(path: string, what: string, hint: string): never {
  throw new CtxgateError('UNSUPPORTED_VALUE', `Cannot canonicalize ${what} at ${path}: ${hint}`, { details: { path, what } });
}

function serialize(value: unknown, path: string, seen: Set<object>): string {
  switch (typeof value) {
    case 'string':
      checkWellFormed(value, path);
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) fail(path, String(value), 'JSON has no NaN or Infinity; encode it as a string or null');
      return Object.is(value, -0) ? '0' : String(value);
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      fail(path, 'a BigInt', 'convert it to a string or a safe integer first');
    case 'undefined':
      fail(path, 'undefined', 'JSON has no undefined; use null or leave the member out');
    case 'function':
    case 'symbol':
      fail(path, `a ${typeof value}`, 'only JSON data can be fingerprinted');
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') {
    return serialize((obj as { toJSON(key: string): unknown }).toJSON(''), path, seen);
  }
  if (seen.has(obj)) fail(path, 'a cycle', 'the value refers to itself');
  seen.add(obj);
  try {
    if (Array.isArray(obj)) {
      const parts: string[] = [];
      for (let i = 0; i < obj.length; i++) parts.push(serialize(obj[i], `${path}[${i}]`, seen));
      return `[${parts.join(',')}]`;
    }
    const proto = Object.getPrototypeOf(obj);
    if (proto !== Object.prototype && proto !== null) {
      const name = (obj as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      fail(path, `a ${name}`, 'only plain objects and arrays are JSON data; convert it first');
    }
    const keys = Object.keys(obj).sort(compareUtf16);
    const parts: string[] = [];
    for (const key of keys) {
      const member = (obj as Record<string, unknown>)[key];
      if (member === undefined) continue;
      checkWellFormed(key, `${path} (member name)`);
      parts.push(`${JSON.stringify(key)}:${serialize(member, `${path}.${key}`, seen)}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    seen.delete(obj);
  }
}

/** RFC 8785 sorts member names by UTF-16 code units, which is JavaScript's default string order. */
function compareUtf16(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkWellFormed(s: string, path: string): void {
  // The engine's native check first (ES2024); the loop below only locates the fault for the message.
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  if (native && native.call(s)) return;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        i++;
        continue;
      }
    }
    fail(path, `a lone surrogate (U+${c.toString(16).toUpperCase()}) at index ${i}`, 'the string is not valid Unicode');
  }
}
