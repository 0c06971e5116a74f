import { afterEach, describe, expect, it, vi } from 'vitest';
import fc from 'fast-check';
import { truncateToTokenBudget } from '../../src/tokens/truncate.ts';
import { applyContextBudget } from '../../src/tokens/budget.ts';
import { jsonlBudgetLog, MAX_UNWRITTEN_LINES, type BudgetLogEntry } from '../../src/tokens/budget-log.ts';
import { indexedDbLineWriter } from '../../src/tokens/budget-log.idb.ts';
import { nodeFileLineWriter } from '../../src/tokens/budget-log.node.ts';
import { denoFileLineWriter } from '../../src/tokens/budget-log.deno.ts';
import { buildHandoffContext } from '../../src/tokens/handoff.ts';
import { HANDOFF_FIELDS, narrativeCap, resolveManifest } from '../../src/tokens/manifest.ts';
import * as fakeIdb from 'fake-indexeddb';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TokenCounter } from '../../src/tokens/counter.ts';
import { CtxgateError, isCtxgateError } from '../../src/errors.ts';
import { rejection } from '../fixtures/thrown.ts';

/** Deterministic test counter: one token per 4 UTF-16 units, rounded up (the spec's char/4). */
const quarter: TokenCounter = (text) => ({ tokens: Math.ceil(text.length / 4), exact: false, encoder: 'test/char4' });
/** A counter that is not monotone in the prefix: words plus a bonus for every 'x'. */
const words: TokenCounter = (text) => ({
  tokens: (text.match(/\S+/g) ?? []).length + (text.match(/x/g) ?? []).length,
  exact: false,
  encoder: 'test/words',
});

const textArb = fc.oneof(
  fc.string({ maxLength: 400 }),
  fc.array(fc.constantFrom('word', 'x', 'end.', '. ', '.\n', ' ', '\n', 'é', '😀', 'αβγ', '字'), { maxLength: 120 }).map((a) => a.join('')),
);

describe('truncateToTokenBudget', () => {
  it('cuts after the last sentence end inside the budget and appends ...', () => {
    const text = 'One two three. Four five six. Seven eight nine ten eleven.';
    // 'One two three. Four five six.' + '...' is 32 characters: exactly 8 tokens, so it fits.
    expect(truncateToTokenBudget(text, 8, quarter)).toBe('One two three. Four five six....');
    expect(truncateToTokenBudget(text, 7, quarter)).toBe('One two three....');
    expect(truncateToTokenBudget('Line one.\nLine two is longer than that', 4, quarter)).toBe('Line one....');
  });

  it('falls back to the last word boundary, then to a hard cut', () => {
    expect(truncateToTokenBudget('alpha beta gamma delta epsilon', 4, quarter)).toBe('alpha beta...');
    expect(truncateToTokenBudget('abcdefghijklmnopqrstuvwxyz', 3, quarter)).toBe('abcdefghi...');
  });

  it('budget 0 is unlimited; text that fits is unchanged', () => {
    const text = 'a '.repeat(1000);
    expect(truncateToTokenBudget(text, 0, quarter)).toBe(text);
    expect(truncateToTokenBudget('short', 2, quarter)).toBe('short');
  });

  it('never splits a surrogate pair', () => {
    const out = truncateToTokenBudget('😀😀😀😀😀😀😀😀', 2, quarter);
    expect(out).toBe('😀😀...');
  });

  it('returns empty when not even the ellipsis fits', () => {
    const costly: TokenCounter = (t) => ({ tokens: t.length === 0 ? 0 : 5, exact: false, encoder: 't' });
    expect(truncateToTokenBudget('some longer text', 3, costly)).toBe('');
  });

  it('rejects bad budgets with INVALID_PARAMS', () => {
    for (const b of [-1, 1.5, Number.NaN]) {
      let thrown: unknown;
      try {
        truncateToTokenBudget('x', b, quarter);
      } catch (e) {
        thrown = e;
      }
      expect(isCtxgateError(thrown, 'INVALID_PARAMS')).toBe(true);
    }
  });

  it('property: fits the budget, never longer than the input, is a prefix plus ...', () => {
    for (const counter of [quarter, words]) {
      fc.assert(
        fc.property(textArb, fc.integer({ min: 0, max: 60 }), (text, budget) => {
          const out = truncateToTokenBudget(text, budget, counter);
          expect(out.length).toBeLessThanOrEqual(text.length);
          if (budget === 0) expect(out).toBe(text);
          if (out !== text) {
            expect(counter(out).tokens).toBeLessThanOrEqual(budget);
            if (out !== '') {
              expect(out.endsWith('...')).toBe(true);
              expect(text.startsWith(out.slice(0, -3))).toBe(true);
            }
          }
        }),
        { numRuns: 300 },
      );
    }
  });
});

describe('applyContextBudget', () => {
  it('reports the spec result and truncates only over budget', () => {
    const text = 'One two three. Four five six. Seven eight nine ten eleven.';
    const r = applyContextBudget(text, 8, { counter: quarter });
    expect(r).toEqual({
      context: 'One two three. Four five six....',
      originalTokens: 15,
      budgetTokens: 8,
      truncatedTokens: 8,
      wasTruncated: true,
      encoder: 'test/char4',
    });
    expect(applyContextBudget(text, -3, { counter: quarter })).toMatchObject({ context: text, budgetTokens: -3, truncatedTokens: 15, wasTruncated: false });
    expect(applyContextBudget(text, 15, { counter: quarter }).wasTruncated).toBe(false);
  });

  it('property: every invariant of spec 003', () => {
    fc.assert(
      fc.property(textArb, fc.integer({ min: -5, max: 80 }), (text, max) => {
        const r = applyContextBudget(text, max, { counter: words });
        expect(r.originalTokens).toBe(words(text).tokens);
        expect(r.budgetTokens).toBe(max);
        expect(r.truncatedTokens).toBe(words(r.context).tokens);
        expect(r.wasTruncated).toBe(r.context !== text);
        if (r.wasTruncated) expect(r.truncatedTokens).toBeLessThanOrEqual(r.budgetTokens);
        else expect(r.truncatedTokens).toBe(r.originalTokens);
        expect(r.context.length).toBeLessThanOrEqual(text.length);
        if (max <= 0) expect(r.context).toBe(text);
        if (text === '') expect(r.originalTokens).toBe(0);
      }),
      { numRuns: 400 },
    );
  });

  it('writes one JSONL line per call with the spec fields in order', async () => {
    const lines: string[] = [];
    const log = jsonlBudgetLog((line) => {
      lines.push(line);
    });
    const now = () => new Date('2026-03-02T12:00:00Z');
    applyContextBudget('One two three. Four five six.', 4, { counter: quarter, log, runId: 'abc123', phase: 2, now });
    applyContextBudget('short', 0, { counter: quarter, log, runId: 'abc123', phase: 3, now });
    await log.flush();
    expect(lines).toEqual([
      '{"run_id":"abc123","phase":2,"original_tokens":8,"budget_tokens":4,"truncated_tokens":3,"was_truncated":true,"ts":"2026-03-02T12:00:00.000Z","encoder":"test/char4"}\n',
      '{"run_id":"abc123","phase":3,"original_tokens":2,"budget_tokens":0,"truncated_tokens":2,"was_truncated":false,"ts":"2026-03-02T12:00:00.000Z","encoder":"test/char4"}\n',
    ]);
  });

  it('the log keeps order with an async writer and reports write failures on flush', async () => {
    const got: string[] = [];
    const slow = jsonlBudgetLog({
      write: (line) => new Promise<void>((res) => setTimeout(() => (got.push(line), res()), line.includes('"phase":1') ? 10 : 0)),
    });
    for (const phase of [1, 2, 3]) applyContextBudget('a b c', 0, { counter: quarter, log: slow, phase });
    await slow.flush();
    expect(got.map((l) => JSON.parse(l).phase)).toEqual([1, 2, 3]);
    const failing = jsonlBudgetLog({
      write() {
        throw new Error('disk full');
      },
    });
    applyContextBudget('x', 0, { counter: quarter, log: failing });
    // Typed, with the writer's error as the cause; the line is kept, so the next flush reports it again.
    await expect(failing.flush()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', cause: new Error('disk full'), details: { unwritten: 1 } });
    await expect(failing.flush()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { unwritten: 1 } });
    let thrown: unknown;
    try {
      jsonlBudgetLog({} as never);
    } catch (e) {
      thrown = e;
    }
    expect(isCtxgateError(thrown, 'INVALID_PARAMS')).toBe(true);
  });
});

describe('budget log entries are checked before a line is written', () => {
  it('a field of the wrong kind is INVALID_PARAMS naming it, and no line is written', async () => {
    const lines: string[] = [];
    const log = jsonlBudgetLog((line) => void lines.push(line));
    const good = { run_id: 'r', phase: 1, original_tokens: 10, budget_tokens: 8, truncated_tokens: 8, was_truncated: true, ts: '2026-01-22T12:00:00.000Z', encoder: 'ctxgate-est/1:o200k_base' };
    for (const [bad, field] of [
      [null, 'entry'],
      [{ ...good, phase: '1' }, 'entry.phase'],
      [{ ...good, budget_tokens: 10n }, 'entry.budget_tokens'],
      [{ ...good, truncated_tokens: Number.NaN }, 'entry.truncated_tokens'],
      [{ ...good, was_truncated: 'yes' }, 'entry.was_truncated'],
      [{ ...good, run_id: undefined }, 'entry.run_id'],
    ] as const) {
      let thrown: unknown;
      try {
        log.record(bad as never);
      } catch (e) {
        thrown = e;
      }
      expect(thrown).toMatchObject({ code: 'INVALID_PARAMS', details: { field } });
    }
    log.record(good);
    await log.flush();
    expect(lines).toEqual([JSON.stringify(good) + '\n']);
  });
});

describe('bad input to the budget helpers', () => {
  const field = (fn: () => unknown): unknown => {
    try {
      fn();
    } catch (e) {
      return isCtxgateError(e, 'INVALID_PARAMS') ? e.details.field : e;
    }
    return 'no error';
  };
  const manifest = resolveManifest(2);

  it('buildHandoffContext names the bad handoff field or manifest part', () => {
    expect(field(() => buildHandoffContext(undefined as never, manifest))).toBe('handoffs');
    expect(field(() => buildHandoffContext([null as never], manifest))).toBe('handoffs[0]');
    expect(field(() => buildHandoffContext([{ phase: 1, goal: 5 as never }], manifest))).toBe('handoffs[0].goal');
    expect(field(() => buildHandoffContext([{ phase: 1, openRisks: 'one risk' as never }], manifest))).toBe('handoffs[0].openRisks');
    expect(field(() => buildHandoffContext([{ phase: 1, verdicts: { plan: 1 as never } }], manifest))).toBe('handoffs[0].verdicts.plan');
    expect(field(() => buildHandoffContext([], 'x' as never))).toBe('manifest');
    expect(field(() => buildHandoffContext([{ phase: 1, goal: 'g' }], { ...manifest, maxTokens: undefined as never }))).toBe('manifest.maxTokens');
    expect(field(() => buildHandoffContext([{ phase: 1, goal: 'g' }], manifest, null as never))).toBe('options');
    // null where JSON has no value is read as absent, as before.
    expect(buildHandoffContext([{ phase: 1, goal: 'Ship it', epicId: null as never, openRisks: null as never }], manifest, { counter: quarter })).toBe(
      '## Context from prior phases\nGoal: Ship it\n',
    );
  });

  it('narrativeCap and resolveManifest check what they read', () => {
    expect(field(() => narrativeCap(undefined as never))).toBe('manifest');
    expect(field(() => narrativeCap({ handoffFields: 'goal' as never, narrativeCap: 0 }))).toBe('manifest.handoffFields');
    expect(field(() => narrativeCap({ handoffFields: [], narrativeCap: '5' as never }))).toBe('manifest.narrativeCap');
    expect(field(() => resolveManifest(2, { 2: null as never }))).toBe('overrides[2]');
    expect(field(() => resolveManifest(2, { 2: { handoffFields: [10n as never] } }))).toBe('overrides[2].handoffFields');
  });

  it('applyContextBudget and truncateToTokenBudget check their counter and log', () => {
    expect(field(() => applyContextBudget('x', 0, null as never))).toBe('options');
    expect(field(() => applyContextBudget('x', 0, { counter: 'quarter' as never }))).toBe('options.counter');
    expect(field(() => applyContextBudget('x', 0, { counter: quarter, log: {} as never }))).toBe('options.log.record');
    expect(field(() => truncateToTokenBudget('x', 5, 42 as never))).toBe('counter');
  });
});

describe('indexedDbLineWriter', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('says IndexedDB is not available here, as a typed error, where there is none', () => {
    expect((globalThis as { indexedDB?: unknown }).indexedDB).toBeUndefined();
    let thrown: unknown;
    try {
      indexedDbLineWriter();
    } catch (e) {
      thrown = e;
    }
    expect(isCtxgateError(thrown, 'STORAGE_FAILURE')).toBe(true);
    expect((thrown as Error).message).toMatch(/^IndexedDB is not available here/);
    expect(() => indexedDbLineWriter(42 as never)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'dbName' }) }));
  });

  it('a write into a database another tab upgraded rejects flush() typed (STORAGE_FAILURE, reload), not with a DOMException', async () => {
    for (const [name, value] of Object.entries(fakeIdb)) if (name !== 'default') vi.stubGlobal(name, value);
    // Another tab's newer ctxgate already installed version 2 of this database.
    await new Promise<void>((resolve, reject) => {
      const open = (globalThis as unknown as { indexedDB: IDBFactory }).indexedDB.open('budget-log-newer', 2);
      open.onsuccess = () => {
        open.result.close();
        resolve();
      };
      open.onerror = () => reject(open.error);
    });
    const writer = indexedDbLineWriter('budget-log-newer');
    const log = jsonlBudgetLog(writer);
    applyContextBudget('a b c', 0, { counter: quarter, log, phase: 1, runId: 'r', now: () => new Date(0) });
    await expect(log.flush()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'write', reason: 'version' } });
    await expect(writer.readAll()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'readAll' } });
  });

  it('appends lines in order where IndexedDB exists', async () => {
    for (const [name, value] of Object.entries(fakeIdb)) if (name !== 'default') vi.stubGlobal(name, value);
    const writer = indexedDbLineWriter('budget-log-test');
    const log = jsonlBudgetLog(writer);
    for (const phase of [1, 2]) applyContextBudget('a b c', 0, { counter: quarter, log, phase, runId: 'r', now: () => new Date(0) });
    await log.flush();
    expect((await writer.readAll()).split('\n').filter(Boolean).map((l) => JSON.parse(l).phase)).toEqual([1, 2]);
    await writer.close();
  });
});

/** A log entry for `phase` (and `run_id`). */
const entry = (phase: number, run_id = 'r'): BudgetLogEntry => ({
  run_id,
  phase,
  original_tokens: 1,
  budget_tokens: 0,
  truncated_tokens: 1,
  was_truncated: false,
  ts: '2026-01-01T00:00:00.000Z',
  encoder: 'test',
});

describe('manifests written with the spec JSON keys', () => {
  it('load unchanged: phase, handoff_fields (spec field names), narrative_cap, max_tokens', () => {
    const spec = JSON.parse('{"phase":2,"handoff_fields":["goal","epic_id","verdicts","open_risks"],"narrative_cap":0,"max_tokens":100}');
    expect(resolveManifest(2, { 2: spec })).toEqual({ phase: 2, handoffFields: ['goal', 'epicId', 'verdicts', 'openRisks'], narrativeCap: 0, maxTokens: 100 });
    // Go's nil slice is JSON null: no fields, i.e. everything (phase 1's default).
    expect(resolveManifest(7, { 7: JSON.parse('{"phase":7,"handoff_fields":null,"narrative_cap":0,"max_tokens":2500}') })).toEqual({
      phase: 7,
      handoffFields: [],
      narrativeCap: 0,
      maxTokens: 2500,
    });
    // Camel case still works, and the two may be mixed across parts.
    expect(resolveManifest(3, { 3: { maxTokens: 10, narrative_cap: 20 } })).toEqual({ ...resolveManifest(3), maxTokens: 10, narrativeCap: 20 });
  });

  it('an unknown key (a typo), a wrong phase or one part under both names is INVALID_PARAMS naming it', async () => {
    const typo = await rejection(() => resolveManifest(2, { 2: { maxToken: 100 } as never }));
    expect(typo).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'overrides[2].maxToken', key: 'maxToken' } });
    expect((typo as Error).message).toContain('max_tokens');
    expect(await rejection(() => resolveManifest(2, { 2: { max_tokens: 1, maxTokens: 1 } }))).toMatchObject({
      code: 'INVALID_PARAMS',
      details: { field: 'overrides[2].max_tokens' },
    });
    expect(await rejection(() => resolveManifest(2, { 2: { phase: 3, max_tokens: 1 } }))).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'overrides[2].phase' } });
    expect(await rejection(() => resolveManifest(2, { 2: { max_tokens: -1 } }))).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'overrides[2].max_tokens' } });
    expect(await rejection(() => resolveManifest(2, { 2: { handoff_fields: ['goalz'] } }))).toMatchObject({
      code: 'INVALID_PARAMS',
      details: { field: 'overrides[2].handoff_fields' },
    });
  });
});

describe('buildHandoffContext', () => {
  const base = { phase: 2, narrativeCap: 0, maxTokens: 0 };

  it('refuses handoffFields that are no handoff field, naming the valid ones; takes the spec names', async () => {
    const e = await rejection(() => buildHandoffContext([{ phase: 1, goal: 'Ship it' }], { ...base, handoffFields: ['goalz' as never] }, { counter: quarter }));
    expect(e).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'manifest.handoffFields', known: [...HANDOFF_FIELDS] } });
    expect((e as Error).message).toContain('goal, epicId, verdicts, artifactsProduced, decisionsMade, openRisks, narrative');
    expect(buildHandoffContext([{ phase: 1, goal: 'Ship it', epicId: 'E-1' }], { ...base, handoffFields: ['epic_id' as never] }, { counter: quarter })).toBe(
      '## Context from prior phases\nEpic: E-1\n',
    );
  });

  it('keeps a verdict named __proto__ (as JSON.parse makes it) as data', () => {
    const h = JSON.parse('{"phase":1,"verdicts":{"__proto__":"pass","plan":"ok"}}');
    const later = JSON.parse('{"phase":2,"verdicts":{"__proto__":"fail"}}');
    expect(buildHandoffContext([later, h], { ...base, handoffFields: ['verdicts'] }, { counter: quarter })).toBe(
      '## Context from prior phases\nVerdicts:\n- __proto__: fail\n- plan: ok\n',
    );
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('merges a million list items in first-seen order (linear: quadratic would take hours)', () => {
    const n = 500_000;
    const a = Array.from({ length: n }, (_, i) => `a${i}`);
    const b = Array.from({ length: n }, (_, i) => `a${i + n / 2}`); // half repeats a
    const out = buildHandoffContext([{ phase: 2, artifactsProduced: b }, { phase: 1, artifactsProduced: [...a, 'a0', ''] }], { ...base, handoffFields: ['artifactsProduced'] }, { counter: quarter });
    const lines = out.split('\n');
    expect(lines.length).toBe(2 + (3 * n) / 2 + 1);
    expect(lines.slice(0, 4)).toEqual(['## Context from prior phases', 'Artifacts produced:', '- a0', '- a1']);
    expect(lines.at(-2)).toBe(`- a${n + n / 2 - 1}`);
    expect(lines[2 + n]).toBe(`- a${n}`);
  });
});

describe('budget log write failures', () => {

  it('are STORAGE_FAILURE with the cause, even a raw TypeError or a bare string', async () => {
    for (const thrown of [new TypeError('x is not a function'), 'disk full']) {
      const log = jsonlBudgetLog(() => {
        throw thrown;
      });
      log.record(entry(1));
      const e = await rejection(() => log.flush());
      expect(e).toBeInstanceOf(CtxgateError);
      expect(e).toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'write', unwritten: 1, dropped: 0 } });
      expect((e as Error).cause).toBe(thrown);
    }
  });

  it('say what the writer threw by its name or kind, never its text', async () => {
    const said: string[] = [];
    for (const thrown of [new TypeError('x is not a function'), 'disk full', null, Object.assign(new Error('quiet'), { name: '' })]) {
      const log = jsonlBudgetLog(() => {
        throw thrown;
      });
      log.record(entry(1));
      const message = ((await rejection(() => log.flush())) as Error).message;
      said.push(/the writer threw ([^;]*);/.exec(message)![1]!);
      expect(message).not.toContain('disk full');
    }
    expect(said).toEqual(['TypeError', 'a string', 'null', 'an object']);
  });

  it('keep the failed lines, in order, for the next flush: a recovered writer catches up, a dead one is reported again', async () => {
    const written: number[] = [];
    let broken = true;
    const log = jsonlBudgetLog(async (line) => {
      if (broken) throw new Error('EIO');
      written.push(JSON.parse(line).phase);
    });
    log.record(entry(1));
    log.record(entry(2));
    await expect(log.flush()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { unwritten: 2 } });
    log.record(entry(3));
    await expect(log.flush()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { unwritten: 3 } });
    broken = false;
    await expect(log.flush()).resolves.toBeUndefined();
    expect(written).toEqual([1, 2, 3]);
    log.record(entry(4));
    await log.flush();
    expect(written).toEqual([1, 2, 3, 4]);
  });

  it('a ctxgate error from the writer passes through typed (QUOTA_EXCEEDED stays QUOTA_EXCEEDED)', async () => {
    const quota = new CtxgateError('QUOTA_EXCEEDED', 'write failed: quota', { details: { operation: 'write' } });
    const log = jsonlBudgetLog(() => Promise.reject(quota));
    log.record(entry(1));
    const error = await rejection(() => log.flush());
    expect(error).toMatchObject({ code: 'QUOTA_EXCEEDED', message: 'write failed: quota', details: { operation: 'write', unwritten: 1 } });
    expect((error as Error).cause).toBe(quota);
  });

  it(`while the writer fails, hold at most ${MAX_UNWRITTEN_LINES} lines, and say how many were dropped`, async () => {
    const written: number[] = [];
    let broken = true;
    const log = jsonlBudgetLog((line) => {
      if (broken) throw 'EIO'; // a string: no stack captured 10,000 times
      written.push(JSON.parse(line).phase);
    });
    log.record(entry(0));
    await expect(log.flush()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { unwritten: 1, dropped: 0 } });
    for (let i = 1; i < MAX_UNWRITTEN_LINES + 5; i++) log.record(entry(i));
    await expect(log.flush()).rejects.toMatchObject({ code: 'STORAGE_FAILURE', details: { unwritten: MAX_UNWRITTEN_LINES, dropped: 5 } });
    broken = false;
    await log.flush();
    expect(written.length).toBe(MAX_UNWRITTEN_LINES);
    expect([written[0], written.at(-1)]).toEqual([5, MAX_UNWRITTEN_LINES + 4]);
  });

  it(`a healthy writer gets every line of a synchronous burst of more than ${MAX_UNWRITTEN_LINES} records`, async () => {
    const written: number[] = [];
    const log = jsonlBudgetLog((line) => void written.push(JSON.parse(line).phase));
    for (let i = 0; i < MAX_UNWRITTEN_LINES + 50; i++) log.record(entry(i));
    await log.flush();
    expect(written.length).toBe(MAX_UNWRITTEN_LINES + 50);
    expect([written[0], written.at(-1)]).toEqual([0, MAX_UNWRITTEN_LINES + 49]);
  });

  it(`a write that does not finish holds at most ${MAX_UNWRITTEN_LINES} lines behind it; flush says how many were dropped`, async () => {
    const written: number[] = [];
    let release!: () => void;
    const hung = new Promise<void>((resolve) => (release = resolve));
    const log = jsonlBudgetLog((line) => {
      const phase = JSON.parse(line).phase as number;
      written.push(phase);
      return phase === 0 ? hung : Promise.resolve();
    });
    for (let i = 0; i < MAX_UNWRITTEN_LINES + 5; i++) log.record(entry(i));
    release();
    const e = await rejection(() => log.flush());
    expect(e).toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'write', unwritten: 0, dropped: 5 } });
    expect((e as Error).message).toBe(
      `the budget log dropped its 5 oldest line(s): more than ${MAX_UNWRITTEN_LINES} waited behind a write that had not finished (a writer slower than records arrive); make the writer faster (append without waiting on each line, or batch), or give it a timeout so a write that hangs fails`,
    );
    // The line being written is kept; the five after it went.
    expect(written.length).toBe(MAX_UNWRITTEN_LINES);
    expect(written.slice(0, 2)).toEqual([0, 6]);
    expect(written.at(-1)).toBe(MAX_UNWRITTEN_LINES + 4);
    await expect(log.flush()).resolves.toBeUndefined();
  });

  it('a synchronous writer has each line before record() returns', () => {
    const lines: string[] = [];
    const log = jsonlBudgetLog((line) => void lines.push(line));
    log.record(entry(1));
    expect(lines.map((l) => JSON.parse(l).phase)).toEqual([1]);
    log.record(entry(2));
    expect(lines.map((l) => JSON.parse(l).phase)).toEqual([1, 2]);
  });

  it('escape U+2028, U+2029 and NEL so every line splitter sees one record a line', async () => {
    const lines: string[] = [];
    const log = jsonlBudgetLog((line) => void lines.push(line));
    log.record(entry(1, 'a\u2028b\u2029c\u0085d'));
    await log.flush();
    expect(lines).toEqual([
      '{"run_id":"a\\u2028b\\u2029c\\u0085d","phase":1,"original_tokens":1,"budget_tokens":0,"truncated_tokens":1,"was_truncated":false,"ts":"2026-01-01T00:00:00.000Z","encoder":"test"}\n',
    ]);
    expect(JSON.parse(lines[0] as string).run_id).toBe('a\u2028b\u2029c\u0085d');
    expect((lines[0] as string).split(/\r\n|[\n\r\u000b\u000c\u001c-\u001e\u0085\u2028\u2029]/)).toHaveLength(2);
  });
});

describe('file line writers', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('nodeFileLineWriter: bad paths are INVALID_PARAMS; a file in the folder path or a folder as the file is STORAGE_FAILURE', async () => {
    for (const bad of [5, undefined, '', 'a\0b']) {
      expect(await rejection(() => nodeFileLineWriter(bad as never))).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'path' } });
    }
    const dir = mkdtempSync(join(tmpdir(), 'ctxgate-budget-log-'));
    try {
      const file = join(dir, 'file');
      writeFileSync(file, 'x');
      const e = await rejection(() => nodeFileLineWriter(join(file, 'rpi', 'log.jsonl')));
      expect(e).toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'open', code: 'ENOTDIR' } });
      expect((e as Error).cause).toMatchObject({ code: 'ENOTDIR' });
      const log = jsonlBudgetLog(await nodeFileLineWriter(dir)); // a folder where the file should be
      log.record(entry(1));
      expect(await rejection(() => log.flush())).toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'write', code: 'EISDIR' } });
      const path = join(dir, '.agents', 'rpi', 'context-budget-log.jsonl');
      const good = jsonlBudgetLog(await nodeFileLineWriter(path));
      good.record(entry(1));
      good.record(entry(2));
      await good.flush();
      expect(readFileSync(path, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).phase)).toEqual([1, 2]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('denoFileLineWriter: INVALID_PARAMS for bad paths, STORAGE_FAILURE outside Deno and for failed writes', async () => {
    expect(await rejection(() => denoFileLineWriter(5 as never))).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'path' } });
    expect(await rejection(() => denoFileLineWriter('log.jsonl'))).toMatchObject({ code: 'STORAGE_FAILURE', details: { reason: 'unavailable' } });
    const appended: string[] = [];
    const denied = Object.assign(new Error('Requires write access'), { name: 'PermissionDenied' });
    vi.stubGlobal('Deno', {
      mkdirSync(path: string) {
        if (path === 'locked') throw denied;
      },
      writeTextFileSync(path: string, data: string) {
        if (path.startsWith('ro/')) throw denied;
        appended.push(data);
      },
    });
    expect(await rejection(() => denoFileLineWriter('locked/log.jsonl'))).toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'open', code: 'PermissionDenied' } });
    const failing = jsonlBudgetLog(denoFileLineWriter('ro/log.jsonl'));
    failing.record(entry(1));
    expect(await rejection(() => failing.flush())).toMatchObject({ code: 'STORAGE_FAILURE', details: { operation: 'write', code: 'PermissionDenied' } });
    const log = jsonlBudgetLog(denoFileLineWriter('rpi/log.jsonl'));
    log.record(entry(1));
    await log.flush();
    expect(appended.map((l) => JSON.parse(l).phase)).toEqual([1]);
  });
});
