import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import { isCtxgateError } from '../../src/errors.ts';

// canonicalize() takes a fast path (a member-sorted copy written by JSON.stringify) for plain JSON
// data and falls back to its member-by-member writer otherwise. These properties pin that the
// path taken never shows: the text equals an independent RFC 8785 reference for every input.

/** A deliberately simple RFC 8785 writer: the reference the fast path must match byte for byte. */
function reference(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '0' : String(value);
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  const obj = value as Record<string, unknown>;
  const names = Object.keys(obj).filter((k) => obj[k] !== undefined);
  names.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${names.map((k) => `${JSON.stringify(k)}:${reference(obj[k])}`).join(',')}}`;
}

/** Member names that stress ordering: index-like, near-index, non-ASCII, astral, escapes. */
const nameArb = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom('0', '1', '2', '10', '01', '-1', '1.5', '4294967294', '4294967295', '99999999999', 'a', 'B', '\u00e9', '\u{1F600}', '\uff61', '"', '\\', '\n', ''),
  fc.nat(40).map(String),
);

const jsonArb = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.integer(),
    fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, Number.MAX_SAFE_INTEGER),
    fc.string({ unit: 'grapheme', maxLength: 12 }),
    fc.string({ unit: 'binary', maxLength: 8 }).map((s) => s.toWellFormed()),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(nameArb, fc.oneof(tie('value'), fc.constant(undefined)), { maxKeys: 6 }),
  ),
})).value;

describe('canonicalize: fast path and writer agree', () => {
  it('equals the reference RFC 8785 text for arbitrary JSON data, index-like member names included', () => {
    fc.assert(
      fc.property(jsonArb, (value) => {
        expect(canonicalize(value)).toBe(reference(value));
      }),
      { numRuns: 1500 },
    );
  });

  it('sorts index-like names by code units, not numerically (known answer)', () => {
    expect(canonicalize({ 10: 'a', 2: 'b', 1: 'c', b: 1, a: { 0: 1, '01': 2 } })).toBe('{"1":"c","10":"a","2":"b","a":{"0":1,"01":2},"b":1}');
  });

  it('keeps an own __proto__ member as data (known answer)', () => {
    const obj = JSON.parse('{"z":1,"__proto__":{"x":true}}') as unknown;
    expect(canonicalize(obj)).toBe('{"__proto__":{"x":true},"z":1}');
  });

  it('gives the same answer for the same shape with different member order, and for null-prototype objects', () => {
    const a = { id: 'x', type: 't', confidence: 0.5 };
    const b = { type: 't', confidence: 0.5, id: 'x' };
    const c = Object.assign(Object.create(null) as object, b);
    expect(canonicalize([a, b, c])).toBe('[{"confidence":0.5,"id":"x","type":"t"},{"confidence":0.5,"id":"x","type":"t"},{"confidence":0.5,"id":"x","type":"t"}]');
  });

  it('honours toJSON anywhere in the value (Date inside an array inside an object)', () => {
    expect(canonicalize({ b: [new Date(Date.UTC(2026, 0, 2))], a: { toJSON: () => 'A' } })).toBe('{"a":"A","b":["2026-01-02T00:00:00.000Z"]}');
  });

  it('refuses non-JSON values deep in plain data with UNSUPPORTED_VALUE and their path', () => {
    const cases: [unknown, string][] = [
      [{ a: [1, { b: Number.NaN }] }, '$.a[1].b'],
      [{ a: [1, undefined] }, '$.a[1]'],
      [{ a: { b: new Map() } }, '$.a.b'],
      [{ a: ['ok', 'bad\uD800'] }, '$.a[1]'],
      [{ a: { ['k\uDC00']: 1 } }, '$.a (member name)'],
      [{ a: [{ f: () => 1 }] }, '$.a[0].f'],
      [{ a: 10n }, '$.a'],
    ];
    for (const [value, path] of cases) {
      let caught: unknown;
      try {
        canonicalize(value);
      } catch (error) {
        caught = error;
      }
      expect(isCtxgateError(caught, 'UNSUPPORTED_VALUE')).toBe(true);
      expect((caught as { details: { path: string } }).details.path).toBe(path);
    }
  });

  it('refuses a cycle deeper than the fast walk goes, with its path', () => {
    const root: Record<string, unknown> = {};
    let node = root;
    for (let i = 0; i < 300; i++) node = node.n = {};
    node.back = root;
    let caught: unknown;
    try {
      canonicalize(root);
    } catch (error) {
      caught = error;
    }
    expect(isCtxgateError(caught, 'UNSUPPORTED_VALUE')).toBe(true);
    expect((caught as { details: { path: string } }).details.path).toBe(`$${'.n'.repeat(300)}.back`);
  });

  it('writes a value nested deeper than the fast walk goes', () => {
    let value: unknown = 1;
    for (let i = 0; i < 400; i++) value = [value];
    expect(canonicalize(value)).toBe(`${'['.repeat(400)}1${']'.repeat(400)}`);
  });
});
