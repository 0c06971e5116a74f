// Keeps a session's tool-output budget in the agent-context store (spec 004), so the count of what
// a session's tools returned survives a reload, a new Worker isolate or a restarted process.
import { expectMethods, expectOptionalString, expectOptions, expectString } from '../args.ts';
import { ConflictError, invalidParams, isCtxgateError } from '../errors.ts';
import type { ContextStore } from '../store/context-store.ts';
import { FORBIDDEN_KEYS } from '../store/json-safety.ts';
import { createAgentContext, validateAgentContext, type AgentContext } from '../store/model.ts';
import { assertContextId } from '../store/record.ts';
import { cloneContext } from '../store/serialize.ts';
import type { BudgetPersistence, BudgetState } from './budget.ts';
import { expectOptionalFunction, expectOptionalInteger } from './checks.ts';

/** Options of {@link storeBudgetPersistence}. */
export interface StoreBudgetOptions {
  /** Key under the context's `llm.cache` (default `ctxgate.toolOutputBudget`). */
  key?: string;
  /** Makes the context when none is stored yet (default: a new one with `contextId` as session id). */
  createContext?: () => AgentContext;
  /** Attempts when another writer saved the context first (default 5). */
  maxAttempts?: number;
}

/**
 * A {@link BudgetPersistence} that keeps the tracker's state in the agent context `contextId`, in
 * `llm.cache` (the namespace for per-session model usage metadata). A save adds what the tracker
 * recorded since this persistence last loaded or saved to the stored totals, so trackers of one
 * session in several places (Worker isolates, tabs, processes) sum rather than overwrite each
 * other; a reset is written as it is. Saves are version-checked: when another writer saved first,
 * the context is reloaded and the counts added again, so neither the other writer's changes nor
 * the budget are lost. A tracker's own level counts what it loaded and recorded: `load()` again
 * to see what the others added. A `store` without `load`/`save`, a `contextId`
 * that is not a context id (a non-empty string of at most 512 characters), options of the wrong
 * kind, an `options.key` the store refuses as a member name (`__proto__`, `constructor`,
 * `prototype`) and, on save, a `createContext` that does not return a valid context
 * (`options.createContext()`) are INVALID_PARAMS.
 *
 * @example
 * const budget = new SessionBudget({ persistence: storeBudgetPersistence(store, sessionId) });
 * await budget.load();
 */
export function storeBudgetPersistence(store: ContextStore, contextId: string, options: StoreBudgetOptions = {}): BudgetPersistence {
  expectMethods(store, 'store', ['load', 'save'], 'a ContextStore (an object with load() and save())');
  expectString(contextId, 'contextId');
  assertContextId(contextId, 'contextId');
  expectOptions(options);
  if (options.key !== null) expectOptionalString(options.key, 'options.key');
  // Assigned into llm.cache, such a key would rewrite the cache's prototype instead of adding a member.
  if (typeof options.key === 'string' && FORBIDDEN_KEYS.has(options.key)) {
    throw invalidParams('options.key', `must not be ${[...FORBIDDEN_KEYS].map((k) => `"${k}"`).join(', ')}: the store refuses such member names; choose another key`);
  }
  expectOptionalFunction(options.createContext, 'options.createContext');
  expectOptionalInteger(options.maxAttempts ?? undefined, 'options.maxAttempts', 1);
  const key = options.key ?? 'ctxgate.toolOutputBudget';
  const attempts = options.maxAttempts ?? 5;
  const createdContext = (): AgentContext => {
    if (options.createContext === undefined) return createAgentContext(contextId, contextId);
    // Checked before the budget is written into it, so a wrong kind is named, not a TypeError.
    return validateAgentContext(options.createContext(), 'options.createContext()');
  };
  // What this persistence last loaded or saved: a save adds the counts recorded since then to
  // the stored totals, so two trackers of one session (two Worker isolates, two tabs) sum
  // instead of each writing its own total over the other's.
  let base: Counts = ZERO;
  return {
    async load() {
      const loaded = await store.load(contextId);
      const state = loaded?.context.llm.cache[key] as BudgetState | undefined;
      base = countsOf(state) ?? ZERO;
      return state;
    },
    async save(state) {
      const mine = countsOf(state);
      // Counts only grow between resets: lower ones mean the tracker was reset, which is written
      // as it is (a new turn starts every tracker of the session from zero).
      const added = mine === undefined ? undefined : growth(mine, base);
      for (let attempt = 1; ; attempt++) {
        const loaded = await store.load(contextId);
        const context = loaded ? cloneContext(loaded.context) : createdContext();
        const stored = countsOf(context.llm.cache[key]);
        context.llm.cache[key] =
          added !== undefined && stored !== undefined
            ? {
                version: 1,
                usedBytes: stored.usedBytes + added.usedBytes,
                usedTokens: stored.usedTokens + added.usedTokens,
                calls: stored.calls + added.calls,
                updatedAt: state.updatedAt,
              }
            : { ...state };
        try {
          await store.save(contextId, context, { expectedVersion: loaded?.version ?? 0 });
          base = mine ?? ZERO;
          return;
        } catch (error) {
          if (!isCtxgateError(error, 'CONFLICT') || attempt >= attempts) {
            throw isCtxgateError(error, 'CONFLICT')
              ? new ConflictError(`The tool-output budget of ${contextId} could not be saved: ${attempts} concurrent writers saved first. Retry later.`, { cause: error, details: { contextId, attempts } })
              : error;
          }
        }
      }
    },
  };
}

/** The counts of a budget state. */
interface Counts {
  readonly usedBytes: number;
  readonly usedTokens: number;
  readonly calls: number;
}

const ZERO: Counts = Object.freeze({ usedBytes: 0, usedTokens: 0, calls: 0 });

/** The counts of `value` when it holds three non-negative safe integers, else undefined (nothing stored, or damaged). */
function countsOf(value: unknown): Counts | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { usedBytes, usedTokens, calls } = value as Record<string, unknown>;
  const count = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 0;
  return count(usedBytes) && count(usedTokens) && count(calls) ? { usedBytes, usedTokens, calls } : undefined;
}

/** What each count grew by from `before` to `now`, or undefined when one went down (a reset). */
function growth(now: Counts, before: Counts): Counts | undefined {
  const usedBytes = now.usedBytes - before.usedBytes;
  const usedTokens = now.usedTokens - before.usedTokens;
  const calls = now.calls - before.calls;
  return usedBytes >= 0 && usedTokens >= 0 && calls >= 0 ? { usedBytes, usedTokens, calls } : undefined;
}
