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
 * `turn`) when no turn is open, and explains a failure caused by a malformed state.
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
  expectState(state, ['reasoning']);
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

const stepSchema = z.strictObject({
  stepNum: z.int().min(1).optional(),
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
 * rejected (`INVALID_PARAMS`, field `step.stepNum`) rather than silently overwritten.
 */
export function recordStep(state: LayeredContextState, step: StepRecord): LayeredContextState {
  expectState(state, ['reasoning']);
  const parsed = parseOrThrow(stepSchema, step, 'step');
  expectAcyclic(parsed.result, 'step.result');
  return inOpenTrace(state, (trace) => {
    const stepNum = parsed.stepNum ?? trace.steps.reduce((m, s) => Math.max(m, s.stepNum), 0) + 1;
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
  expectState(state, ['reasoning']);
  const parsed = parseOrThrow(metaSchema, meta, 'meta');
  return inOpenTrace(state, (trace) => {
    if (parsed.conversationPhase !== undefined) trace.conversationPhase = parsed.conversationPhase;
    if (parsed.userExpressed !== undefined) trace.userExpressed = parsed.userExpressed;
    if (parsed.blockedReason !== undefined) trace.blockedReason = parsed.blockedReason;
  });
}
