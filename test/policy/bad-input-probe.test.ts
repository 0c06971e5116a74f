// Bad input found by a probe of the policy, token and layers modules and of the error classes:
// each case used to crash with a raw TypeError/RangeError, hang, or quietly give a wrong answer.
import { describe, expect, it } from 'vitest';
import { CtxgateError, deserializeError, isCtxgateError, SecretRiskError, serializeError } from '../../src/errors.ts';
import { buildThinkContext } from '../../src/layers/views.ts';
import { aggregateDaily } from '../../src/policy/aggregate-history.ts';
import { SessionBudget } from '../../src/policy/budget.ts';
import { jsonByteLength } from '../../src/policy/bytes.ts';
import { TtlCache, VersionedCache } from '../../src/policy/cache.ts';
import { deepFreeze, defineLimits } from '../../src/policy/limits.ts';
import { applyToolPolicy, boundToolResult, withToolPolicy } from '../../src/policy/mcp.ts';
import { citeEos, citeEsi } from '../../src/policy/provenance.ts';
import { dropSensitiveFields, redactForLog } from '../../src/policy/sanitize.ts';
import { defineSingleton } from '../../src/policy/singletons.ts';
import { toToolError } from '../../src/policy/tool-error.ts';
import { truncateText } from '../../src/policy/truncate-text.ts';
import { wrapScalarOutput } from '../../src/policy/wrap.ts';
import { applyContextBudget } from '../../src/tokens/budget.ts';
import type { TokenCounter } from '../../src/tokens/counter.ts';
import { truncateToTokenBudget } from '../../src/tokens/truncate.ts';
import { scenario } from '../layers/fixtures.ts';
import { deep } from '../fixtures/deep.ts';
import { expectCtxgateError, fixedClock, quarterCounter } from './helpers.ts';

/** `n` nested `{ a: … }` levels around 1. */
function symbolNamedError(): Error {
  const e = new Error('x');
  (e as unknown as { name: symbol }).name = Symbol('s');
  return e;
}

const TEXT = 'One sentence here. Another sentence follows it. And a third one closes the text.';

describe('sensitive-key patterns with g or y flags', () => {
  it.each(['g', 'y', 'gy', 'gi'])('flag %s: every matching key is dropped and redacted, and lastIndex is untouched', (flags) => {
    const pattern = new RegExp('password|token|apikey', flags.includes('i') ? flags : `${flags}i`);
    pattern.lastIndex = 0;
    const value = { password: 'p', token: 't', apiKey: 'k', password2: 'b', password3: 'c', password4: 'd', name: 'n' };
    expect(dropSensitiveFields(value, pattern)).toEqual({ name: 'n' });
    expect(pattern.lastIndex).toBe(0);
    const logged = redactForLog(value, { sensitiveKeys: pattern, redact: (s) => s }) as Record<string, unknown>;
    for (const key of ['password', 'token', 'apiKey', 'password2', 'password3', 'password4']) expect(logged[key]).toBe('[REDACTED]');
    expect(logged.name).toBe('n');
    expect(pattern.lastIndex).toBe(0);
  });

  it('a pattern with g whose lastIndex the caller left mid-way still matches every key', () => {
    const pattern = /password/g;
    pattern.lastIndex = 5;
    expect(dropSensitiveFields({ password: 'a', password2: 'b' }, pattern)).toEqual({});
    expect(pattern.lastIndex).toBe(5);
  });
});

describe('errors whose name is a Symbol, and odd error constructor arguments', () => {
  it('toToolError, serializeError and withToolPolicy turn a Symbol-named error into data', async () => {
    const e = symbolNamedError();
    const out = toToolError(e, { clock: fixedClock });
    expect(out.errorCode).toBe('INTERNAL_ERROR');
    expect(out.message).toContain('(Error)');
    const data = serializeError(e);
    expect(data.name).toBe('Error');
    expect(data.message).toBe('x');
    const result = await withToolPolicy('t', () => {
      throw e;
    }, { budget: false, clock: fixedClock })();
    expect(result.isError).toBe(true);
    expect((result.structuredContent as { errorCode: string }).errorCode).toBe('INTERNAL_ERROR');
  });

  it('null options are no options, a non-string message is made text, and a non-string code is refused', () => {
    const e = new CtxgateError('INVALID_PARAMS', 'x', null as never);
    expect(e.code).toBe('INVALID_PARAMS');
    expect(e.details).toEqual({});
    expect(new SecretRiskError(Symbol('m') as never).message).toBe('Symbol(m)');
    for (const code of [5, '', null, undefined]) expectCtxgateError(() => new CtxgateError(code as never, 'x'), 'INVALID_PARAMS', 'code');
    // A code this version does not know, from a newer one, is still rebuilt.
    const rebuilt = deserializeError({ name: 'CtxgateError', code: 'SOME_FUTURE_CODE' as never, message: 'm', details: {} });
    expect(isCtxgateError(rebuilt)).toBe(true);
    expect((rebuilt as CtxgateError).code).toBe('SOME_FUTURE_CODE');
  });

  it('details JSON cannot hold are described or dropped, so the error serialises', () => {
    const cyclic: Record<string, unknown> = { k: 1 };
    cyclic.self = cyclic;
    const e = new CtxgateError('INVALID_PARAMS', 'x', { details: { a: 1n, f: () => 1, n: Number.NaN, c: cyclic, d: new Date(0), ok: [1, 'two'] } });
    const parsed = JSON.parse(JSON.stringify(e)) as { details: Record<string, unknown> };
    expect(parsed.details).toEqual({ a: '1', n: null, c: { k: 1, self: '[omitted]' }, d: '1970-01-01T00:00:00.000Z', ok: [1, 'two'] });
    expect(() => structuredClone(serializeError(e))).not.toThrow();
    // Details that are already plain data are passed as they are.
    const plain = { field: 'x', n: 2 };
    expect(serializeError(new CtxgateError('INVALID_PARAMS', 'x', { details: plain })).details).toBe(plain);
  });
});

describe('token counters that return something other than a TokenCount', () => {
  const bad: [string, unknown][] = [
    ['undefined', undefined],
    ['a number', 5],
    ['an object with tokens NaN', { tokens: Number.NaN, exact: false, encoder: 'x' }],
    ['an object with tokens -1', { tokens: -1, exact: false, encoder: 'x' }],
    ['an object with encoder undefined', { tokens: 1, exact: false }],
  ];
  it.each(bad)('returning %s is INVALID_PARAMS naming the counter, everywhere a counter is taken', async (got, returned) => {
    const counter = (() => returned) as unknown as TokenCounter;
    const state = await scenario();
    const calls: [string, string, () => unknown][] = [
      ['truncateToTokenBudget', 'counter', () => truncateToTokenBudget(TEXT, 3, counter)],
      ['applyContextBudget', 'options.counter', () => applyContextBudget(TEXT, 3, { counter })],
      ['truncateText', 'counter', () => truncateText(TEXT, { maxTokens: 1, counter })],
      ['buildThinkContext', 'options.counter', () => buildThinkContext(state, { budget: 100, counter })],
    ];
    for (const [name, field, call] of calls) {
      const error = expectCtxgateError(call, 'INVALID_PARAMS', field);
      expect(error.message, name).toContain(`returned ${got}`);
    }
    const budget = new SessionBudget({ counter });
    expectCtxgateError(() => budget.record('x'), 'INVALID_PARAMS', 'counter');
    expect(budget.state.calls).toBe(0);
  });
});

describe('data nested deeper than 100 levels', () => {
  it.each<[string, () => unknown]>([
    ['jsonByteLength', () => jsonByteLength(deep(1e5))],
    ['jsonByteLength at 101 levels', () => jsonByteLength(deep(101))],
    ['wrapScalarOutput', () => wrapScalarOutput({ a: deep(1e5) }, { clock: fixedClock })],
    ['boundToolResult', () => boundToolResult('t', deep(1e5), { clock: fixedClock })],
    ['defineLimits', () => defineLimits(deep(1e5))],
    ['deepFreeze', () => deepFreeze(deep(1e5))],
  ])('%s is UNSUPPORTED_VALUE', (_, call) => {
    const error = expectCtxgateError(call, 'UNSUPPORTED_VALUE');
    expect(error.message).toContain('nested deeper than 100 levels');
  });

  it('100 levels still pass, and a refused deepFreeze freezes nothing', () => {
    expect(jsonByteLength(deep(100))).toBe(JSON.stringify(deep(100)).length);
    expect(Object.isFrozen(defineLimits(deep(100)))).toBe(true);
    const value = deep(150);
    expectCtxgateError(() => deepFreeze(value), 'UNSUPPORTED_VALUE');
    expect(Object.isFrozen(value)).toBe(false);
  });
});

describe('clocks returning something other than a time', () => {
  it('applyContextBudget: now() must return a valid Date, and nothing is logged otherwise', () => {
    const lines: unknown[] = [];
    const log = { record: (line: unknown) => void lines.push(line), flush: async () => {} };
    for (const [now, got] of [[() => 'x', 'a string'], [() => new Date(Number.NaN), 'an Invalid Date']] as const) {
      const error = expectCtxgateError(() => applyContextBudget(TEXT, 3, { counter: quarterCounter, log, now: now as () => Date }), 'INVALID_PARAMS', 'options.now');
      expect(error.message).toContain(got);
    }
    expect(lines).toEqual([]);
  });

  it('TtlCache: a clock that is not a function, or returns NaN, is INVALID_PARAMS and the entry is not stored', () => {
    expectCtxgateError(() => new TtlCache({ ttlMs: 10, clock: 5 as never }), 'INVALID_PARAMS', 'options.clock');
    const cache = new TtlCache<string, number>({ ttlMs: 10, clock: () => Number.NaN });
    const error = expectCtxgateError(() => cache.set('a', 1), 'INVALID_PARAMS', 'options.clock');
    expect(error.message).toContain('returned NaN');
    expect(cache.size).toBe(0);
  });
});

describe('smaller defects', () => {
  it('aggregateDaily: a time outside the Date range is INVALID_PARAMS naming the entry', () => {
    expectCtxgateError(() => aggregateDaily([{ ts: 0, v: 1 }, { ts: 1e20, v: 1 }], { timestamp: (e) => e.ts, fields: ['v'] }), 'INVALID_PARAMS', 'history[1].timestamp');
  });

  it('deepFreeze and defineLimits refuse byte arrays, before freezing anything', () => {
    const value = { n: { k: 1 }, b: Buffer.from('x') };
    expect(expectCtxgateError(() => deepFreeze(value), 'UNSUPPORTED_VALUE').message).toContain('byte array at $.b');
    expect(Object.isFrozen(value) || Object.isFrozen(value.n)).toBe(false);
    expectCtxgateError(() => defineLimits(new Uint8Array([1]) as never), 'UNSUPPORTED_VALUE');
  });

  it('SessionBudget.peek refuses NaN and negative sizes', () => {
    const budget = new SessionBudget();
    expectCtxgateError(() => budget.peek(Number.NaN), 'INVALID_PARAMS', 'bytes');
    expectCtxgateError(() => budget.peek(-1), 'INVALID_PARAMS', 'bytes');
    expectCtxgateError(() => budget.peek(1, Number.NaN), 'INVALID_PARAMS', 'tokens');
  });

  it('a loader that waits for its own cache, or a singleton built from itself, is refused instead of hanging', async () => {
    const versioned: VersionedCache<number> = new VersionedCache({ version: () => 'v1', load: async () => (await versioned.get()) + 1 });
    await expect(versioned.get()).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'options.load' } });
    expect(versioned.version).toBeUndefined();
    const ttl = new TtlCache<string, number>({ ttlMs: 1000 });
    await expect(ttl.getOrLoad('k', async () => (await ttl.getOrLoad('k', () => 2)) + 1)).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'load' } });
    expect(ttl.size).toBe(0);
    const single: { get(): unknown } = defineSingleton('bad-input-probe.self', () => single.get());
    expectCtxgateError(() => single.get(), 'INVALID_PARAMS', 'create');
  });

  it('applyToolPolicy refuses a frozen server and leaves it as it was', () => {
    const registerTool = () => undefined;
    const frozen = Object.freeze({ registerTool });
    expectCtxgateError(() => applyToolPolicy(frozen as never), 'INVALID_PARAMS', 'server');
    expect(frozen.registerTool).toBe(registerTool);
    const handler = () => 'r';
    const registration = Object.freeze({ handler });
    const server = { registerTool, _registeredTools: { a: registration } };
    expectCtxgateError(() => applyToolPolicy(server as never), 'INVALID_PARAMS', 'server');
    expect(server.registerTool).toBe(registerTool);
  });

  it('citeEsi and citeEos refuse a timestamp that is not a time and a number that is not finite', () => {
    expectCtxgateError(() => citeEsi(1, 'garbage'), 'INVALID_PARAMS', 'timestamp');
    expectCtxgateError(() => citeEos(Number.NaN), 'INVALID_PARAMS', 'value');
    expectCtxgateError(() => citeEsi(Number.POSITIVE_INFINITY, '2026-01-22T12:00:00Z'), 'INVALID_PARAMS', 'value');
    expect(citeEsi(1, '2026-01-22T12:00:00Z')).toBe('Current: 1 (as of 2026-01-22T12:00:00Z)');
  });
});
