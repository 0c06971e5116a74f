import { checkedCounter } from './counter.ts';
import type { TokenCounter } from './counter.ts';
import { estimator } from './estimator.ts';
import type { BudgetLog } from './budget-log.ts';
import { requireInt, truncateToTokenBudget } from './truncate.ts';
import { expectFunction, expectObject, expectOptionalNumber, expectOptionalString, expectOptions } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { isoFromDate } from '../policy/clock.ts';

/** Spec 003 `contextBudgetResult`. */
export interface ContextBudgetResult {
  /** Tokens of the input. */
  readonly originalTokens: number;
  /** The budget applied (`maxTokens`); 0 or less means unlimited. */
  readonly budgetTokens: number;
  /** Tokens of the output; equals `originalTokens` when not truncated. */
  readonly truncatedTokens: number;
  /** True when the output differs from the input. */
  readonly wasTruncated: boolean;
  /** The counter's encoder, e.g. `ctxgate-est/1:o200k_base`. */
  readonly encoder: string;
}

/** {@link ContextBudgetResult} plus the (possibly truncated) context. */
export interface ContextBudgetOutcome extends ContextBudgetResult {
  readonly context: string;
}

/** Options of {@link applyContextBudget}. */
export interface ApplyContextBudgetOptions {
  /** Token counter; default the core's estimator for o200k_base (needs `await init()`). */
  readonly counter?: TokenCounter;
  /** Where to log the call (one JSONL line per call). */
  readonly log?: BudgetLog;
  /** `run_id` of the log line. */
  readonly runId?: string;
  /** `phase` of the log line. */
  readonly phase?: number;
  /** Clock for the log line's `ts` (tests). */
  readonly now?: () => Date;
}

/**
 * Fits assembled context into `maxTokens` (spec 003): unchanged when `maxTokens <= 0` or when it
 * already fits, else {@link truncateToTokenBudget}. Logs one entry per call when a log is given.
 * A `counter` that returns anything but a TokenCount, or a `now` that returns anything but a valid
 * Date, is INVALID_PARAMS naming it (and nothing is logged).
 */
export function applyContextBudget(context: string, maxTokens: number, options: ApplyContextBudgetOptions = {}): ContextBudgetOutcome {
  if (typeof context !== 'string') throw invalidParams('context', 'expected a string.');
  requireInt('maxTokens', maxTokens);
  expectOptions(options);
  if (options.counter !== undefined) expectFunction(options.counter, 'options.counter');
  if (options.log !== undefined) {
    expectObject(options.log, 'options.log');
    expectFunction(options.log.record, 'options.log.record');
  }
  expectOptionalString(options.runId, 'options.runId');
  expectOptionalNumber(options.phase, 'options.phase');
  if (options.now !== undefined) expectFunction(options.now, 'options.now');
  const counter = options.counter !== undefined ? checkedCounter(options.counter, 'options.counter') : estimator();
  const original = counter(context);
  let out = context;
  let truncatedTokens = original.tokens;
  if (maxTokens > 0 && original.tokens > maxTokens) {
    out = truncateToTokenBudget(context, maxTokens, counter);
    truncatedTokens = counter(out).tokens;
  }
  const outcome: ContextBudgetOutcome = {
    context: out,
    originalTokens: original.tokens,
    budgetTokens: maxTokens,
    truncatedTokens,
    wasTruncated: out !== context,
    encoder: original.encoder,
  };
  options.log?.record({
    run_id: options.runId ?? '',
    phase: options.phase ?? 0,
    original_tokens: outcome.originalTokens,
    budget_tokens: outcome.budgetTokens,
    truncated_tokens: outcome.truncatedTokens,
    was_truncated: outcome.wasTruncated,
    ts: options.now ? isoFromDate(options.now(), 'options.now') : new Date().toISOString(),
    encoder: outcome.encoder,
  });
  return outcome;
}
