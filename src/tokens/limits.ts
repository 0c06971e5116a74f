import { described, expectObject } from '../args.ts';
import { invalidParams } from '../errors.ts';

/** Spec 001 budget decisions. */
export type BudgetDecision = 'ok' | 'warn_soft_limit' | 'refuse_hard_limit';

/** Inputs of {@link decideBudget} (spec 001 `token_budget` plus the estimated input). */
export interface BudgetLimitsInput {
  /** Estimated tokens of the assembled input. */
  readonly estimatedInputTokens: number;
  /** Model's `max_input_tokens`. */
  readonly maxInputTokens: number;
  /** `response_token_reserve`. */
  readonly responseTokenReserve: number;
  /** `soft_limit_threshold_pct`, 0..100. */
  readonly softLimitThresholdPct: number;
}

/** Result of {@link decideBudget}. */
export interface BudgetLimits {
  /** `max_input_tokens - response_token_reserve`. */
  readonly hardLimitTokens: number;
  /** `floor(hard_limit_tokens * soft_limit_threshold_pct / 100)`. */
  readonly softLimitTokens: number;
  /** `ok` up to the soft limit, `warn_soft_limit` up to the hard limit, else `refuse_hard_limit`. */
  readonly decision: BudgetDecision;
}

function nonNegativeInt(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) {
    throw invalidParams(field, `expected a non-negative integer, got ${described(v)}.`);
  }
  return v;
}

/**
 * The soft/hard limit rule of spec 001 (Budgeting Rules). Integer arithmetic only, so the
 * boundaries are exact: input equal to a limit is still inside it.
 */
export function decideBudget(input: BudgetLimitsInput): BudgetLimits {
  expectObject(input, 'input');
  const estimated = nonNegativeInt('estimatedInputTokens', input.estimatedInputTokens);
  const maxInput = nonNegativeInt('maxInputTokens', input.maxInputTokens);
  const reserve = nonNegativeInt('responseTokenReserve', input.responseTokenReserve);
  const pct = nonNegativeInt('softLimitThresholdPct', input.softLimitThresholdPct);
  if (pct > 100) throw invalidParams('softLimitThresholdPct', `expected 0..100, got ${pct}.`);
  if (reserve > maxInput) {
    throw invalidParams('responseTokenReserve', `the reserve (${reserve}) exceeds maxInputTokens (${maxInput}); lower the reserve or pick a larger model.`);
  }
  const hardLimitTokens = maxInput - reserve;
  // hard * pct stays below 2^53 for any real model; the division is exact integer floor.
  const softLimitTokens = Math.floor((hardLimitTokens * pct) / 100);
  const decision: BudgetDecision =
    estimated <= softLimitTokens ? 'ok' : estimated <= hardLimitTokens ? 'warn_soft_limit' : 'refuse_hard_limit';
  return { hardLimitTokens, softLimitTokens, decision };
}
