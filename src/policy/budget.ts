/**
 * Session budget tracking (spec 000 §2 "Total Context Budget", §10). Counts the bytes (and, with a
 * counter, tokens) of every tool output of a session and warns past a soft (50 KB) and a hard
 * (100 KB) limit. Advisory only: warnings go into `_meta.budgetWarning` and to subscribers;
 * nothing is cut at the session level (per-tool limits do that).
 */
import { z } from 'zod';
import { expectFunction, expectMethods, expectObject, expectOptionalString, expectOptions, notOneOf } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { checkedCounter } from '../tokens/counter.ts';
import type { TokenCounter } from '../tokens/counter.ts';
import { estimator } from '../tokens/estimator.ts';
import { KB, toJsonText, utf8ByteLength } from './bytes.ts';
import { expectInteger, expectOptionalFunction, expectOptionalInteger } from './checks.ts';
import { isoTimestamp, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { GLOBAL_LIMITS } from './limits.ts';
import { registerSingletonReset } from './singletons.ts';

/** Where a session stands against its limits. */
export type BudgetLevel = 'ok' | 'soft' | 'hard';

/** The persisted form of a budget. Plain JSON. */
export interface BudgetState {
  readonly version: 1;
  readonly usedBytes: number;
  readonly usedTokens: number;
  readonly calls: number;
  readonly updatedAt: string | null;
}

/** Where a tracker keeps its state between processes (the agent-context store plugs in here). */
export interface BudgetPersistence {
  load(): Promise<BudgetState | undefined>;
  save(state: BudgetState): Promise<void>;
}

/** Result of checking or recording an output. */
export interface BudgetCheck {
  readonly level: BudgetLevel;
  readonly usedBytes: number;
  readonly usedTokens: number;
  /** Advisory text for `_meta.budgetWarning`; absent at level `ok`. */
  readonly warning?: string;
}

/** Events a host can subscribe to with {@link SessionBudget.on}. */
export interface BudgetEvents {
  /** After every recorded output. */
  record: BudgetCheck & { readonly bytes: number; readonly tokens: number };
  /** The session just crossed the soft limit. */
  soft: BudgetCheck;
  /** The session just crossed the hard limit. */
  hard: BudgetCheck;
  /** The budget was reset. */
  reset: BudgetState;
  /** Persistence failed (the in-memory count stays right). */
  error: { readonly operation: 'load' | 'save'; readonly error: unknown };
}

/** Options of {@link SessionBudget}. */
export interface SessionBudgetOptions {
  /** Soft limit in bytes (default 50 KB). */
  softBytes?: number;
  /** Hard limit in bytes (default 100 KB). */
  hardBytes?: number;
  /** Soft limit in tokens (default none). */
  softTokens?: number;
  /** Hard limit in tokens (default none). */
  hardTokens?: number;
  /**
   * Counts tokens of each output. Default: with a token limit set, ctxgate's estimator for
   * `o200k_base` (`estimator()`, needs the core loaded with `await loadCore()`); without token limits,
   * none, and only bytes are tracked.
   */
  counter?: TokenCounter;
  /** Keeps the state across restarts; call `load()` once before use. */
  persistence?: BudgetPersistence;
  /** Clock for `updatedAt`. */
  clock?: Clock;
}

const stateSchema = z
  .object({
    version: z.literal(1),
    usedBytes: z.number().int().nonnegative(),
    usedTokens: z.number().int().nonnegative(),
    calls: z.number().int().nonnegative(),
    updatedAt: z.string().nullable(),
  })
  .strict();

const EMPTY: BudgetState = Object.freeze({ version: 1, usedBytes: 0, usedTokens: 0, calls: 0, updatedAt: null });

function kb(bytes: number): string {
  return `${(bytes / KB).toFixed(1)} KB`;
}

type Listener<E extends keyof BudgetEvents> = (event: BudgetEvents[E]) => void;

/** Cumulative output budget of one session. */
export class SessionBudget {
  readonly softBytes: number;
  readonly hardBytes: number;
  readonly softTokens: number | undefined;
  readonly hardTokens: number | undefined;
  readonly #counter: TokenCounter | undefined;
  readonly #persistence: BudgetPersistence | undefined;
  readonly #clock: Clock;
  #state: BudgetState = EMPTY;
  #saving: Promise<void> = Promise.resolve();
  readonly #listeners: { [E in keyof BudgetEvents]: Set<Listener<E>> } = {
    record: new Set(),
    soft: new Set(),
    hard: new Set(),
    reset: new Set(),
    error: new Set(),
  };

  constructor(options: SessionBudgetOptions = {}) {
    expectOptions(options);
    if (options.persistence !== undefined && options.persistence !== null) expectMethods(options.persistence, 'options.persistence', ['load', 'save'], 'a BudgetPersistence (an object with load() and save())');
    expectOptionalFunction(options.clock, 'options.clock');
    this.softBytes = options.softBytes ?? GLOBAL_LIMITS.budgetSoftBytes;
    this.hardBytes = options.hardBytes ?? GLOBAL_LIMITS.budgetHardBytes;
    this.softTokens = options.softTokens;
    this.hardTokens = options.hardTokens;
    for (const [field, v] of [['softBytes', this.softBytes], ['hardBytes', this.hardBytes], ['softTokens', this.softTokens], ['hardTokens', this.hardTokens]] as const) {
      expectOptionalInteger(v, field, 1);
    }
    if (this.softBytes > this.hardBytes) throw invalidParams('softBytes', `(${this.softBytes}) must not exceed hardBytes (${this.hardBytes})`);
    if (this.softTokens !== undefined && this.hardTokens !== undefined && this.softTokens > this.hardTokens) {
      throw invalidParams('softTokens', `(${this.softTokens}) must not exceed hardTokens (${this.hardTokens})`);
    }
    if (options.counter !== undefined && typeof options.counter !== 'function') {
      throw invalidParams('counter', 'must be a TokenCounter function; leave it out to use the built-in estimator with token limits');
    }
    const tokenLimits = this.softTokens !== undefined || this.hardTokens !== undefined;
    this.#counter = options.counter !== undefined ? checkedCounter(options.counter, 'counter') : tokenLimits ? estimator() : undefined;
    this.#persistence = options.persistence;
    this.#clock = options.clock ?? systemClock;
  }

  /** A snapshot of the current state. */
  get state(): BudgetState {
    return this.#state;
  }

  /** Where the session stands now. */
  get level(): BudgetLevel {
    return this.#levelOf(this.#state.usedBytes, this.#state.usedTokens);
  }

  /** Subscribes to an event; returns the function that unsubscribes. */
  on<E extends keyof BudgetEvents>(event: E, listener: Listener<E>): () => void {
    if (typeof event !== 'string' || !Object.hasOwn(this.#listeners, event)) throw notOneOf('event', Object.keys(this.#listeners), event);
    expectFunction(listener, 'listener');
    this.#listeners[event].add(listener);
    return () => void this.#listeners[event].delete(listener);
  }

  #emit<E extends keyof BudgetEvents>(event: E, payload: BudgetEvents[E]): void {
    for (const l of [...this.#listeners[event]]) {
      try {
        l(payload);
      } catch {
        // A host's listener must not break the tool call that triggered it.
      }
    }
  }

  #levelOf(bytes: number, tokens: number): BudgetLevel {
    if (bytes > this.hardBytes || (this.hardTokens !== undefined && tokens > this.hardTokens)) return 'hard';
    if (bytes > this.softBytes || (this.softTokens !== undefined && tokens > this.softTokens)) return 'soft';
    return 'ok';
  }

  #check(bytes: number, tokens: number): BudgetCheck {
    const level = this.#levelOf(bytes, tokens);
    const base = { level, usedBytes: bytes, usedTokens: tokens };
    if (level === 'ok') return base;
    const tokenNote = this.#counter ? ` (${tokens} tokens)` : '';
    const warning =
      level === 'soft'
        ? `Session tool output is ${kb(bytes)}${tokenNote}, past the ${kb(this.softBytes)} soft budget; ${kb(Math.max(0, this.hardBytes - bytes))} left before the ${kb(this.hardBytes)} hard limit. Prefer narrower queries.`
        : `Session tool output is ${kb(bytes)}${tokenNote}, past the ${kb(this.hardBytes)} hard limit. Reduce scope: ask for fewer items, add filters or request summaries.`;
    return { ...base, warning };
  }

  /** Tokens of a text, 0 without a counter. A counter result that is not a TokenCount is INVALID_PARAMS naming `counter`. */
  countTokens(text: string): number {
    return this.#counter ? this.#counter(text).tokens : 0;
  }

  /**
   * What recording `bytes` (and `tokens`) more would give, without recording. As with
   * {@link record}, `bytes` and `tokens` that are not non-negative integers (NaN, -1, 1.5) are
   * INVALID_PARAMS.
   */
  peek(bytes: number, tokens = 0): BudgetCheck {
    expectInteger(bytes, 'bytes', 0);
    expectInteger(tokens, 'tokens', 0);
    return this.#check(this.#state.usedBytes + bytes, this.#state.usedTokens + tokens);
  }

  /**
   * Adds one output to the session. Pass the output itself (measured as compact JSON, or as-is
   * for a string) or explicit `{ bytes, tokens }`. Emits `record`, and `soft`/`hard` when a limit
   * is crossed by this call.
   */
  record(output: unknown, measured?: { bytes: number; tokens?: number }): BudgetCheck {
    let bytes: number;
    let tokens: number;
    if (measured) {
      bytes = measured.bytes;
      tokens = measured.tokens ?? 0;
    } else {
      const text = typeof output === 'string' ? output : toJsonText(output);
      bytes = utf8ByteLength(text);
      tokens = this.countTokens(text);
    }
    expectInteger(bytes, 'bytes', 0);
    expectInteger(tokens, 'tokens', 0);
    const before = this.level;
    this.#state = {
      version: 1,
      usedBytes: this.#state.usedBytes + bytes,
      usedTokens: this.#state.usedTokens + tokens,
      calls: this.#state.calls + 1,
      updatedAt: isoTimestamp(this.#clock),
    };
    const check = this.#check(this.#state.usedBytes, this.#state.usedTokens);
    this.#emit('record', { ...check, bytes, tokens });
    if (check.level !== before) {
      if (check.level === 'soft' || (check.level === 'hard' && before === 'ok')) this.#emit('soft', { ...check, level: 'soft' });
      if (check.level === 'hard') this.#emit('hard', check);
    }
    this.#save();
    return check;
  }

  /** Zeroes the counts (spec's `reset_context_budget()`), e.g. at a new conversation turn. */
  reset(): void {
    this.#state = { ...EMPTY, updatedAt: isoTimestamp(this.#clock) };
    this.#emit('reset', this.#state);
    this.#save();
  }

  /**
   * Restores the state saved by the persistence, if any. Returns true when a valid state was
   * loaded; an invalid stored state is ignored and reported as an `error` event.
   */
  async load(): Promise<boolean> {
    if (!this.#persistence) return false;
    try {
      const raw = await this.#persistence.load();
      if (raw === undefined) return false;
      const parsed = stateSchema.safeParse(raw);
      if (!parsed.success) {
        this.#emit('error', { operation: 'load', error: invalidParams('budgetState', 'stored state is not a valid budget state; starting from zero') });
        return false;
      }
      this.#state = parsed.data;
      return true;
    } catch (error) {
      this.#emit('error', { operation: 'load', error });
      return false;
    }
  }

  #save(): void {
    const p = this.#persistence;
    if (!p) return;
    const snapshot = this.#state;
    // Saves run one after another so an older state never overwrites a newer one.
    this.#saving = this.#saving.then(() => p.save(snapshot)).catch((error: unknown) => this.#emit('error', { operation: 'save', error }));
  }

  /** Resolves when every save started so far has finished. */
  flush(): Promise<void> {
    return this.#saving;
  }
}

/**
 * Returns `output` with `_meta.budgetWarning` set when `check` carries a warning (a new object; the
 * input is not modified). Outputs without `_meta` get one; outputs that are not objects are
 * returned as they are. A `check` that is not an object, or whose `warning` is not a string, is
 * INVALID_PARAMS.
 */
export function withBudgetWarning<T>(output: T, check: BudgetCheck): T {
  expectObject(check, 'check');
  expectOptionalString(check.warning, 'check.warning');
  if (check.warning === undefined || output === null || typeof output !== 'object' || Array.isArray(output)) return output;
  const meta = (output as { _meta?: unknown })._meta;
  const base = meta !== null && typeof meta === 'object' && !Array.isArray(meta) ? meta : {};
  return { ...output, _meta: { ...base, budgetWarning: check.warning } };
}

const sessions = new Map<string, SessionBudget>();

/**
 * Zeroes each budget, all of them even if one fails (its clock, say); the first failure is thrown
 * at the end, as resetAllSingletons does.
 */
function resetEach(budgets: Iterable<SessionBudget>): void {
  let failed = false;
  let first: unknown;
  for (const budget of budgets) {
    try {
      budget.reset();
    } catch (e) {
      if (!failed) first = e;
      failed = true;
    }
  }
  if (failed) throw first;
}

// Spec 000 §9: the next test gets new budgets, built with its own options and without the last
// test's listeners. The old ones are zeroed before they are forgotten: a wrapper built once with
// `{ budget: getContextBudget() }` keeps its reference, and must not carry the last test's counts.
registerSingletonReset('contextBudgets', () => {
  const handedOut = [...sessions.values()];
  sessions.clear();
  resetEach(handedOut);
});

/**
 * The process-wide budget of a session (spec's `get_context_budget()`), created with `options` on
 * first use; later calls return the same object and ignore `options`. Hosts with their own lifecycle
 * should create `SessionBudget`s directly. A `sessionId` that is not a string, or `options` that is
 * not an object, is INVALID_PARAMS.
 */
export function getContextBudget(sessionId = 'default', options?: SessionBudgetOptions): SessionBudget {
  expectOptionalString(sessionId, 'sessionId');
  expectOptions(options);
  let b = sessions.get(sessionId);
  if (!b) sessions.set(sessionId, (b = new SessionBudget(options)));
  return b;
}

/**
 * Zeroes one session's budget, or every session's (spec's `reset_context_budget()`), in place:
 * {@link getContextBudget} keeps returning the same objects, so a wrapper that captured one
 * (`withLogContext(…, { budget: getContextBudget() })`) sees the reset too, and each emits `reset`.
 * `resetAllSingletons()` zeroes them as well, then forgets them, so the next `getContextBudget`
 * builds a new one. If a budget fails to reset (its clock throws), the others are still reset and
 * the first error is thrown.
 */
export function resetContextBudget(sessionId?: string): void {
  expectOptionalString(sessionId, 'sessionId');
  if (sessionId === undefined) resetEach(sessions.values());
  else sessions.get(sessionId)?.reset();
}
