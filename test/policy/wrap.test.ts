import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCtxgateError } from '../../src/errors.ts';
import { ARIA_LIMITS } from '../../src/policy/aria-limits.ts';
import { jsonByteLength, KB, utf8ByteLength } from '../../src/policy/bytes.ts';
import { defineToolLimits } from '../../src/policy/limits.ts';
import { summarizeRoute } from '../../src/policy/summarize.ts';
import { selectItems, wrapOutput, wrapOutputMulti, wrapScalarOutput } from '../../src/policy/wrap.ts';
import { encodedBytes, expectCtxgateError, fixedClock, SPEC_ROUTE_MIDDLE_SUMMARY, SPEC_ROUTE_SYSTEMS } from './helpers.ts';

const systems = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `S${i}`, relevance: i % 7, distance: n - i }));

describe('spec 000 §3 tool output metadata', () => {
  it('wrap_output example: 120 systems cut to 45 give count 45, truncated, truncatedFrom 120, timestamp', () => {
    const out = wrapOutput({ systems: systems(120) }, 'systems', { maxItems: 45, maxBytes: 100 * KB, clock: fixedClock });
    expect(out.systems).toHaveLength(45);
    expect(out._meta).toEqual({ count: 45, truncated: true, truncatedFrom: 120, timestamp: '2026-01-22T12:00:00.000Z' });
  });

  it('truncated and truncatedFrom are omitted when nothing was dropped', () => {
    const out = wrapOutput({ systems: systems(3) }, 'systems', { maxItems: 45, clock: fixedClock });
    expect(out._meta).toEqual({ count: 3, timestamp: '2026-01-22T12:00:00.000Z' });
    expect('truncated' in out._meta).toBe(false);
    expect('truncatedFrom' in out._meta).toBe(false);
  });

  it('timestamp is ISO 8601 from the injected clock', () => {
    const out = wrapScalarOutput({ item: { id: 1 } }, { clock: () => Date.UTC(2030, 5, 1, 8, 30, 15, 250) });
    expect(out._meta.timestamp).toBe('2030-06-01T08:30:15.250Z');
    expect(new Date(out._meta.timestamp).getTime()).toBe(Date.UTC(2030, 5, 1, 8, 30, 15, 250));
  });

  it('does not modify the input and keeps other fields and producer _meta extras', () => {
    const data = { systems: systems(40), origin: 'Jita', _meta: { source: 'ESI', truncated: false, count: 999 } };
    const copy = structuredClone(data);
    const out = wrapOutput(data, 'systems', { maxItems: 10, maxBytes: 100 * KB, clock: fixedClock });
    expect(data).toEqual(copy);
    expect(out.origin).toBe('Jita');
    expect(out._meta).toEqual({ source: 'ESI', count: 10, truncated: true, truncatedFrom: 40, timestamp: '2026-01-22T12:00:00.000Z' });
  });

  it('a missing or non-array list is INVALID_PARAMS', () => {
    expect(() => wrapOutput({ systems: 'x' } as never, 'systems')).toThrow(/systems: must be an array/);
    try {
      wrapOutput([] as never, 'systems');
    } catch (e) {
      expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
    }
  });
});

describe('byte limits are measured on the serialised UTF-8 output', () => {
  it('"3 KB" holds for universe.search with multi-byte names: at most 3,072 bytes, _meta included', () => {
    const big = Array.from({ length: 200 }, (_, i) => ({ name: `星系-${i}-€-${'x'.repeat(60)}`, relevance: i }));
    const out = wrapOutput({ systems: big }, 'systems', { limits: ARIA_LIMITS.tools['universe.search'], clock: fixedClock });
    expect(encodedBytes(out)).toBeLessThanOrEqual(3072);
    expect(out._meta.truncated).toBe(true);
    expect(out._meta.truncatedFrom).toBe(200);
    // Top-N by relevance: the kept items are the most relevant, best first.
    expect(out.systems[0]!.relevance).toBe(199);
    expect(out._meta.count).toBeLessThan(50); // the byte limit, not the item limit, was binding
    // Maximal: one more item would not fit.
    const more = { ...out, systems: big.slice().reverse().slice(0, out._meta.count + 1), _meta: { ...out._meta, count: out._meta.count + 1 } };
    expect(encodedBytes(more)).toBeGreaterThan(3072);
  });

  it('utf8ByteLength agrees with TextEncoder, including astral characters and lone surrogates', () => {
    for (const s of ['', 'abc', 'é', '€', '😀', 'a\uD800b', '\uDC00', 'x😀y€']) {
      expect(utf8ByteLength(s)).toBe(new TextEncoder().encode(s).length);
    }
  });

  it('when even an empty list does not fit, long strings are shortened and listed in shortenedFields', () => {
    const out = wrapOutput({ systems: systems(5), note: 'n'.repeat(5000) }, 'systems', { maxBytes: 1024, clock: fixedClock });
    expect(encodedBytes(out)).toBeLessThanOrEqual(1024);
    expect(out.systems).toEqual([]);
    expect(out._meta.truncated).toBe(true);
    expect(out._meta.shortenedFields).toEqual(['note']);
    expect(out.note).toMatch(/^n+…\[\d+ chars omitted\]…n+$/);
  });

  it('an output that cannot fit at all raises CONTEXT_TOO_LARGE', () => {
    const keys = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`k${i}`, i]));
    try {
      wrapScalarOutput(keys, { maxBytes: 300 });
      expect.unreachable();
    } catch (e) {
      expect(isCtxgateError(e, 'CONTEXT_TOO_LARGE')).toBe(true);
      expect((e as Error).message).toMatch(/limit is 300/);
    }
  });
});

describe('wrapOutputMulti (buy and sell orders)', () => {
  const orders = (n: number, side: string) => Array.from({ length: n }, (_, i) => ({ side, price: 100 + i, volume: i }));

  it('applies each list limit and reports per-list and total counts', () => {
    const out = wrapOutputMulti({ buyOrders: orders(25, 'buy'), sellOrders: orders(5, 'sell') }, [['buyOrders', 20], ['sellOrders', 20]], {
      maxBytes: 100 * KB,
      clock: fixedClock,
    });
    expect(out.buyOrders).toHaveLength(20);
    expect(out.sellOrders).toHaveLength(5);
    expect(out._meta).toEqual({
      count: 25,
      truncated: true,
      truncatedFrom: 30,
      timestamp: '2026-01-22T12:00:00.000Z',
      lists: { buyOrders: { count: 20, truncated: true, truncatedFrom: 25 }, sellOrders: { count: 5 } },
    });
  });

  it('under a byte limit, drops from the longest list first so both sides stay', () => {
    const out = wrapOutputMulti({ buyOrders: orders(20, 'buy'), sellOrders: orders(20, 'sell') }, ['buyOrders', 'sellOrders'], {
      limits: ARIA_LIMITS.tools['market.orders'],
      clock: fixedClock,
    });
    expect(encodedBytes(out)).toBeLessThanOrEqual(3072);
    expect(Math.abs(out.buyOrders.length - out.sellOrders.length)).toBeLessThanOrEqual(1);
    expect(out.buyOrders.length).toBeGreaterThan(5);
  });

  it('rejects a key listed twice', () => {
    expect(() => wrapOutputMulti({ a: [] }, ['a', 'a'])).toThrow(/names "a" twice/);
  });
});

describe('wrapScalarOutput', () => {
  it('scalar outputs count 1 and are not truncated', () => {
    expect(wrapScalarOutput({ item: { typeId: 587 } }, { clock: fixedClock })).toEqual({
      item: { typeId: 587 },
      _meta: { count: 1, timestamp: '2026-01-22T12:00:00.000Z' },
    });
  });
});

describe('property: wrapped output invariants', () => {
  const item = fc.record({ name: fc.string({ maxLength: 40, unit: 'binary' }), score: fc.integer() });
  const arbitrary = fc.record({
    items: fc.array(item, { maxLength: 80 }),
    maxItems: fc.integer({ min: 0, max: 60 }),
    maxBytes: fc.integer({ min: 256, max: 4000 }),
    strategy: fc.constantFrom({ kind: 'head' } as const, { kind: 'topN', by: 'score', order: 'desc' } as const),
  });

  it('never exceeds the byte limit; truncated present iff items were dropped; count matches', () => {
    fc.assert(
      fc.property(arbitrary, ({ items, maxItems, maxBytes, strategy }) => {
        const out = wrapOutput({ items }, 'items', { maxItems, maxBytes, truncation: strategy, clock: fixedClock });
        expect(encodedBytes(out)).toBeLessThanOrEqual(maxBytes);
        expect(out._meta.count).toBe(out.items.length);
        expect(out.items.length).toBeLessThanOrEqual(maxItems);
        const dropped = out.items.length < items.length;
        expect('truncated' in out._meta).toBe(dropped);
        expect(out._meta.truncatedFrom).toBe(dropped ? items.length : undefined);
        if (strategy.kind === 'head') expect(out.items).toEqual(items.slice(0, out.items.length));
      }),
      { numRuns: 300 },
    );
  });

  it('multi: never exceeds the byte limit; totals add up per list', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 40 }), fc.array(item, { maxLength: 40 }), fc.integer({ min: 256, max: 3000 }), (a, b, maxBytes) => {
        const out = wrapOutputMulti({ a, b }, [['a', 20], ['b', 25]], { maxBytes, clock: fixedClock });
        expect(encodedBytes(out)).toBeLessThanOrEqual(maxBytes);
        const lists = out._meta.lists!;
        expect(lists.a!.count + lists.b!.count).toBe(out._meta.count);
        expect(out._meta.count).toBe(out.a.length + out.b.length);
        expect('truncated' in out._meta).toBe(out._meta.count < a.length + b.length);
      }),
      { numRuns: 200 },
    );
  });
});

describe('byte measures', () => {
  it('property: jsonStringByteLength equals the bytes JSON.stringify writes inside the quotes', async () => {
    const { jsonStringByteLength } = await import('../../src/policy/bytes.ts');
    fc.assert(
      fc.property(fc.string({ unit: fc.oneof(fc.constantFrom('"', '\\', '\n', '\u0001', '\u007f', '\uD800', '\uDC00', '😀'), fc.string({ unit: 'binary', maxLength: 3 })) }), (s) => {
        expect(jsonStringByteLength(s)).toBe(encodedBytes(s) - 2);
      }),
      { numRuns: 500 },
    );
  });
});

describe('arguments of the wrong kind and data that is not JSON', () => {
  it('names a wrong key, options, lists entry or strategy', () => {
    expectCtxgateError(() => wrapOutput({ xs: [] }, 42 as never), 'INVALID_PARAMS', 'key');
    expectCtxgateError(() => wrapOutput({ xs: [] }, 'xs', null as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => wrapOutput({ xs: [] }, 'xs', { limits: 'big' as never }), 'INVALID_PARAMS', 'options.limits');
    expectCtxgateError(() => wrapOutput({ xs: [] }, 'xs', { maxItems: Symbol('n') as never }), 'INVALID_PARAMS', 'maxItems');
    expectCtxgateError(() => wrapOutputMulti({ a: [] }, 'a' as never), 'INVALID_PARAMS', 'lists');
    expectCtxgateError(() => wrapOutputMulti({ a: [] }, [null as never]), 'INVALID_PARAMS', 'lists[0]');
    expectCtxgateError(() => wrapScalarOutput({ a: 1 }, 7 as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => selectItems('abc' as never, 1, { kind: 'head' }), 'INVALID_PARAMS', 'items');
    expectCtxgateError(() => selectItems([1], 1, { kind: 'topN' } as never), 'INVALID_PARAMS', 'strategy.by');
  });

  it('a message never quotes a wrong non-number value', () => {
    const e = expectCtxgateError(() => wrapOutput({ xs: [] }, 'xs', { maxBytes: 'sk-secret' as never }), 'INVALID_PARAMS', 'maxBytes');
    expect(e.message).not.toContain('sk-secret');
    expect(e.message).toContain('a string');
  });

  it('a cycle or a BigInt in the data is UNSUPPORTED_VALUE naming where it is', () => {
    const item: Record<string, unknown> = { id: 1 };
    item.self = item;
    const cyc = expectCtxgateError(() => wrapOutput({ xs: [item] }, 'xs'), 'UNSUPPORTED_VALUE');
    // The path is in the data passed (items used to be measured alone, and reported from their own root).
    expect(cyc.details).toEqual({ path: '$.xs[0].self', what: 'a cycle' });
    const big = expectCtxgateError(() => wrapScalarOutput({ total: 10n }), 'UNSUPPORTED_VALUE');
    expect(big.details).toEqual({ path: '$.total', what: 'a BigInt' });
    expect(big.message).toContain('convert it to a number or a string');
    expect(expectCtxgateError(() => jsonByteLength([1, { n: 2n }]), 'UNSUPPORTED_VALUE').details.path).toBe('$[1].n');
    // Shared (not cyclic) references are fine, as in JSON.stringify.
    const shared = { s: 'x' };
    expect(jsonByteLength({ a: shared, b: shared })).toBe(encodedBytes({ a: shared, b: shared }));
  });

  it('errors thrown by the data itself pass through unchanged', () => {
    const boom = new TypeError('getter failed');
    const data = {
      get xs(): unknown[] {
        throw boom;
      },
    };
    expect(() => jsonByteLength(data)).toThrow(boom);
  });

  it('a clock that is not a function or returns no time is INVALID_PARAMS naming clock', () => {
    expectCtxgateError(() => wrapScalarOutput({ a: 1 }, { clock: 5 as never }), 'INVALID_PARAMS', 'options.clock');
    expectCtxgateError(() => wrapScalarOutput({ a: 1 }, { clock: () => Number.NaN }), 'INVALID_PARAMS', 'clock');
  });
});

describe('review fixes: strategies and limits are checked by the schema of defineToolLimits', () => {
  it('selectItems refuses a negative or fractional max instead of silently dropping items', () => {
    expect(expectCtxgateError(() => selectItems([1, 2, 3, 4], -1, { kind: 'head' }), 'INVALID_PARAMS', 'max').message).toBe(
      'max: must be a non-negative integer; got -1',
    );
    expectCtxgateError(() => selectItems([1, 2, 3, 4], 1.5, { kind: 'head' }), 'INVALID_PARAMS', 'max');
    expectCtxgateError(() => selectItems([1, 2, 3, 4], Number.POSITIVE_INFINITY, { kind: 'head' }), 'INVALID_PARAMS', 'max');
    expect(selectItems([1, 2, 3, 4], 0, { kind: 'head' })).toEqual([]);
  });

  it.each<[string, unknown, string]>([
    ['an unknown kind', { kind: 'bogus' }, 'strategy.kind'],
    ['an unknown order', { kind: 'topN', by: 'score', order: 'sideways' }, 'strategy.order'],
    ['a negative head', { kind: 'summarizeMiddle', threshold: 20, head: -3, tail: 5 }, 'strategy.head'],
    ['head + tail at the threshold', { kind: 'summarizeMiddle', threshold: 10, head: 5, tail: 5 }, 'strategy.head'],
    ['no threshold', { kind: 'summarizeMiddle', head: 5, tail: 5 }, 'strategy.threshold'],
    ['an unknown stats name', { kind: 'summarizeMiddle', threshold: 20, head: 5, tail: 5, summarize: 'bogus' }, 'strategy.summarize'],
  ])('selectItems refuses %s, naming %s', (_, strategy, field) => {
    expectCtxgateError(() => selectItems([1, 2, 3], 2, strategy as never), 'INVALID_PARAMS', field);
  });

  it('wrapOutput and wrapOutputMulti refuse the same strategies, naming where they were given', () => {
    const bad = { kind: 'summarizeMiddle', threshold: 20, head: -3, tail: 5 } as never;
    expectCtxgateError(() => wrapOutput({ xs: [1] }, 'xs', { truncation: bad }), 'INVALID_PARAMS', 'truncation.head');
    expectCtxgateError(() => wrapOutput({ xs: [1] }, 'xs', { truncation: { kind: 'topN', by: 'x', order: 'sideways' } as never }), 'INVALID_PARAMS', 'truncation.order');
    expectCtxgateError(() => wrapOutputMulti({ a: [1] }, [{ key: 'a', truncation: { kind: 'bogus' } as never }]), 'INVALID_PARAMS', 'lists[0].truncation.kind');
  });

  it('wrapOutputMulti with no list is INVALID_PARAMS, not count 0 over 40 unbounded items', () => {
    const e = expectCtxgateError(() => wrapOutputMulti({ a: Array.from({ length: 40 }, (_, i) => i) }, []), 'INVALID_PARAMS', 'lists');
    expect(e.message).toContain('wrapScalarOutput');
  });
});

describe('review fixes: summarize callbacks and named route stats', () => {
  const numbers = { s: Array.from({ length: 40 }, (_, i) => i) };
  const middle = { kind: 'summarizeMiddle', threshold: 20, head: 5, tail: 5 } as const;

  it('a summarize callback that returns a non-plain object is INVALID_PARAMS naming it (a string used to be spread as {0: "a", ...})', () => {
    for (const [returned, got] of [['abc', 'a string'], [[1, 2], 'an array'], [undefined, 'undefined'], [new Map(), 'an object']] as const) {
      const e = expectCtxgateError(() => wrapOutput(numbers, 's', { truncation: middle, summarize: (() => returned) as never }), 'INVALID_PARAMS', 'options.summarize');
      expect(e.message).toContain(`(returned ${got})`);
    }
  });

  it('the real counts win over counts a summarize callback returns', () => {
    const out = wrapOutput(numbers, 's', { truncation: middle, clock: fixedClock, summarize: () => ({ omitted: 0, toIndex: 99, total: 7 }) });
    expect((out as Record<string, unknown>).sSummary).toEqual({ omitted: 30, fromIndex: 5, toIndex: 34, total: 7 });
    expect(Object.keys((out as Record<string, unknown>).sSummary as object)).toEqual(['omitted', 'fromIndex', 'toIndex', 'total']);
  });

  it("limits naming the route stats (summarize: 'route') give exactly summarizeRoute's output", () => {
    const route = { origin: 'Sys0', systems: [...SPEC_ROUTE_SYSTEMS] };
    const limits = defineToolLimits({
      'universe.route': { maxItems: 100, maxBytes: 5 * KB, truncation: { kind: 'summarizeMiddle', threshold: 20, head: 5, tail: 5, summarize: 'route' }, listKeys: ['systems'] },
    });
    const out = wrapOutput(route, 'systems', { limits: limits['universe.route'], clock: fixedClock });
    expect(out).toEqual(summarizeRoute(route, { clock: fixedClock }));
    expect((out as Record<string, unknown>).systemsSummary).toEqual(SPEC_ROUTE_MIDDLE_SUMMARY);
  });
});

describe('the built-in universe.route limits (spec 000 §4)', () => {
  it("summarise a long route with summarizeRoute's security breakdown and lowest-security system", () => {
    const secs = Array.from({ length: 30 }, (_, i) => (i === 17 ? -0.4 : i % 3 === 0 ? 0.3 : 0.8));
    const route = { origin: 'Sys0', systems: secs.map((security, i) => ({ name: `Sys${i}`, security })) };
    const out = wrapOutput(route, 'systems', { limits: ARIA_LIMITS.tools['universe.route'], clock: fixedClock }) as Record<string, unknown>;
    expect(out).toEqual(summarizeRoute(route, { clock: fixedClock }));
    expect(out.systemsSummary).toEqual({ omitted: 20, fromIndex: 5, toIndex: 24, security: { highsec: 12, lowsec: 7, nullsec: 1 }, lowestSecurity: { name: 'Sys17', security: -0.4 } });
  });
});

describe('review fixes: UNSUPPORTED_VALUE paths are paths in the data passed', () => {
  it('a cycle at the top level is at $.me (was $.me.me), in every wrapper', () => {
    const me: Record<string, unknown> = { xs: [] };
    me.me = me;
    for (const call of [() => wrapOutput(me, 'xs'), () => wrapOutputMulti(me, ['xs']), () => wrapScalarOutput(me)]) {
      expect(expectCtxgateError(call, 'UNSUPPORTED_VALUE').details).toEqual({ path: '$.me', what: 'a cycle' });
    }
  });

  it('a BigInt list item is at its index (was $)', () => {
    expect(expectCtxgateError(() => wrapOutput({ xs: [1, 2, 10n] }, 'xs'), 'UNSUPPORTED_VALUE').details).toEqual({ path: '$.xs[2]', what: 'a BigInt' });
    expect(expectCtxgateError(() => wrapOutputMulti({ a: [1], b: [{ n: 1n }] }, ['a', 'b']), 'UNSUPPORTED_VALUE').details).toEqual({ path: '$.b[0].n', what: 'a BigInt' });
    // In a summarised list, an item in the kept tail (index 27 of 30).
    const e = expectCtxgateError(() => wrapOutput({ s: Array.from({ length: 30 }, (_, i) => (i === 27 ? 3n : i)) }, 's', { truncation: { kind: 'summarizeMiddle', threshold: 20, head: 5, tail: 5 } }), 'UNSUPPORTED_VALUE');
    expect(e.details).toEqual({ path: '$.s[27]', what: 'a BigInt' });
  });
});
