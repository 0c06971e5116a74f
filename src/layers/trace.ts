/**
 * Layer 3 while a turn runs: Think, Act and Summarize record into the open turn's
 * `TurnExecutionSummary`, which {@link endTurn} then moves into the reasoning trace. (Understand's
 * curation reaches it through `curateEntities`.)
 */
import { z } from 'zod';
import { invalidParams } from '../errors.ts';
import { STEP_TYPES } from './model.ts';
import type { JsonValue, LayeredContextState, StepType, TurnExecutionSummary } from './model.ts';
import { expectState, updatedState } from './guard.ts';
import { expectAcyclic, parseOrThrow } from './schema.ts';

/**
 * Runs `record` on a copy of the state and the copy's open trace; throws `INVALID_PARAMS` (field
 * `turn`) when no turn is open, and explains a failure caused by a malformed state. Callers check
 * the conversation as well as the reasoning at entry, so the trace written to is one endTurn closes.
 */
function inOpenTrace(state: LayeredContextState, record: (trace: TurnExecutionSummary) => void): LayeredContextState {
  if (state.reasoning.current === null) throw invalidParams('turn', 'no turn is open; call beginTurn first.');
  return updatedState(state, (next) => record(next.reasoning.current as TurnExecutionSummary));
}

/** Think's decision for the open turn. */
export interface ThinkRecord {
  /** `plan_direct`, `propose`, `clarify`, or a host-defined value. */
  decision: string;
  goal: string;
}

const thinkSchema = z.strictObject({ decision: z.string().min(1, 'must not be empty'), goal: z.string() });

/** Records Think's decision and goal for the open turn. Returns a new state. */
export function recordThink(state: LayeredContextState, think: ThinkRecord): LayeredContextState {
  expectState(state, ['reasoning', 'conversation']);
  const parsed = parseOrThrow(thinkSchema, think, 'think');
  return inOpenTrace(state, (trace) => {
    trace.thinkDecision = parsed.decision;
    trace.thinkGoal = parsed.goal;
  });
}

/** One executed step as Act reports it. */
export interface StepRecord {
  /** Defaults to the next number in this turn. */
  stepNum?: number;
  type: StepType;
  subdomain: string;
  description: string;
  outcome: string;
  entitiesInvolved?: string[];
  note?: string | null;
  /** Full result data, shown only to Act in the same turn. */
  result?: JsonValue;
}

/**
 * The largest step number accepted: its successor, which numbering the next step gives, must
 * still be a safe integer (2^53 would compare equal to 2^53 + 1).
 */
const MAX_STEP_NUM = Number.MAX_SAFE_INTEGER - 1;

const stepSchema = z.strictObject({
  stepNum: z.int().min(1).max(MAX_STEP_NUM, `must be at most ${MAX_STEP_NUM}, so the next step can be numbered`).optional(),
  type: z.enum(STEP_TYPES),
  subdomain: z.string(),
  description: z.string(),
  outcome: z.string(),
  entitiesInvolved: z.array(z.string().min(1, 'must not be empty')).optional(),
  note: z.string().nullable().optional(),
  result: (z.json() as unknown as z.ZodType<JsonValue>).optional(),
});

/**
 * Appends an executed step to the open turn. A step number already recorded this turn is
 * rejected (`INVALID_PARAMS`, field `step.stepNum`) rather than silently overwritten, and so is
 * one above {@link MAX_STEP_NUM}, whose successor would not be exact.
 */
export function recordStep(state: LayeredContextState, step: StepRecord): LayeredContextState {
  expectState(state, ['reasoning', 'conversation']);
  const parsed = parseOrThrow(stepSchema, step, 'step');
  expectAcyclic(parsed.result, 'step.result');
  return inOpenTrace(state, (trace) => {
    const stepNum = parsed.stepNum ?? nextStepNum(trace);
    if (trace.steps.some((s) => s.stepNum === stepNum)) {
      throw invalidParams('step.stepNum', `step ${stepNum} is already recorded for this turn; use the next number.`);
    }
    trace.steps.push({
      stepNum,
      type: parsed.type,
      subdomain: parsed.subdomain,
      description: parsed.description,
      outcome: parsed.outcome,
      entitiesInvolved: parsed.entitiesInvolved ?? [],
      note: parsed.note ?? null,
      result: parsed.result ?? null,
    });
    trace.steps.sort((a, b) => a.stepNum - b.stepNum);
  });
}

/**
 * The number after the highest recorded in `trace`. A recorded number that is not a whole number
 * of at least 1 (a hand-edited state) would number the step NaN, and the successor of the largest
 * safe integer is inexact: both are refused, naming the field, as is any number above
 * {@link MAX_STEP_NUM}, so numbers made here obey the rule numbers passed in do.
 */
function nextStepNum(trace: TurnExecutionSummary): number {
  let max = 0;
  trace.steps.forEach((s, i) => {
    if (!Number.isSafeInteger(s.stepNum) || s.stepNum < 1) {
      throw invalidParams(`state.reasoning.current.steps[${i}].stepNum`, 'must be a whole number of at least 1; restore the state with layeredContextFromJSON.');
    }
    max = Math.max(max, s.stepNum);
  });
  if (max >= MAX_STEP_NUM) {
    throw invalidParams('step.stepNum', `the next number after step ${max} would be above ${MAX_STEP_NUM}; pass stepNum explicitly (an unused number from 1 to ${MAX_STEP_NUM}).`);
  }
  return max + 1;
}

/** Conversation-flow facts of the open turn; omitted fields keep their value, `null` clears. */
export interface TurnMetaRecord {
  conversationPhase?: string | null;
  userExpressed?: string | null;
  blockedReason?: string | null;
}

const metaSchema = z.strictObject({
  conversationPhase: z.string().nullable().optional(),
  userExpressed: z.string().nullable().optional(),
  blockedReason: z.string().nullable().optional(),
});

/** Records the conversation phase, what the user expressed, or why the turn was blocked. */
export function recordTurnMeta(state: LayeredContextState, meta: TurnMetaRecord): LayeredContextState {
  expectState(state, ['reasoning', 'conversation']);
  const parsed = parseOrThrow(metaSchema, meta, 'meta');
  return inOpenTrace(state, (trace) => {
    if (parsed.conversationPhase !== undefined) trace.conversationPhase = parsed.conversationPhase;
    if (parsed.userExpressed !== undefined) trace.userExpressed = parsed.userExpressed;
    if (parsed.blockedReason !== undefined) trace.blockedReason = parsed.blockedReason;
  });
}
