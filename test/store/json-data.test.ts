import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import { copyJson, jsonEqual } from '../../src/store/json-data.ts';
import { cloneContext } from '../../src/store/serialize.ts';
import { sampleContext } from './contract.ts';

/** Every object and array inside `value`. */
function objectsOf(value: unknown, out: object[] = []): object[] {
  if (value !== null && typeof value === 'object') {
    out.push(value);
    for (const v of Object.values(value)) objectsOf(v, out);
  }
  return out;
}

/** The same data with every object's keys in reverse order. */
function reversed(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversed);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) {
      const member = reversed((value as Record<string, unknown>)[key]);
      if (key === '__proto__') Object.defineProperty(out, key, { value: member, enumerable: true, writable: true, configurable: true });
      else out[key] = member;
    }
    return out;
  }
  return value;
}

describe('copyJson', () => {
  it('copies JSON data equal and sharing no object with the original (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const copy = copyJson(value);
        expect(copy).toEqual(value);
        expect(canonicalize(copy)).toBe(canonicalize(value));
        const originals = new Set(objectsOf(value));
        for (const o of objectsOf(copy)) expect(originals.has(o)).toBe(false);
      }),
      { numRuns: 200 },
    );
  });

  it('keeps a "__proto__" key as data and never touches a prototype', () => {
    const evil = JSON.parse('{"__proto__": {"polluted": true}, "a": [1]}') as Record<string, unknown>;
    const copy = copyJson(evil);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(Object.keys(copy)).toEqual(['__proto__', 'a']);
    expect((copy as { polluted?: unknown }).polluted).toBeUndefined();
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('copies non-JSON objects with structuredClone rather than aliasing them', () => {
    const when = new Date('2026-01-01T00:00:00Z');
    const copy = copyJson({ when, nested: { map: new Map([[1, 2]]) } });
    expect(copy.when).not.toBe(when);
    expect(copy.when.getTime()).toBe(when.getTime());
    expect(copy.nested.map.get(1)).toBe(2);
  });

  it('cloneContext gives an independent deep copy of a context', () => {
    const ctx = sampleContext('clone');
    const copy = cloneContext(ctx);
    expect(copy).toEqual(ctx);
    copy.reasoning.intents[0]!.entities!.push('more');
    copy.enrichment.facts[0]!.provenance!.project = 'changed';
    expect(ctx).toEqual(sampleContext('clone'));
  });
});

describe('jsonEqual', () => {
  it('agrees with comparing RFC 8785 texts (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        expect(jsonEqual(a, b)).toBe(canonicalize(a) === canonicalize(b));
        expect(jsonEqual(a, reversed(a))).toBe(true);
        expect(jsonEqual(a, copyJson(a))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('has known answers for the edges', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(true);
    expect(jsonEqual({ a: undefined }, { b: undefined })).toBe(true);
    expect(jsonEqual({ a: 1 }, { b: 1 })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(0, -0)).toBe(true);
    expect(jsonEqual(Number.NaN, Number.NaN)).toBe(true);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(undefined, null)).toBe(false);
  });
});
