import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCtxgateError } from '../../src/errors.ts';
import { aggregateDaily } from '../../src/policy/aggregate-history.ts';
import { groupByCategory } from '../../src/policy/group-tree.ts';
import { routeStats, securityClass, summarizeRoute, summarizeSequence, truncateList } from '../../src/policy/summarize.ts';
import { encodedBytes, expectCtxgateError, fixedClock, SPEC_ROUTE_MIDDLE_SUMMARY, SPEC_ROUTE_SYSTEMS } from './helpers.ts';

const route = [...SPEC_ROUTE_SYSTEMS];

describe('spec 000 §4 route summarisation', () => {
  it('route > 20 jumps: first 5 and last 5 systems in full, middle summarised with security breakdown and lowest system', () => {
    const out = summarizeRoute({ origin: 'Sys0', systems: route }, { clock: fixedClock });
    expect(out.systems.map((s) => s.name)).toEqual(['Sys0', 'Sys1', 'Sys2', 'Sys3', 'Sys4', 'Sys20', 'Sys21', 'Sys22', 'Sys23', 'Sys24']);
    // Middle = Sys5..Sys19: 0.5 0.4 0.3 -0.2 0.2 0.1 0.0 0.45 0.04 -0.9 0.5 0.6 0.7 0.8 0.9
    expect((out as Record<string, unknown>).systemsSummary).toEqual(SPEC_ROUTE_MIDDLE_SUMMARY);
    expect(out._meta).toEqual({
      count: 10,
      truncated: true,
      truncatedFrom: 25,
      timestamp: '2026-01-22T12:00:00.000Z',
      summarized: true,
      originalCount: 25,
    });
  });

  it('route of exactly 20 jumps is not summarised', () => {
    const out = summarizeRoute({ systems: route.slice(0, 20) }, { clock: fixedClock });
    expect(out.systems).toHaveLength(20);
    expect(out._meta).toEqual({ count: 20, timestamp: '2026-01-22T12:00:00.000Z' });
    expect('systemsSummary' in out).toBe(false);
  });

  it('security classes follow EVE rounding', () => {
    expect([0.45, 0.44, 0.05, 0.04, 0.0, -0.01, 0.5, 1].map(securityClass)).toEqual([
      'highsec',
      'lowsec',
      'lowsec',
      'lowsec',
      'nullsec',
      'nullsec',
      'highsec',
      'highsec',
    ]);
  });

  it('routeStats of an empty run has no lowest system', () => {
    expect(routeStats([])).toEqual({ security: { highsec: 0, lowsec: 0, nullsec: 0 }, lowestSecurity: null });
  });

  it('head + tail must leave something to summarise', () => {
    try {
      summarizeSequence({ s: [] }, { key: 's', threshold: 10, head: 5, tail: 5 });
      expect.unreachable();
    } catch (e) {
      expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
    }
  });

  it('property: head + tail + omitted == original count, and the byte limit holds', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: fc.string({ maxLength: 30 }), security: fc.double({ min: -1, max: 1, noNaN: true }) }), { maxLength: 120 }),
        fc.integer({ min: 400, max: 6000 }),
        (systems, maxBytes) => {
          const out = summarizeRoute({ systems }, { maxBytes, clock: fixedClock });
          expect(encodedBytes(out)).toBeLessThanOrEqual(maxBytes);
          const summary = (out as { systemsSummary?: { omitted: number; fromIndex: number } }).systemsSummary;
          if (systems.length > 20) {
            expect(out._meta.summarized).toBe(true);
            expect(out._meta.originalCount).toBe(systems.length);
            expect(out._meta.count + summary!.omitted).toBe(systems.length);
            // Head is a prefix and tail a suffix of the original route.
            const h = summary!.fromIndex;
            expect(out.systems.slice(0, h)).toEqual(systems.slice(0, h));
            expect(out.systems.slice(h)).toEqual(systems.slice(systems.length - (out.systems.length - h)));
          } else {
            expect(summary).toBeUndefined();
            // Short routes are only cut by bytes, from the end, and say so.
            expect(out.systems).toEqual(systems.slice(0, out.systems.length));
            expect('truncated' in out._meta).toBe(out.systems.length < systems.length);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('spec 000 §4 list > 30 items: truncate with count', () => {
  it('keeps 30 and counts the rest', () => {
    const r = truncateList(Array.from({ length: 45 }, (_, i) => i));
    expect(r.items).toEqual(Array.from({ length: 30 }, (_, i) => i));
    expect(r.meta).toEqual({ count: 30, truncated: true, truncatedFrom: 45, omitted: 15 });
    expect(truncateList([1, 2, 3]).meta).toEqual({ count: 3, omitted: 0 });
    expect(truncateList(Array.from({ length: 30 }, (_, i) => i)).meta.omitted).toBe(0);
  });
});

describe('spec 000 §4 history > 30 days: aggregate to daily stats', () => {
  const day = (d: number, h: number) => new Date(Date.UTC(2026, 0, 1 + d, h)).toISOString();

  it('aggregates a 31-day history to one row per UTC day', () => {
    const history = [];
    for (let d = 0; d < 31; d++) for (const h of [1, 13, 23]) history.push({ timestamp: day(d, h), price: d * 10 + h, volume: 1 });
    const r = aggregateDaily(history, { fields: ['price', 'volume'] });
    expect(r.aggregated).toBe(true);
    if (!r.aggregated) return;
    expect(r.spanDays).toBe(31);
    expect(r.originalCount).toBe(93);
    expect(r.days).toHaveLength(31);
    expect(r.days[2]).toEqual({
      date: '2026-01-03',
      count: 3,
      stats: {
        price: { min: 21, max: 43, sum: 21 + 33 + 43, mean: (21 + 33 + 43) / 3, first: 21, last: 43, samples: 3 },
        volume: { min: 1, max: 1, sum: 3, mean: 1, first: 1, last: 1, samples: 3 },
      },
    });
  });

  it('leaves a 30-day history as it is', () => {
    const history = Array.from({ length: 30 }, (_, d) => ({ date: day(d, 5), kills: d }));
    const r = aggregateDaily(history, { fields: ['kills'] });
    expect(r).toEqual({ aggregated: false, entries: history, originalCount: 30, spanDays: 30 });
  });

  it('orders first/last by time, not input order, and rejects bad timestamps', () => {
    const h = [
      { t: Date.UTC(2026, 0, 1, 20), v: 2 },
      { t: Date.UTC(2026, 0, 1, 2), v: 1 },
      { t: Date.UTC(2026, 2, 1), v: 9 },
    ];
    const r = aggregateDaily(h, { fields: ['v'], timestamp: (e) => e.t });
    expect(r.aggregated && r.days[0]!.stats.v).toMatchObject({ first: 1, last: 2 });
    expect(() => aggregateDaily([{ timestamp: 'yesterday' }], { fields: [] })).toThrow(/history\[0\]\.timestamp/);
  });
});

describe('spec 000 §4 skill tree > 20 skills: group by category', () => {
  const skills = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Skill${i}`, group: ['Gunnery', 'Navigation', 'Engineering'][i % 3] as string }));

  it('groups 21 skills by category, in order of first appearance, with counts', () => {
    const r = groupByCategory(skills(21), { category: 'group', item: (s) => s.name });
    expect(r.grouped).toBe(true);
    if (!r.grouped) return;
    expect(r.originalCount).toBe(21);
    expect(r.groups.map((g) => [g.category, g.count])).toEqual([
      ['Gunnery', 7],
      ['Navigation', 7],
      ['Engineering', 7],
    ]);
    expect(r.groups[0]!.items.slice(0, 2)).toEqual(['Skill0', 'Skill3']);
  });

  it('a tree of 20 skills stays flat', () => {
    expect(groupByCategory(skills(20), { category: 'group' })).toMatchObject({ grouped: false, originalCount: 20 });
  });

  it('counts nested prerequisites and puts uncategorised nodes together', () => {
    type N = { name: string; cat?: string; req?: N[] };
    const tree: N[] = Array.from({ length: 7 }, (_, i) => ({ name: `p${i}`, cat: 'A', req: [{ name: `c${i}`, req: [{ name: `g${i}`, cat: 'B' }] }] }));
    const r = groupByCategory(tree, { category: (n) => n.cat ?? '', children: (n) => n.req, item: (n) => n.name });
    expect(r.originalCount).toBe(21);
    expect(r.grouped && r.groups.map((g) => [g.category, g.count])).toEqual([
      ['A', 7],
      ['uncategorized', 7],
      ['B', 7],
    ]);
  });
});

describe('arguments of the wrong kind', () => {
  it('summarizeSequence, summarizeRoute and truncateList name data, options and items', () => {
    expectCtxgateError(() => summarizeSequence({ s: [] }, undefined as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => summarizeSequence({ s: [] }, {} as never), 'INVALID_PARAMS', 'options.key');
    expectCtxgateError(() => summarizeSequence('x' as never, { key: 's' }), 'INVALID_PARAMS', 'data');
    expectCtxgateError(() => summarizeRoute(null as never), 'INVALID_PARAMS', 'routeData');
    expectCtxgateError(() => summarizeRoute({ systems: [] }, { security: 'security' as never }), 'INVALID_PARAMS', 'options.security');
    expectCtxgateError(() => truncateList('abc' as never), 'INVALID_PARAMS', 'items');
  });

  it('securityClass needs a number; routeStats still reads what its reader returns', () => {
    expectCtxgateError(() => securityClass('0.5' as never), 'INVALID_PARAMS', 'trueSec');
    expectCtxgateError(() => securityClass(Number.NaN), 'INVALID_PARAMS', 'trueSec');
    expectCtxgateError(() => routeStats({} as never), 'INVALID_PARAMS', 'systems');
    expectCtxgateError(() => routeStats([], null as never), 'INVALID_PARAMS', 'security');
    // A reader returning numeric strings was classified before; it still is.
    expect(routeStats([{ s: '0.9' }], (x) => x.s as never).security).toEqual({ highsec: 1, lowsec: 0, nullsec: 0 });
  });

  it('aggregateDaily and groupByCategory name history, tree and options', () => {
    expectCtxgateError(() => aggregateDaily('x' as never, { fields: [] }), 'INVALID_PARAMS', 'history');
    expectCtxgateError(() => aggregateDaily([], undefined as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => aggregateDaily([], {} as never), 'INVALID_PARAMS', 'options.fields');
    expectCtxgateError(() => aggregateDaily([null], { fields: [] }), 'INVALID_PARAMS', 'history[0].timestamp');
    expectCtxgateError(() => groupByCategory({} as never, { category: 'c' }), 'INVALID_PARAMS', 'tree');
    expectCtxgateError(() => groupByCategory([], { category: 5 as never }), 'INVALID_PARAMS', 'options.category');
    const nodes = Array.from({ length: 3 }, () => ({ c: 'a' }));
    expectCtxgateError(() => groupByCategory(nodes, { category: 'c', threshold: 0, children: () => ({ length: 1 }) as never }), 'INVALID_PARAMS', 'options.children');
  });
});

describe('review fixes: summarize callbacks', () => {
  const data = { s: Array.from({ length: 25 }, (_, i) => i) };

  it("a callback returning anything but a plain object is INVALID_PARAMS naming options.summarize ('abc' was spread into {0: 'a', ...})", () => {
    for (const returned of ['abc', 42, null, [1]]) {
      expectCtxgateError(() => summarizeSequence(data, { key: 's', summarize: (() => returned) as never }), 'INVALID_PARAMS', 'options.summarize');
    }
  });

  it('the real counts stay authoritative: a callback cannot set omitted, fromIndex or toIndex', () => {
    const out = summarizeSequence<typeof data, number>(data, { key: 's', clock: fixedClock, summarize: (middle) => ({ omitted: 0, fromIndex: -1, sum: middle.reduce((a, b) => a + b, 0) }) });
    expect((out as Record<string, unknown>).sSummary).toEqual({ omitted: 15, fromIndex: 5, toIndex: 19, sum: 180 });
    expect(out._meta.count + 15).toBe(out._meta.originalCount);
  });
});
