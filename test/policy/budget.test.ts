import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { initCore } from '../../src/core/core.ts';
import { isCtxgateError } from '../../src/errors.ts';
import { estimator } from '../../src/tokens/estimator.ts';
import { getContextBudget, resetContextBudget, SessionBudget, withBudgetWarning } from '../../src/policy/budget.ts';
import type { BudgetPersistence, BudgetState } from '../../src/policy/budget.ts';
import { withLogContext } from '../../src/policy/log-context.ts';
import type { LogRecord } from '../../src/policy/log-context.ts';
import { resetAllSingletons } from '../../src/policy/singletons.ts';
import { expectCtxgateError, fixedClock, quarterCounter } from './helpers.ts';

beforeEach(() => resetAllSingletons());
afterEach(() => resetAllSingletons());

describe('spec 000 §2 total context budget: soft 50 KB, hard 100 KB, advisory', () => {
  it('defaults are 50 KB and 100 KB', () => {
    const b = new SessionBudget();
    expect([b.softBytes, b.hardBytes]).toEqual([51200, 102400]);
  });

  it('ok up to the soft limit, soft warning past it, hard warning past 100 KB', () => {
    const b = new SessionBudget({ clock: fixedClock });
    expect(b.record('', { bytes: 51200 })).toEqual({ level: 'ok', usedBytes: 51200, usedTokens: 0 });
    const soft = b.record('', { bytes: 1 });
    expect(soft.level).toBe('soft');
    expect(soft.warning).toBe(
      'Session tool output is 50.0 KB, past the 50.0 KB soft budget; 50.0 KB left before the 100.0 KB hard limit. Prefer narrower queries.',
    );
    // Exactly at the hard limit is still only past the soft one.
    expect(b.record('', { bytes: 51199 })).toMatchObject({ level: 'soft', usedBytes: 102400 });
    const hard = b.record('', { bytes: 1 });
    expect(hard.level).toBe('hard');
    expect(hard.warning).toBe('Session tool output is 100.0 KB, past the 100.0 KB hard limit. Reduce scope: ask for fewer items, add filters or request summaries.');
    expect(b.state).toEqual({ version: 1, usedBytes: 102401, usedTokens: 0, calls: 4, updatedAt: '2026-01-22T12:00:00.000Z' });
  });

  it('measures outputs as compact UTF-8 JSON and counts tokens with the counter', () => {
    const b = new SessionBudget({ counter: quarterCounter });
    const c = b.record({ name: 'Jita €' });
    expect(c.usedBytes).toBe(new TextEncoder().encode('{"name":"Jita €"}').length);
    expect(c.usedTokens).toBe(Math.ceil('{"name":"Jita €"}'.length / 4));
  });

  it('token limits warn too', () => {
    const b = new SessionBudget({ counter: quarterCounter, softTokens: 10, hardTokens: 20 });
    expect(b.record('x'.repeat(44)).level).toBe('soft');
    expect(b.record('x'.repeat(44)).level).toBe('hard');
  });

  it('warnings are added to _meta.budgetWarning (advisory: the output is otherwise unchanged)', () => {
    const b = new SessionBudget({ softBytes: 10, hardBytes: 20 });
    const check = b.record('', { bytes: 15 });
    const out = { systems: [1], _meta: { count: 1, timestamp: 't' } };
    expect(withBudgetWarning(out, check)).toEqual({ systems: [1], _meta: { count: 1, timestamp: 't', budgetWarning: check.warning } });
    expect(out._meta).toEqual({ count: 1, timestamp: 't' });
    expect(withBudgetWarning(out, { level: 'ok', usedBytes: 0, usedTokens: 0 })).toBe(out);
  });

  it('events: record every time, soft and hard once when crossed, reset', () => {
    const b = new SessionBudget({ softBytes: 10, hardBytes: 20 });
    const seen: string[] = [];
    b.on('record', (e) => seen.push(`record:${e.bytes}`));
    b.on('soft', (e) => seen.push(`soft:${e.usedBytes}`));
    const off = b.on('hard', (e) => seen.push(`hard:${e.usedBytes}`));
    b.on('reset', () => seen.push('reset'));
    b.record('', { bytes: 5 });
    b.record('', { bytes: 6 });
    b.record('', { bytes: 1 });
    b.record('', { bytes: 9 });
    b.record('', { bytes: 9 });
    b.reset();
    off();
    b.record('', { bytes: 100 });
    expect(seen).toEqual(['record:5', 'record:6', 'soft:11', 'record:1', 'record:9', 'hard:21', 'record:9', 'reset', 'record:100', 'soft:100']);
    expect(b.state.usedBytes).toBe(100);
  });

  it('a throwing listener does not break recording', () => {
    const b = new SessionBudget();
    b.on('record', () => {
      throw new Error('host bug');
    });
    expect(b.record('', { bytes: 1 }).usedBytes).toBe(1);
  });

  it('counts tokens with the built-in estimator when token limits are set without a counter', async () => {
    await initCore();
    const b = new SessionBudget({ softTokens: 2, hardTokens: 100 });
    const check = b.record('hello world, hello world');
    expect(check.usedTokens).toBe(estimator()('hello world, hello world').tokens);
    expect(check.level).toBe('soft');
    expect(new SessionBudget().countTokens('hello world')).toBe(0);
  });

  it('rejects inconsistent limits and a counter that is not a function', () => {
    for (const opts of [{ softBytes: 200, hardBytes: 100 }, { softTokens: 5, counter: 'o200k' as never }, { hardBytes: 0 }]) {
      try {
        new SessionBudget(opts);
        expect.unreachable();
      } catch (e) {
        expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
      }
    }
  });
});

describe('budget persistence', () => {
  function memoryPersistence(initial?: unknown) {
    let stored = initial;
    const saves: BudgetState[] = [];
    const p: BudgetPersistence = {
      load: async () => stored as BudgetState | undefined,
      save: async (s) => {
        await new Promise((r) => setTimeout(r, 1));
        saves.push(s);
        stored = s;
      },
    };
    return { p, saves, get stored() {
      return stored;
    } };
  }

  it('saves every change in order and restores it in a new tracker', async () => {
    const mem = memoryPersistence();
    const a = new SessionBudget({ persistence: mem.p, clock: fixedClock });
    a.record('', { bytes: 100 });
    a.record('', { bytes: 50 });
    await a.flush();
    expect(mem.saves.map((s) => s.usedBytes)).toEqual([100, 150]);
    const b = new SessionBudget({ persistence: mem.p });
    expect(await b.load()).toBe(true);
    expect(b.state).toEqual({ version: 1, usedBytes: 150, usedTokens: 0, calls: 2, updatedAt: '2026-01-22T12:00:00.000Z' });
  });

  it('an invalid stored state is ignored and reported; a failing save is reported, not thrown', async () => {
    const mem = memoryPersistence({ version: 1, usedBytes: -5 });
    const b = new SessionBudget({ persistence: mem.p });
    const errors: string[] = [];
    b.on('error', (e) => errors.push(e.operation));
    expect(await b.load()).toBe(false);
    expect(b.state.usedBytes).toBe(0);
    const failing = new SessionBudget({ persistence: { load: async () => undefined, save: async () => Promise.reject(new Error('disk full')) } });
    failing.on('error', (e) => errors.push(`${e.operation}:${(e.error as Error).message}`));
    failing.record('', { bytes: 1 });
    await failing.flush();
    expect(errors).toEqual(['load', 'save:disk full']);
  });
});

describe('spec 000 §10 get/reset context budget (process-wide per session)', () => {
  it('one tracker per session id; reset one or all', () => {
    getContextBudget('s1').record('', { bytes: 10 });
    getContextBudget('s2').record('', { bytes: 20 });
    expect(getContextBudget('s1').state.usedBytes).toBe(10);
    resetContextBudget('s1');
    expect(getContextBudget('s1').state.usedBytes).toBe(0);
    expect(getContextBudget('s2').state.usedBytes).toBe(20);
    resetContextBudget();
    expect(getContextBudget('s2').state.usedBytes).toBe(0);
  });

  it('spec 000 §9: resetAllSingletons clears the budgets', () => {
    getContextBudget().record('', { bytes: 99 });
    resetAllSingletons();
    expect(getContextBudget().state.usedBytes).toBe(0);
  });

  describe('regression: a reset reaches budgets already handed out (the withLogContext JSDoc example)', () => {
    const handler = async () => ({ systems: ['Jita', 'Amarr'], _meta: { count: 2 } });
    const OUTPUT_BYTES = new TextEncoder().encode(JSON.stringify({ systems: ['Jita', 'Amarr'], _meta: { count: 2 } })).length;

    function wrapped() {
      const records: LogRecord[] = [];
      const universe = withLogContext('universe', handler, { budget: getContextBudget(), logger: (r) => records.push(r), clock: fixedClock });
      const charged = () => records.filter((r) => r.event === 'complete').map((r) => r.budgetBytesUsed);
      return { universe, charged };
    }

    it('resetContextBudget() zeroes the captured budget in place, and getContextBudget() still returns it', async () => {
      const captured = getContextBudget();
      const { universe, charged } = wrapped();
      await universe();
      await universe();
      expect(captured.state.usedBytes).toBe(2 * OUTPUT_BYTES);
      resetContextBudget();
      expect(captured.state).toMatchObject({ usedBytes: 0, calls: 0 });
      await universe();
      expect(charged()).toEqual([OUTPUT_BYTES, 2 * OUTPUT_BYTES, OUTPUT_BYTES]);
      expect(getContextBudget()).toBe(captured);
      expect(getContextBudget().state).toMatchObject({ usedBytes: OUTPUT_BYTES, calls: 1 });
    });

    it('resetAllSingletons() zeroes the captured budget before forgetting it; the next getContextBudget() is a new one', async () => {
      const captured = getContextBudget();
      const resets: number[] = [];
      captured.on('reset', (state) => resets.push(state.usedBytes));
      const { universe, charged } = wrapped();
      await universe();
      resetAllSingletons();
      expect(captured.state).toMatchObject({ usedBytes: 0, calls: 0 });
      expect(resets).toEqual([0]);
      await universe();
      expect(charged()).toEqual([OUTPUT_BYTES, OUTPUT_BYTES]);
      const fresh = getContextBudget('default', { softBytes: 10, hardBytes: 20 });
      expect(fresh).not.toBe(captured);
      expect([fresh.softBytes, fresh.state.usedBytes]).toEqual([10, 0]);
    });

    it('a budget whose reset fails does not stop the others; the first error is thrown', () => {
      let broken = false;
      const failing = getContextBudget('failing', {
        clock: () => {
          if (broken) throw new Error('clock down');
          return 0;
        },
      });
      failing.record('', { bytes: 5 });
      const other = getContextBudget('other');
      other.record('', { bytes: 7 });
      broken = true;
      expect(() => resetContextBudget()).toThrow('clock down');
      expect(other.state.usedBytes).toBe(0);
      expect(() => resetAllSingletons()).toThrow('clock down');
      expect(getContextBudget('failing')).not.toBe(failing);
    });
  });
});

describe('arguments of the wrong kind', () => {
  it('getContextBudget and resetContextBudget name sessionId and options', () => {
    expectCtxgateError(() => getContextBudget('s', null as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => getContextBudget({} as never), 'INVALID_PARAMS', 'sessionId');
    expectCtxgateError(() => getContextBudget('s', { softBytes: Symbol('n') as never }), 'INVALID_PARAMS', 'softBytes');
    expectCtxgateError(() => getContextBudget('s', { persistence: {} as never }), 'INVALID_PARAMS', 'options.persistence');
    expectCtxgateError(() => resetContextBudget(42 as never), 'INVALID_PARAMS', 'sessionId');
  });

  it('withBudgetWarning needs a check object; any output is still accepted', () => {
    expectCtxgateError(() => withBudgetWarning({}, null as never), 'INVALID_PARAMS', 'check');
    expectCtxgateError(() => withBudgetWarning({}, { level: 'soft', usedBytes: 1, usedTokens: 0, warning: 5 as never }), 'INVALID_PARAMS', 'check.warning');
    expect(withBudgetWarning('text', { level: 'soft', usedBytes: 1, usedTokens: 0, warning: 'w' })).toBe('text');
  });

  it('recording an output that is not JSON data is UNSUPPORTED_VALUE', () => {
    const budget = new SessionBudget();
    expectCtxgateError(() => budget.record({ n: 1n }), 'UNSUPPORTED_VALUE');
    expect(budget.state.calls).toBe(0);
  });

  it('on() names an unknown event or a listener that is not a function, and subscribes nothing', () => {
    const budget = new SessionBudget({ softBytes: 10, hardBytes: 20 });
    const error = expectCtxgateError(() => budget.on('toString' as never, () => {}), 'INVALID_PARAMS', 'event');
    expect(error.message).toBe('event: must be one of record, soft, hard, reset, error (got another string).');
    expectCtxgateError(() => budget.on('soft', 'notify' as never), 'INVALID_PARAMS', 'listener');
    const seen: string[] = [];
    budget.on('record', () => seen.push('record'));
    budget.record('x'.repeat(5));
    expect(seen).toEqual(['record']);
  });
});
