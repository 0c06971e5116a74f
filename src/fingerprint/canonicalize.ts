import { describeLoneSurrogate, isWellFormed } from '../encoding/utf16.ts';
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
 * ambiguous (Map, Set, typed arrays, class instances without `toJSON`), and data nested deeper than
 * {@link MAX_CANONICAL_DEPTH} levels (refused the same way in every runtime, before any engine's
 * stack runs out). Object members whose value is `undefined` are omitted, as in JSON. `toJSON()` is
 * honoured once per value, as JSON.stringify does (so a Date becomes its ISO string).
 */
export function canonicalize(value: unknown): string {
  const fast = fastCanonicalize(value);
  if (fast !== undefined) return fast;
  const out: string[] = [];
  new Writer(out).write(value);
  return out.join('');
}

// ---------------------------------------------------------------- fast path
//
// Most values are plain JSON data. For those, a copy whose objects hold their members in RFC 8785
// order, written by the engine's own JSON.stringify, is the canonical text: JSON.stringify writes
// strings with the same escapes (for well-formed strings), numbers in Number#toString form, -0 as
// 0, and members in the order they were inserted, except for array-index keys ("2", "10"), which
// engines always enumerate first in numeric order. The copy walk checks everything that could
// make the two differ and gives up on the first doubt (toJSON anywhere, a non-plain object, an
// index-like or `__proto__` member name, a lone surrogate, a non-finite number, undefined in an
// array, anything that is not JSON, very deep or cyclic data); the Writer below then produces the
// text or the UNSUPPORTED_VALUE error exactly as before, so only the speed depends on the path.

/** Thrown inside the fast walk to hand the value over to the Writer. */
const GIVE_UP: unique symbol = Symbol('canonicalize: use the writer');

/** Deeper than this the fast walk gives up: the Writer reports cycles with their path. */
const FAST_MAX_DEPTH = 256;

/** Member names an engine may not enumerate in insertion order: canonical array indices. */
const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;

/** The RFC 8785 member order of one object shape, computed once per shape and reused. */
interface Shape {
  /** Own enumerable keys in the engine's enumeration order (what `Object.keys` returned). */
  readonly keys: readonly string[];
  /** The same keys sorted by UTF-16 code units. */
  readonly sorted: readonly string[];
}

/** Shapes by their first key; objects of one schema type share an entry. Bounded: cleared when full. */
const shapes = new Map<string, Shape[]>();
let shapeCount = 0;
const MAX_SHAPES = 512;

/** The cached shape for these keys, or undefined if a member name rules out the fast path. */
function shapeOf(keys: string[]): Shape | undefined {
  const first = keys.length === 0 ? '' : keys[0]!;
  let list = shapes.get(first);
  if (list !== undefined) {
    next: for (const shape of list) {
      const known = shape.keys;
      if (known.length !== keys.length) continue;
      for (let i = 1; i < keys.length; i++) if (known[i] !== keys[i]) continue next;
      return shape;
    }
  }
  for (const key of keys) if (key === '__proto__' || INDEX_LIKE.test(key) || !isWellFormed(key)) return undefined;
  const shape: Shape = { keys, sorted: [...keys].sort() };
  if (shapeCount >= MAX_SHAPES) {
    shapes.clear();
    shapeCount = 0;
    list = undefined;
  }
  if (list === undefined) shapes.set(first, (list = []));
  list.push(shape);
  shapeCount++;
  return shape;
}

/** A copy of `value` with every object's members inserted in RFC 8785 order; throws GIVE_UP on doubt. */
function sortedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      if (!isWellFormed(value)) throw GIVE_UP;
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw GIVE_UP;
      return value;
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      throw GIVE_UP;
  }
  if (value === null) return null;
  if (depth > FAST_MAX_DEPTH) throw GIVE_UP;
  const obj = value as Record<string, unknown>;
  if (typeof obj.toJSON === 'function') throw GIVE_UP;
  if (Array.isArray(obj)) {
    const n = obj.length;
    const copy = new Array<unknown>(n);
    for (let i = 0; i < n; i++) {
      const item = obj[i];
      if (item === undefined) throw GIVE_UP;
      copy[i] = sortedCopy(item, depth + 1);
    }
    return copy;
  }
  const proto = Object.getPrototypeOf(obj) as unknown;
  if (proto !== Object.prototype && proto !== null) throw GIVE_UP;
  const shape = shapeOf(Object.keys(obj));
  if (shape === undefined) throw GIVE_UP;
  const sorted = shape.sorted;
  const copy: Record<string, unknown> = {};
  for (let i = 0; i < sorted.length; i++) {
    const name = sorted[i]!;
    const member = obj[name];
    if (member !== undefined) copy[name] = sortedCopy(member, depth + 1);
  }
  return copy;
}

/** RFC 8785 text of plain JSON data, or undefined when the Writer must decide. */
function fastCanonicalize(value: unknown): string | undefined {
  let copy: unknown;
  try {
    copy = sortedCopy(value, 0);
  } catch (error) {
    if (error === GIVE_UP) return undefined;
    throw error;
  }
  return JSON.stringify(copy);
}

/**
 * How deep arrays and objects may nest in a canonicalized value. Fingerprinted data (manifests,
 * bundles, settings) nests a few levels; a thousand is far past any of it and well inside every
 * runtime's stack.
 */
export const MAX_CANONICAL_DEPTH = 1000;

// The path to the current value is kept as a stack of keys and only turned into text for an
// error message, so the happy path allocates nothing per member.
class Writer {
  readonly #out: string[];
  readonly #keys: (string | number)[] = [];
  readonly #seen = new Set<object>();

  constructor(out: string[]) {
    this.#out = out;
  }

  write(value: unknown, depth = 0, viaToJSON = false): void {
    const out = this.#out;
    switch (typeof value) {
      case 'string':
        this.#checkWellFormed(value, false);
        out.push(JSON.stringify(value));
        return;
      case 'number':
        if (!Number.isFinite(value)) this.#fail(String(value), 'JSON has no NaN or Infinity; encode it as a string or null');
        out.push(Object.is(value, -0) ? '0' : String(value));
        return;
      case 'boolean':
        out.push(value ? 'true' : 'false');
        return;
      case 'bigint':
        this.#fail('a BigInt', 'convert it to a string or a safe integer first');
      case 'undefined':
        this.#fail('undefined', 'JSON has no undefined; use null or leave the member out');
      case 'function':
      case 'symbol':
        this.#fail(`a ${typeof value}`, 'only JSON data can be fingerprinted');
    }
    if (value === null) {
      out.push('null');
      return;
    }
    const obj = value as object;
    // The value toJSON returns is written as it is, not asked for its own toJSON again (as
    // JSON.stringify does): `{ toJSON() { return this } }` would otherwise recurse without end.
    if (!viaToJSON && typeof (obj as { toJSON?: unknown }).toJSON === 'function') {
      this.write((obj as { toJSON(key: string): unknown }).toJSON(''), depth, true);
      return;
    }
    if (this.#seen.has(obj)) this.#fail('a cycle', 'the value refers to itself');
    if (depth >= MAX_CANONICAL_DEPTH) this.#fail(`data nested deeper than ${MAX_CANONICAL_DEPTH} levels`, 'flatten it or fingerprint its parts');
    this.#seen.add(obj);
    const keys = this.#keys;
    if (Array.isArray(obj)) {
      out.push('[');
      for (let i = 0; i < obj.length; i++) {
        if (i) out.push(',');
        keys.push(i);
        this.write(obj[i], depth + 1);
        keys.pop();
      }
      out.push(']');
    } else {
      const proto = Object.getPrototypeOf(obj);
      if (proto !== Object.prototype && proto !== null) {
        const name = (obj as { constructor?: { name?: string } }).constructor?.name ?? 'object';
        this.#fail(`a ${name}`, 'only plain objects and arrays are JSON data; convert it first');
      }
      // RFC 8785 sorts member names by UTF-16 code units: JavaScript's default string order.
      const names = Object.keys(obj).sort();
      out.push('{');
      let first = true;
      for (const name of names) {
        const member = (obj as Record<string, unknown>)[name];
        if (member === undefined) continue;
        keys.push(name);
        this.#checkWellFormed(name, true);
        out.push(first ? '' : ',', JSON.stringify(name), ':');
        first = false;
        this.write(member, depth + 1);
        keys.pop();
      }
      out.push('}');
    }
    this.#seen.delete(obj);
  }

  #path(memberName: boolean): string {
    const keys = memberName ? this.#keys.slice(0, -1) : this.#keys;
    const path = keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${k}`)).join('');
    return `$${path}${memberName ? ' (member name)' : ''}`;
  }

  #fail(what: string, hint: string, memberName = false): never {
    const path = this.#path(memberName);
    // A deep value's path runs to thousands of characters: the message keeps its two ends.
    const shown = path.length <= 200 ? path : `${path.slice(0, 100)}…${path.slice(-100)}`;
    throw new CtxgateError('UNSUPPORTED_VALUE', `Cannot canonicalize ${what} at ${shown}: ${hint}`, { details: { path, what } });
  }

  #checkWellFormed(s: string, memberName: boolean): void {
    // The engine's native check first (ES2024's isWellFormed); the loop only locates the fault for
    // the message.
    if (isWellFormed(s)) return;
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
      this.#fail(describeLoneSurrogate(s, i), 'the string is not valid Unicode', memberName);
    }
  }
}
