import { describe, expect, it } from 'vitest';
import { SessionBudget } from '../../src/policy/budget.ts';
import { storeBudgetPersistence } from '../../src/policy/budget-store.ts';
import { createMemoryStore } from '../../src/store/backends/memory.ts';
import { createAgentContext } from '../../src/store/model.ts';

const clock = () => Date.parse('2026-11-22T10:00:00.000Z');

describe('session budget persisted through the agent-context store', () => {
  it('a new tracker on the same store and session continues from the saved totals', async () => {
    const store = createMemoryStore();
    const first = new SessionBudget({ persistence: storeBudgetPersistence(store, 'session-1'), clock });
    first.record('x'.repeat(30_000));
    first.record('y'.repeat(25_000));
    await first.flush();
    const second = new SessionBudget({ persistence: storeBudgetPersistence(store, 'session-1'), clock });
    expect(await second.load()).toBe(true);
    expect(second.state).toEqual(first.state);
    expect(second.state.usedBytes).toBe(55_000); // strings are measured as they are: 30,000 + 25,000 bytes
    expect(second.level).toBe('soft');
    const stored = await store.load('session-1');
    expect(stored?.context.llm.cache['ctxgate.toolOutputBudget']).toMatchObject({ version: 1, calls: 2 });
  });

  it('keeps another writer\'s changes: a conflicting save reloads and writes again', async () => {
    const store = createMemoryStore();
    const ctx = createAgentContext('s', 't', { createdAt: '2026-11-22T00:00:00.000Z' });
    await store.save('s', ctx, { expectedVersion: 0 });
    const persistence = storeBudgetPersistence(store, 's');
    // Another agent saves its own change between our load and save: simulate by saving twice here.
    const loaded = (await store.load('s'))!;
    loaded.context.reasoning.summary = 'written by another agent';
    await store.save('s', loaded.context, { expectedVersion: loaded.version });
    await persistence.save({ version: 1, usedBytes: 10, usedTokens: 2, calls: 1, updatedAt: null });
    const after = (await store.load('s'))!;
    expect(after.context.reasoning.summary).toBe('written by another agent');
    expect(after.context.llm.cache['ctxgate.toolOutputBudget']).toEqual({ version: 1, usedBytes: 10, usedTokens: 2, calls: 1, updatedAt: null });
    expect(after.version).toBe(3);
  });

  it('two trackers of one session add up: neither overwrites the other\'s count; a reset starts the session from zero', async () => {
    const store = createMemoryStore();
    const a = new SessionBudget({ persistence: storeBudgetPersistence(store, 's'), clock });
    const b = new SessionBudget({ persistence: storeBudgetPersistence(store, 's'), clock });
    await Promise.all([a.load(), b.load()]);
    a.record({}, { bytes: 80_000, tokens: 8 });
    b.record({}, { bytes: 30_000, tokens: 3 });
    b.record({}, { bytes: 1_000 });
    await Promise.all([a.flush(), b.flush()]);
    const stored = async () => (await store.load('s'))!.context.llm.cache['ctxgate.toolOutputBudget'];
    expect(await stored()).toEqual({ version: 1, usedBytes: 111_000, usedTokens: 11, calls: 3, updatedAt: '2026-11-22T10:00:00.000Z' });
    // Each tracker knows its own count until it loads the session's.
    expect([a.state.usedBytes, b.state.usedBytes]).toEqual([80_000, 31_000]);
    expect(await a.load()).toBe(true);
    expect([a.state.usedBytes, a.level]).toEqual([111_000, 'hard']);
    a.reset();
    await a.flush();
    expect(await stored()).toMatchObject({ usedBytes: 0, usedTokens: 0, calls: 0 });
    b.record({}, { bytes: 500 });
    await b.flush();
    expect(await stored()).toMatchObject({ usedBytes: 500, calls: 1 });
  });

  it('gives up with a ConflictError after the configured attempts when writers keep winning', async () => {
    const store = createMemoryStore();
    const racing = {
      ...store,
      load: store.load.bind(store),
      save: async () => {
        const { ConflictError } = await import('../../src/errors.ts');
        throw new ConflictError('someone else saved first');
      },
    } as unknown as typeof store;
    const e = await storeBudgetPersistence(racing, 's', { maxAttempts: 3 })
      .save({ version: 1, usedBytes: 1, usedTokens: 0, calls: 1, updatedAt: null })
      .catch((x: unknown) => x);
    expect((e as { code: string }).code).toBe('CONFLICT');
    expect((e as { details: { attempts: number } }).details.attempts).toBe(3);
  });
});
