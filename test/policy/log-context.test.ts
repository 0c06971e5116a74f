import { beforeEach, describe, expect, it } from 'vitest';
import { initCore, resetCore } from '../../src/core/core.ts';
import { CtxgateError } from '../../src/errors.ts';
import { SessionBudget } from '../../src/policy/budget.ts';
import { withLogContext } from '../../src/policy/log-context.ts';
import type { LogRecord } from '../../src/policy/log-context.ts';
import { defaultRedactor, secretRedactor } from '../../src/policy/redactor.ts';
import { resetAllSingletons } from '../../src/policy/singletons.ts';
import { wrapOutput } from '../../src/policy/wrap.ts';
import { expectCtxgateError, fixedClock, steppingClock } from './helpers.ts';

beforeEach(() => resetAllSingletons());

const PAYLOAD_MARKER = 'PAYLOAD-SHOULD-NOT-BE-LOGGED';

async function universe(args: { action: string; query?: string }) {
  if (args.action === 'fail') throw new CtxgateError('NOT_FOUND', "System 'Xyzzy' not found in universe");
  if (args.action === 'crash') throw new TypeError(`bad token ghp_abc in ${args.query}`);
  const systems = Array.from({ length: 60 }, (_, i) => ({ name: `${PAYLOAD_MARKER}-${i}` }));
  return wrapOutput({ systems }, 'systems', { maxItems: 50, maxBytes: 100_000, clock: fixedClock });
}

describe('spec 000 §10 structured logging: withLogContext', () => {
  it('logs start (debug), complete (info) with elapsedMs, outputCount, truncated, outputBytes, budgetBytesUsed', async () => {
    const records: LogRecord[] = [];
    const budget = new SessionBudget();
    const handler = withLogContext('universe', universe, { logger: (r) => records.push(r), clock: steppingClock(), budget, redact: (t) => t });
    const out = await handler({ action: 'search', query: 'Jita' });
    expect(records.map((r) => [r.level, r.event])).toEqual([
      ['debug', 'start'],
      ['info', 'complete'],
    ]);
    expect(records[0]).toEqual({
      level: 'debug',
      event: 'start',
      dispatcher: 'universe',
      action: 'search',
      timestamp: '2026-01-22T12:00:00.000Z',
      params: { action: 'search', query: 'Jita' },
    });
    const bytes = new TextEncoder().encode(JSON.stringify(out)).length;
    expect(records[1]).toEqual({
      level: 'info',
      event: 'complete',
      dispatcher: 'universe',
      action: 'search',
      timestamp: '2026-01-22T12:00:00.007Z',
      elapsedMs: 7,
      outputCount: 50,
      truncated: true,
      outputBytes: bytes,
      budgetBytesUsed: bytes,
      budgetLevel: 'ok',
    });
    expect(JSON.stringify(records)).not.toContain(PAYLOAD_MARKER);
  });

  it('logs errors as warnings with elapsedMs, error, errorType, errorCode, and rethrows', async () => {
    const records: LogRecord[] = [];
    const handler = withLogContext('universe', universe, { logger: (r) => records.push(r), clock: steppingClock(0, 5) });
    await expect(handler({ action: 'fail' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(records[1]).toMatchObject({
      level: 'warn',
      event: 'error',
      elapsedMs: 5,
      error: "System 'Xyzzy' not found in universe",
      errorType: 'CtxgateError',
      errorCode: 'NOT_FOUND',
    });
  });

  it('never logs secrets: params and unexpected error messages go through the redactor, or are withheld', async () => {
    const records: LogRecord[] = [];
    const redact = (t: string) => t.replace(/ghp_\w+/g, '[REDACTED]');
    await expect(withLogContext('u', universe, { logger: (r) => records.push(r), redact })({ action: 'crash', query: 'ghp_secret1' })).rejects.toThrow(TypeError);
    await expect(withLogContext('u', universe, { logger: (r) => records.push(r) })({ action: 'crash', query: 'ghp_secret2' })).rejects.toThrow(TypeError);
    const text = JSON.stringify(records);
    expect(text).not.toContain('ghp_secret');
    expect(text).not.toContain('ghp_abc');
    expect(records[1]!.error).toBe('bad token [REDACTED] in [REDACTED]');
    expect(records[3]!.error).toBe('[message withheld: not a ctxgate error and no redactor configured]');
  });

  it('emits JSON lines on request', async () => {
    const lines: string[] = [];
    await withLogContext('universe', universe, { json: true, write: (l) => lines.push(l), clock: fixedClock })({ action: 'search' });
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[1]!)).toMatchObject({ event: 'complete', elapsedMs: 0, outputCount: 50 });
  });

  it('adds _meta.budgetWarning once the session passes the soft limit, and charges the warned output', async () => {
    const budget = new SessionBudget({ softBytes: 3000, hardBytes: 100_000 });
    const handler = withLogContext('universe', universe, { logger: () => {}, budget });
    const first = await handler({ action: 'search' });
    expect(first._meta.budgetWarning).toBeUndefined();
    const second = await handler({ action: 'search' });
    expect(second._meta.budgetWarning).toMatch(/past the 2\.9 KB soft budget/);
    expect(budget.state.usedBytes).toBe(new TextEncoder().encode(JSON.stringify(first)).length + new TextEncoder().encode(JSON.stringify(second)).length);
  });

  it('a throwing logger does not fail the call', async () => {
    const out = await withLogContext('universe', universe, {
      logger: () => {
        throw new Error('log sink down');
      },
    })({ action: 'search' });
    expect(out._meta.count).toBe(50);
  });
});

describe('default redactor (the secret scanner once the core is loaded)', () => {
  it('withholds parameter strings before init, and redacts secrets with the scanner after', async () => {
    const token = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
    const records: LogRecord[] = [];
    const handler = withLogContext('repo', async (p: { action: string; q: string }) => ({ q: p.q.length }), { logger: (r) => records.push(r), clock: fixedClock });
    resetCore();
    expect(defaultRedactor()).toBeUndefined();
    await handler({ action: 'search', q: `token ${token}` });
    expect(records[0]!.params).toEqual({ action: '[6 chars]', q: `[${token.length + 6} chars]` });
    // The record's own action is the same caller text, and withheld the same way.
    expect(records.map((r) => r.action)).toEqual(['[6 chars]', '[6 chars]']);
    await initCore();
    expect(defaultRedactor()).toBeTypeOf('function');
    records.length = 0;
    await handler({ action: 'search', q: `token ${token}` });
    const logged = (records[0]!.params as { q: string }).q;
    expect(logged).not.toContain(token);
    expect(logged).toMatch(/^token \[REDACTED:[a-z0-9-]+:1\]$/);
    expect(records[0]!.action).toBe('search');
    // A model that saw a token can name its action with it: scanned whole, then cut to 100.
    records.length = 0;
    await handler({ action: `${'x'.repeat(90)} ${token}`, q: '' });
    expect(records.map((r) => r.action)).toEqual([`${'x'.repeat(90)} [REDACTED:github-pat:1]`.slice(0, 99) + '…', `${'x'.repeat(90)} [REDACTED:github-pat:1]`.slice(0, 99) + '…']);
    expect(JSON.stringify(records)).not.toContain(token.slice(0, 12));
    expect(secretRedactor()(`a ${token} b ${token}`)).toMatch(/^a \[REDACTED:([a-z0-9-]+):1\] b \[REDACTED:\1:1\]$/);
    // Log lines are no file's text: a path given anyway (from JavaScript) does not make them code.
    const line = '  withCredentials: kEnumerableProperty\n})\n';
    expect(secretRedactor({ path: 'eventsource.js' } as never)(line)).toBe('  withCredentials: [REDACTED:generic-secret:1]\n})\n');
  });
});

describe('arguments of the wrong kind', () => {
  it('withLogContext refuses a wrong dispatcher, handler or option when wrapping, not at the first call', () => {
    expectCtxgateError(() => withLogContext(42 as never, universe), 'INVALID_PARAMS', 'dispatcher');
    expectCtxgateError(() => withLogContext('u', {} as never), 'INVALID_PARAMS', 'handler');
    expectCtxgateError(() => withLogContext('u', universe, null as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => withLogContext('u', universe, { logger: 'console' as never }), 'INVALID_PARAMS', 'options.logger');
    expectCtxgateError(() => withLogContext('u', universe, { budget: {} as never }), 'INVALID_PARAMS', 'options.budget');
  });

  it('a handler output that is not JSON data rejects with UNSUPPORTED_VALUE, and is logged as an error', async () => {
    const records: LogRecord[] = [];
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const handler = withLogContext('u', async () => cyclic, { logger: (r) => records.push(r), clock: fixedClock });
    await expect(handler()).rejects.toMatchObject({ code: 'UNSUPPORTED_VALUE', details: { path: '$.self', what: 'a cycle' } });
    expect(records.map((r) => r.event)).toEqual(['start', 'error']);
    expect(records[1]!.errorCode).toBe('UNSUPPORTED_VALUE');
  });
});

describe('regression: options that compute something per call are checked, and every failure leaves an error record', () => {
  function logged() {
    const records: LogRecord[] = [];
    return { records, logger: (r: LogRecord) => records.push(r), events: () => records.map((r) => `${r.level}:${r.event}`) };
  }

  it('an action callback returning a non-string is INVALID_PARAMS naming options.action and the kind, before the handler runs', async () => {
    for (const [returned, kind] of [[42, 'a number'], [{ secret: 'hunter2' }, 'an object'], [['a'], 'an array']] as const) {
      const log = logged();
      let ran = 0;
      const handler = withLogContext('u', async () => ++ran, { logger: log.logger, clock: fixedClock, action: () => returned as never });
      const error = (await handler().catch((e: unknown) => e)) as CtxgateError;
      expect(error).toBeInstanceOf(CtxgateError);
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.details).toEqual({ field: 'options.action', expected: 'a string or undefined', got: kind });
      expect(error.message).toBe(`options.action: must return a string or undefined (returned ${kind}).`);
      expect(ran).toBe(0);
      expect(log.events()).toEqual(['debug:start', 'warn:error']);
      expect(log.records[0]).toMatchObject({ action: null, params: null });
      expect(log.records[1]).toMatchObject({ errorCode: 'INVALID_PARAMS', errorType: 'CtxgateError', action: null });
      expect(JSON.stringify(log.records)).not.toContain('hunter2');
    }
  });

  it('an action callback returning undefined or null means no action', async () => {
    const log = logged();
    await withLogContext('u', async (_p: { action: string }) => ({}), { logger: log.logger, action: () => null as never })({ action: 'ignored' });
    expect(log.records.map((r) => r.action)).toEqual([null, null]);
  });

  it('a budget function returning a non-budget is INVALID_PARAMS naming options.budget and the kind, before the handler runs', async () => {
    for (const [returned, got] of [[42, 'a number'], [{ peek: () => 0 }, 'an object without record(), countTokens()'], ['budget', 'a string']] as const) {
      const log = logged();
      let ran = 0;
      const handler = withLogContext('u', async (p: { action: string }) => (ran++, { ok: p.action }), { logger: log.logger, clock: fixedClock, budget: () => returned as never });
      const error = (await handler({ action: 'search' }).catch((e: unknown) => e)) as CtxgateError;
      expect(error.code).toBe('INVALID_PARAMS');
      expect(error.details.field).toBe('options.budget');
      expect(error.message).toBe(`options.budget: must return a SessionBudget or undefined (returned ${got}).`);
      expect(ran).toBe(0);
      expect(log.events()).toEqual(['debug:start', 'warn:error']);
      expect(log.records[1]).toMatchObject({ action: 'search', errorCode: 'INVALID_PARAMS' });
    }
  });

  it('a budget function returning undefined charges nothing; one returning a budget charges it', async () => {
    const budget = new SessionBudget();
    const handler = withLogContext('u', async (p: { action: string }) => ({ a: p.action }), { logger: () => {}, budget: (p) => (p.action === 'free' ? undefined : budget) });
    await handler({ action: 'free' });
    expect(budget.state.calls).toBe(0);
    await handler({ action: 'paid' });
    expect(budget.state.calls).toBe(1);
  });

  it('a budget function or an action callback that throws rejects with its error, and the error record is written', async () => {
    const log = logged();
    let ran = 0;
    const boom = new Error('session store down');
    const options = { logger: log.logger, clock: steppingClock(0, 3), redact: (t: string) => t.replace('down', '[gone]') };
    const viaBudget = withLogContext('u', async (_p: { action: string }) => ++ran, {
      ...options,
      budget: () => {
        throw boom;
      },
    });
    await expect(viaBudget({ action: 'search' })).rejects.toBe(boom);
    const viaAction = withLogContext('u', async (_p: { action: string }) => ++ran, {
      ...options,
      action: () => {
        throw boom;
      },
    });
    await expect(viaAction({ action: 'search' })).rejects.toBe(boom);
    expect(ran).toBe(0);
    expect(log.events()).toEqual(['debug:start', 'warn:error', 'debug:start', 'warn:error']);
    expect(log.records[1]).toEqual({
      level: 'warn',
      event: 'error',
      dispatcher: 'u',
      action: 'search',
      timestamp: '1970-01-01T00:00:00.003Z',
      elapsedMs: 3,
      error: 'session store [gone]',
      errorType: 'Error',
      errorCode: null,
    });
    expect(log.records[2]).toMatchObject({ event: 'start', action: null, params: { action: 'search' } });
    expect(log.records[3]).toMatchObject({ action: null, error: 'session store [gone]' });
  });

  it('parameters that refer to themselves (a cycle) are logged with [cycle] where they recur, and the handler runs: a log record never fails the call', async () => {
    const log = logged();
    let ran = 0;
    const handler = withLogContext('u', async (_p: Record<string, unknown>) => ++ran, { logger: log.logger, clock: fixedClock, redact: (t) => t });
    const params: Record<string, unknown> = { action: 'search', query: 'Jita' };
    params.parent = params;
    params.again = params;
    const out = await handler(params);
    expect(ran).toBe(1);
    expect(out).toBe(1);
    expect(log.events()).toEqual(['debug:start', 'info:complete']);
    expect(log.records[0]!.params).toEqual({ action: 'search', query: 'Jita', parent: '[cycle]', again: '[cycle]' });
  });

  it('a redactor that throws fails the call before the handler, and its message is withheld in the error record', async () => {
    const log = logged();
    let ran = 0;
    const handler = withLogContext('u', async (_p: { action: string; q: string }) => ++ran, {
      logger: log.logger,
      redact: () => {
        throw new Error('scanner crashed on ghp_secret');
      },
    });
    await expect(handler({ action: 'search', q: 'x' })).rejects.toThrow('scanner crashed');
    expect(ran).toBe(0);
    expect(log.events()).toEqual(['debug:start', 'warn:error']);
    expect(log.records[1]!.error).toBe('[message withheld: the redactor failed]');
    expect(JSON.stringify(log.records)).not.toContain('ghp_secret');
  });
});
