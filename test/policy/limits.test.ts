import { describe, expect, it } from 'vitest';
import { isCtxgateError, serializeError, type CtxgateError } from '../../src/errors.ts';
import { ARIA_LIMITS } from '../../src/policy/aria-limits.ts';
import { KB } from '../../src/policy/bytes.ts';
import { expectCtxgateError } from './helpers.ts';
import {
  assertWithinLimit,
  DEFAULT_TOOL_LIMITS,
  defineLimits,
  defineToolLimits,
  GLOBAL_LIMITS,
  resolveLimit,
  toolLimitsFor,
} from '../../src/policy/limits.ts';
import { FAKE_AWS_KEY_ID } from '../fixtures/project.ts';
import { thrown } from '../fixtures/thrown.ts';

describe('spec 000 §2 per-tool output limits (ARIA example table)', () => {
  const t = ARIA_LIMITS.tools;
  it.each([
    ['universe.route', 100, 5 * KB, 'summarizeMiddle'],
    ['universe.search', 50, 3 * KB, 'topN'],
    ['universe.borders', 50, 3 * KB, 'topN'],
    ['universe.loop', 50, 3 * KB, 'bounded'],
    ['market.orders', 20, 3 * KB, 'head'],
    ['market.arbitrage', 20, 5 * KB, 'topN'],
    ['sde.search', 20, 2 * KB, 'topN'],
    ['sde.agent_search', 30, 3 * KB, 'topN'],
    ['skills.easy_80_plan', 30, 3 * KB, 'head'],
  ] as const)('row %s: %i items, %i bytes, %s', (tool, items, bytes, kind) => {
    expect(t[tool].maxItems).toBe(items);
    expect(t[tool].maxBytes).toBe(bytes);
    expect(t[tool].truncation.kind).toBe(kind);
  });

  it('ranks search by relevance (desc), borders and agents by distance (asc), arbitrage by margin, sde by score', () => {
    expect(t['universe.search'].truncation).toEqual({ kind: 'topN', by: 'relevance', order: 'desc' });
    expect(t['universe.borders'].truncation).toEqual({ kind: 'topN', by: 'distance', order: 'asc' });
    expect(t['sde.agent_search'].truncation).toEqual({ kind: 'topN', by: 'distance', order: 'asc' });
    expect(t['market.arbitrage'].truncation).toEqual({ kind: 'topN', by: 'margin', order: 'desc' });
    expect(t['sde.search'].truncation).toEqual({ kind: 'topN', by: 'score', order: 'desc' });
  });

  it('route summarises above 20 jumps, showing 5 head and 5 tail systems', () => {
    expect(t['universe.route'].truncation).toEqual({ kind: 'summarizeMiddle', threshold: 20, head: 5, tail: 5, summarize: 'route' });
    expect(ARIA_LIMITS.UNIVERSE.routeSummarizeThreshold).toBe(20);
    expect(ARIA_LIMITS.UNIVERSE.routeShowHead).toBe(5);
    expect(ARIA_LIMITS.UNIVERSE.routeShowTail).toBe(5);
  });
});

describe('spec 000 §1 context segments', () => {
  it('lists the seven segments in load order with their sizes', () => {
    expect(ARIA_LIMITS.segments.map((s) => [s.name, s.maxBytes / KB, s.loadOrder])).toEqual([
      ['CLAUDE.md', 20, 1],
      ['Pilot Profile', 3, 2],
      ['Persona Files', 15, 3],
      ['Session Context', 2, 4],
      ['Skill Base', 5, 5],
      ['Skill Overlay', 2, 6],
      ['Tool Results', 10, 7],
    ]);
    expect(ARIA_LIMITS.segments[6]?.perCall).toBe(true);
  });
});

describe('spec 000 §3 centralized limits are frozen', () => {
  it('domain classes UNIVERSE, MARKET, SDE, SKILLS, FITTING, GLOBAL exist and cannot be changed', () => {
    for (const domain of ['UNIVERSE', 'MARKET', 'SDE', 'SKILLS', 'FITTING', 'GLOBAL'] as const) {
      expect(Object.isFrozen(ARIA_LIMITS[domain])).toBe(true);
    }
    expect(() => {
      (ARIA_LIMITS.UNIVERSE as { searchMaxLimit: number }).searchMaxLimit = 999;
    }).toThrow(TypeError);
    expect(Object.isFrozen(ARIA_LIMITS.tools['universe.route'].truncation)).toBe(true);
    expect(ARIA_LIMITS.UNIVERSE.searchMaxLimit).toBe(50);
  });

  it('global limits: 10 KB per tool result, 500-char errors, 50/100 KB budget', () => {
    expect(GLOBAL_LIMITS.toolResultMaxBytes).toBe(10240);
    expect(GLOBAL_LIMITS.errorMessageMaxChars).toBe(500);
    expect(GLOBAL_LIMITS.budgetSoftBytes).toBe(51200);
    expect(GLOBAL_LIMITS.budgetHardBytes).toBe(102400);
    expect(DEFAULT_TOOL_LIMITS.maxItems).toBe(30);
  });

  it('defineLimits deep-freezes a copy and keeps literal values', () => {
    const src = { nested: { max: 3 } };
    const L = defineLimits(src);
    src.nested.max = 4;
    expect(L.nested.max).toBe(3);
    expect(Object.isFrozen(L.nested)).toBe(true);
  });
});

describe('user-declared tool limits', () => {
  it('defineToolLimits validates, copies and freezes', () => {
    const L = defineToolLimits({ 'repo.search': { maxItems: 10, maxBytes: 2048, truncation: { kind: 'topN', by: 'score', order: 'desc' } } });
    expect(Object.isFrozen(L['repo.search'])).toBe(true);
    expect(toolLimitsFor(L, 'repo.search').maxItems).toBe(10);
    expect(toolLimitsFor(L, 'unknown.tool')).toBe(DEFAULT_TOOL_LIMITS);
    expect(toolLimitsFor(L, 'toString')).toBe(DEFAULT_TOOL_LIMITS);
  });

  it.each([
    [{ maxItems: 0, maxBytes: 2048, truncation: { kind: 'head' } }, 'limits["t"].maxItems'],
    [{ maxItems: 5, maxBytes: 10, truncation: { kind: 'head' } }, 'limits["t"].maxBytes'],
    [{ maxItems: 5, maxBytes: 2048, truncation: { kind: 'random' } }, 'limits["t"].truncation'],
    [{ maxItems: 5, maxBytes: 2048, truncation: { kind: 'summarizeMiddle', threshold: 10, head: 5, tail: 5 } }, 'limits["t"].truncation'],
  ])('rejects %j with INVALID_PARAMS naming %s', (limits, field) => {
    const e = thrown(() => defineToolLimits({ t: limits as never }));
    expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
    expect((e as Error).message.startsWith(field)).toBe(true);
  });
});

describe('validation helpers raise INVALID_PARAMS with the limit in the message', () => {
  it('above the max', () => {
    const e = thrown(() => assertWithinLimit('limit', 120, ARIA_LIMITS.UNIVERSE.searchMaxLimit));
    expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
    expect((e as Error).message).toBe('limit: 120 is above the maximum of 50; ask for 50 or fewer');
    expect((e as { details: unknown }).details).toEqual({ field: 'limit', value: 120, min: 1, max: 50 });
  });
  it('below the min, and not an integer', () => {
    expect((thrown(() => assertWithinLimit('limit', 0, 50)) as Error).message).toBe('limit: 0 is below the minimum of 1; ask for at least 1');
    expect((thrown(() => assertWithinLimit('limit', 2.5, 50)) as Error).message).toBe('limit: must be an integer between 1 and 50; got 2.5');
    expect((thrown(() => assertWithinLimit('limit', '7', 50)) as Error).message).toBe('limit: must be an integer between 1 and 50; got the string "7"');
    // Any other string is the model's text, maybe a token: only its length is told.
    const key = FAKE_AWS_KEY_ID;
    const error = thrown(() => resolveLimit('limit', key, { fallback: 10, max: 50 })) as CtxgateError;
    expect(error.message).toBe('limit: must be an integer between 1 and 50; got a string of 20 characters');
    expect(JSON.stringify(serializeError(error))).not.toContain(key.slice(0, 8));
    expect((thrown(() => assertWithinLimit('limit', 'ten', 50)) as Error).message).toBe('limit: must be an integer between 1 and 50; got a string of 3 characters');
  });
  it('accepts values in range, and resolveLimit applies the default', () => {
    expect(assertWithinLimit('limit', 50, 50)).toBe(50);
    expect(resolveLimit('limit', undefined, { fallback: 10, max: 50 })).toBe(10);
    expect(resolveLimit('limit', 20, { fallback: 10, max: 50 })).toBe(20);
    expect(isCtxgateError(thrown(() => resolveLimit('limit', 51, { fallback: 10, max: 50 })), 'INVALID_PARAMS')).toBe(true);
  });
});

describe('arguments of the wrong kind', () => {
  it('defineLimits: a non-object is INVALID_PARAMS naming values; a function inside is UNSUPPORTED_VALUE with its path', () => {
    expectCtxgateError(() => defineLimits(undefined as never), 'INVALID_PARAMS', 'values');
    expectCtxgateError(() => defineLimits((() => 1) as never), 'INVALID_PARAMS', 'values');
    const e = expectCtxgateError(() => defineLimits({ nested: { pick: () => 1 } }), 'UNSUPPORTED_VALUE');
    expect(e.details).toMatchObject({ field: 'values', path: '$.nested.pick', what: 'a function' });
    expect(e.message).toContain('plain data');
    // Cycles are plain data to structured clone: still copied and frozen.
    const cyclic: Record<string, unknown> = { max: 3 };
    cyclic.self = cyclic;
    const L = defineLimits(cyclic);
    expect(L.self).toBe(L);
    expect(Object.isFrozen(L)).toBe(true);
  });

  it('defineToolLimits and toolLimitsFor name the table and the tool', () => {
    expectCtxgateError(() => defineToolLimits(null as never), 'INVALID_PARAMS', 'table');
    expectCtxgateError(() => toolLimitsFor(undefined as never, 'repo.search'), 'INVALID_PARAMS', 'table');
    expectCtxgateError(() => toolLimitsFor({}, 42 as never), 'INVALID_PARAMS', 'tool');
  });

  it('assertWithinLimit and resolveLimit name a wrong field name, bound or options', () => {
    expectCtxgateError(() => assertWithinLimit(Symbol('f') as never, 1, 5), 'INVALID_PARAMS', 'field');
    expectCtxgateError(() => assertWithinLimit('limit', 1, undefined as never), 'INVALID_PARAMS', 'max');
    expectCtxgateError(() => assertWithinLimit('limit', 1, Number.NaN), 'INVALID_PARAMS', 'max');
    expectCtxgateError(() => resolveLimit('limit', 5, undefined as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => resolveLimit('limit', undefined, { max: 50 } as never), 'INVALID_PARAMS', 'options.fallback');
    const swapped = thrown(() => assertWithinLimit('limit', 5, 3, 10));
    expect(isCtxgateError(swapped, 'INVALID_PARAMS')).toBe(true);
    expect((swapped as Error).message).toBe('min: the minimum 10 is above the maximum 3 for limit; swap them');
    expect(assertWithinLimit('limit', 3, 3, 3)).toBe(3);
    // Infinity stays a valid "no upper bound".
    expect(assertWithinLimit('limit', 1e6, Number.POSITIVE_INFINITY)).toBe(1e6);
  });
});

describe('review fixes', () => {
  it('resolveLimit refuses a default outside its own bounds instead of returning it (500 under a max of 50, -3, 1.5)', () => {
    const above = expectCtxgateError(() => resolveLimit('limit', undefined, { fallback: 500, max: 50 }), 'INVALID_PARAMS', 'options.fallback');
    expect(above.message).toBe('options.fallback: the default 500 for limit must be an integer between 1 and 50, the bounds it stands in for; fix the declared default');
    expect(above.details).toEqual({ field: 'options.fallback', fallback: 500, min: 1, max: 50 });
    expectCtxgateError(() => resolveLimit('limit', undefined, { fallback: -3, max: 50 }), 'INVALID_PARAMS', 'options.fallback');
    expectCtxgateError(() => resolveLimit('limit', undefined, { fallback: 1.5, max: 50 }), 'INVALID_PARAMS', 'options.fallback');
    expectCtxgateError(() => resolveLimit('limit', undefined, { fallback: 0, max: 50 }), 'INVALID_PARAMS', 'options.fallback');
    // A bad default is a bug even when this call gave a value: it is caught on the first call.
    expectCtxgateError(() => resolveLimit('limit', 10, { fallback: 500, max: 50 }), 'INVALID_PARAMS', 'options.fallback');
    expectCtxgateError(() => resolveLimit('limit', undefined, { fallback: 5, max: 3, min: 10 }), 'INVALID_PARAMS', 'options.min');
    expect(resolveLimit('limit', undefined, { fallback: 0, max: 50, min: 0 })).toBe(0);
    expect(resolveLimit('limit', undefined, { fallback: 50, max: 50 })).toBe(50);
  });

  it("defineToolLimits accepts summarize: 'route' on summarizeMiddle and refuses other names", () => {
    const L = defineToolLimits({ r: { maxItems: 100, maxBytes: 5 * KB, truncation: { kind: 'summarizeMiddle', threshold: 20, head: 5, tail: 5, summarize: 'route' } } });
    expect(L.r.truncation).toEqual({ kind: 'summarizeMiddle', threshold: 20, head: 5, tail: 5, summarize: 'route' });
    const e = thrown(() => defineToolLimits({ r: { maxItems: 1, maxBytes: 5 * KB, truncation: { kind: 'summarizeMiddle', threshold: 20, head: 5, tail: 5, summarize: 'x' } as never } }));
    expect((e as Error).message.startsWith('limits["r"].truncation.summarize')).toBe(true);
  });
});
