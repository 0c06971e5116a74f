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
  const out: string[] = [];
  new Writer(out).write(value);
  return out.join('');
}

// The path to the current value is kept as a stack of keys and only turned into text for an
// error message, so the happy path allocates nothing per member.
class Writer {
  readonly #out: string[];
  readonly #keys: (string | number)[] = [];
  readonly #seen = new Set<object>();

  constructor(out: string[]) {
    this.#out = out;
  }

  write(value: unknown): void {
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
    if (typeof (obj as { toJSON?: unknown }).toJSON === 'function') {
      this.write((obj as { toJSON(key: string): unknown }).toJSON(''));
      return;
    }
    if (this.#seen.has(obj)) this.#fail('a cycle', 'the value refers to itself');
    this.#seen.add(obj);
    const keys = this.#keys;
    if (Array.isArray(obj)) {
      out.push('[');
      for (let i = 0; i < obj.length; i++) {
        if (i) out.push(',');
        keys.push(i);
        this.write(obj[i]);
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
        this.write(member);
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
    throw new CtxgateError('UNSUPPORTED_VALUE', `Cannot canonicalize ${what} at ${path}: ${hint}`, { details: { path, what } });
  }

  #checkWellFormed(s: string, memberName: boolean): void {
    // The engine's native check first (ES2024); the loop only locates the fault for the message.
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
      this.#fail(`a lone surrogate (U+${c.toString(16).toUpperCase()}) at index ${i}`, 'the string is not valid Unicode', memberName);
    }
  }
}
