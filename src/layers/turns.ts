/**
 * The turn lifecycle of a layered context: create, begin a turn with the user's message, end it
 * with the assistant's reply, and compact what ages out of the recent windows.
 *
 * Every function returns a new state and leaves its input untouched, so a host can keep the old
 * state (or persist the new one) and a failed async summariser never leaves a half-updated state.
 */
import { z } from 'zod';
import { expectOptions, wrongKind } from '../args.ts';
import { errorName, invalidParams } from '../errors.ts';
import { DEFAULT_SETTINGS, PENDING_TYPES } from './model.ts';
import type {
  ConversationTurn,
  CurrentTurn,
  JsonValue,
  LayeredContextSettings,
  LayeredContextState,
  PendingState,
  TurnExecutionSummary,
} from './model.ts';
import { cloneFailure, diagnoseState, expectState, readingState, updatedState } from './guard.ts';
import { expectAcyclic, parseOrThrow, settingsSchema } from './schema.ts';
import { fallbackConversationSummary, fallbackReasoningSummary } from './summarizer.ts';
import type { Summarizer } from './summarizer.ts';
import { clipChars } from './truncate.ts';

/** Creates an empty layered context (turn 0, nothing registered). */
export function createLayeredContext(settings: Partial<LayeredContextSettings> = {}): LayeredContextState {
  const s = parseOrThrow(settingsSchema, { ...DEFAULT_SETTINGS, ...settings }, 'settings');
  return {
    version: 1,
    settings: s,
    turn: 0,
    entities: [],
    curationLog: [],
    conversation: { recentTurns: [], historySummary: '', engagementSummary: '', pending: null, current: null },
    reasoning: { turnSummaries: [], reasoningSummary: '', current: null },
  };
}

/** What starts a turn. */
export interface BeginTurnInput {
  /** The user's message. */
  user: string;
  /** Stored with the turn, never rendered. Default: the current time in ISO-8601. */
  timestamp?: string;
}

const beginSchema = z.strictObject({ user: z.string(), timestamp: z.string().optional() });

/**
 * Begins the next turn with the user's message. The pending state is kept: Think needs it to read
 * the user's answer. Throws `INVALID_PARAMS` (field `turn`) while another turn is open.
 */
export function beginTurn(state: LayeredContextState, input: BeginTurnInput): LayeredContextState {
  expectState(state, ['turn', 'conversation', 'reasoning']);
  const parsed = parseOrThrow(beginSchema, input, 'input');
  if (state.conversation.current !== null) {
    throw invalidParams('turn', `turn ${state.turn} is still open; call endTurn before beginning another.`);
  }
  if (state.turn >= Number.MAX_SAFE_INTEGER) {
    throw invalidParams('state.turn', 'has no safe successor to number the next turn; start a new layered context.');
  }
  return updatedState(state, (next) => {
    next.turn += 1;
    next.conversation.current = {
      turnNum: next.turn,
      user: parsed.user,
      timestamp: parsed.timestamp ?? new Date().toISOString(),
    };
    next.reasoning.current = emptyExecutionSummary(next.turn);
  });
}

/** A fresh execution summary for a turn. */
export function emptyExecutionSummary(turnNum: number): TurnExecutionSummary {
  return {
    turnNum,
    thinkDecision: null,
    thinkGoal: null,
    steps: [],
    entityCuration: { retained: [], promoted: [], demoted: [], reasons: {} },
    conversationPhase: null,
    userExpressed: null,
    blockedReason: null,
  };
}

/** What ends a turn. */
export interface EndTurnInput {
  /** The condensed assistant response. */
  assistantSummary: string;
  /** What the router decided, if recorded. */
  routing?: { [key: string]: JsonValue } | null;
  /** A new pending state; `null` clears it; omitted keeps the current one. */
  pending?: PendingState | null;
  /** A new engagement summary; omitted keeps the current one. */
  engagementSummary?: string;
}

/** Options of {@link endTurn}. */
export interface EndTurnOptions {
  /**
   * Host summarisers for folded turns: an object with a `conversation` and/or a `reasoning`
   * function; the deterministic fallbacks are used for the one left out (or both without it).
   */
  summarizer?: Summarizer;
}

const SUMMARIZER_HOOKS = ['conversation', 'reasoning'] as const;

/**
 * Throws `INVALID_PARAMS` unless `value` is a {@link Summarizer} or `undefined`. Checked at entry,
 * whether or not anything folds: a summariser that is not one would otherwise be ignored, or fail
 * only when compaction first calls it and be reported as a summariser that threw.
 */
function expectSummarizer(value: unknown): asserts value is Summarizer | undefined {
  if (value === undefined) return;
  if (typeof value === 'function') {
    throw invalidParams('options.summarizer', 'must be an object of summariser functions, not a function; pass { conversation: fn } and/or { reasoning: fn }.');
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw wrongKind('options.summarizer', 'an object with conversation and/or reasoning functions', value);
  }
  for (const key of Object.keys(value)) {
    const field = `options.summarizer.${key}`;
    if (!(SUMMARIZER_HOOKS as readonly string[]).includes(key)) {
      throw invalidParams(field, `is not a summariser this version calls; use ${SUMMARIZER_HOOKS.join(' or ')}.`);
    }
    const hook = (value as Record<string, unknown>)[key];
    if (hook !== undefined && typeof hook !== 'function') {
      throw wrongKind(field, 'a function returning the new summary (or a promise of it)', hook);
    }
  }
}

/** How one summary was produced during compaction. */
export interface SummaryOutcome {
  /** `host` when the host summariser's text was used. */
  by: 'host' | 'fallback';
  /** Why the fallback was used although a host summariser was given, else `null`. */
  fallbackReason: string | null;
  /** True when the text was clipped to `summaryMaxChars`. */
  clipped: boolean;
  /** Length of the new summary in characters. */
  chars: number;
}

/** What compaction did when a turn ended. Nothing is folded silently. */
export interface CompactionReport {
  /** Turn numbers folded from recent turns into the history summary. */
  foldedTurns: number[];
  /** Turn numbers folded from execution summaries into the reasoning summary. */
  foldedTraces: number[];
  /** How the history summary was rebuilt, or `null` when nothing was folded. */
  conversation: SummaryOutcome | null;
  /** How the reasoning summary was rebuilt, or `null` when nothing was folded. */
  reasoning: SummaryOutcome | null;
}

/** The result of {@link endTurn}. */
export interface EndTurnResult {
  state: LayeredContextState;
  compaction: CompactionReport;
}

const pendingSchema = z.strictObject({ type: z.enum(PENDING_TYPES), context: z.string(), questions: z.array(z.string()) });

const endSchema = z.strictObject({
  assistantSummary: z.string(),
  routing: z.record(z.string(), z.json() as unknown as z.ZodType<JsonValue>).nullable().optional(),
  pending: pendingSchema.nullable().optional(),
  engagementSummary: z.string().optional(),
});

async function summarise<I>(
  hook: ((input: I) => string | Promise<string>) | undefined,
  fallback: (input: I) => string,
  input: I,
  maxChars: number,
): Promise<{ text: string; outcome: SummaryOutcome }> {
  let by: SummaryOutcome['by'] = 'fallback';
  let fallbackReason: string | null = null;
  let raw: string | undefined;
  if (hook) {
    try {
      const out: unknown = await hook(input);
      if (typeof out === 'string') {
        raw = out;
        by = 'host';
      } else {
        fallbackReason = `the summariser returned ${out === null ? 'null' : typeof out}, not a string`;
      }
    } catch (error) {
      // Only the error's class: its message may quote the conversation.
      fallbackReason = `the summariser threw ${errorName(error)}`;
    }
  }
  if (raw === undefined) raw = fallback(input);
  const text = clipChars(raw, maxChars);
  return { text, outcome: { by, fallbackReason, clipped: text !== raw, chars: text.length } };
}

/**
 * Ends the open turn: the user's message and the assistant summary become the newest recent turn,
 * the turn's execution summary joins the reasoning trace, and whatever leaves the recent windows
 * folds into the running summaries (by the host summariser, else deterministically). The pending
 * state changes only as `input.pending` says, and the turn just ended is never folded.
 * Throws `INVALID_PARAMS` (field `turn`) when no turn is open.
 */
export async function endTurn(
  state: LayeredContextState,
  input: EndTurnInput,
  options: EndTurnOptions = {},
): Promise<EndTurnResult> {
  expectState(state, ['conversation', 'reasoning', 'settings']);
  const parsed = parseOrThrow(endSchema, input, 'input');
  expectAcyclic(parsed.routing, 'input.routing');
  expectOptions(options);
  expectSummarizer(options.summarizer);
  const current = state.conversation.current;
  const trace = state.reasoning.current;
  if (current === null || trace === null) throw invalidParams('turn', 'no turn is open; call beginTurn first.');
  try {
    return await closeTurn(state, parsed, current, trace, options.summarizer);
  } catch (error) {
    // Host summariser failures are caught inside; what fails here comes from a malformed state,
    // so name the state's field (the fallback summarisers would name their own input's).
    throw diagnoseState(state) ?? cloneFailure(error);
  }
}

async function closeTurn(
  state: LayeredContextState,
  parsed: z.output<typeof endSchema>,
  current: CurrentTurn,
  trace: TurnExecutionSummary,
  summarizer: Summarizer | undefined,
): Promise<EndTurnResult> {
  const next = structuredClone(state);
  const turn: ConversationTurn = {
    turnNum: current.turnNum,
    user: current.user,
    assistantSummary: parsed.assistantSummary,
    routing: parsed.routing ?? null,
    timestamp: current.timestamp,
  };
  next.conversation.current = null;
  next.reasoning.current = null;
  next.conversation.recentTurns.push(turn);
  next.reasoning.turnSummaries.push(structuredClone(trace));
  if (parsed.pending !== undefined) next.conversation.pending = parsed.pending;
  if (parsed.engagementSummary !== undefined) next.conversation.engagementSummary = parsed.engagementSummary;

  const { recentTurns, recentTraces, summaryMaxChars } = next.settings;
  const compaction: CompactionReport = { foldedTurns: [], foldedTraces: [], conversation: null, reasoning: null };
  const foldTurns = next.conversation.recentTurns.splice(0, Math.max(0, next.conversation.recentTurns.length - recentTurns));
  const foldTraces = next.reasoning.turnSummaries.splice(0, Math.max(0, next.reasoning.turnSummaries.length - recentTraces));
  if (foldTurns.length > 0) {
    const r = await summarise(
      summarizer?.conversation,
      fallbackConversationSummary,
      { previousSummary: next.conversation.historySummary, turns: structuredClone(foldTurns), maxChars: summaryMaxChars },
      summaryMaxChars,
    );
    next.conversation.historySummary = r.text;
    compaction.foldedTurns = foldTurns.map((t) => t.turnNum);
    compaction.conversation = r.outcome;
  }
  if (foldTraces.length > 0) {
    const r = await summarise(
      summarizer?.reasoning,
      fallbackReasoningSummary,
      { previousSummary: next.reasoning.reasoningSummary, summaries: structuredClone(foldTraces), maxChars: summaryMaxChars },
      summaryMaxChars,
    );
    next.reasoning.reasoningSummary = r.text;
    compaction.foldedTraces = foldTraces.map((t) => t.turnNum);
    compaction.reasoning = r.outcome;
  }
  return { state: next, compaction };
}

/** Which turns the next {@link endTurn} will fold into the summaries. */
export interface CompactionPreview {
  /** Turn numbers that will leave the recent turns. */
  foldTurns: number[];
  /** Turn numbers whose execution summaries will fold into the reasoning summary. */
  foldTraces: number[];
}

/**
 * Warns before compaction fires: the turns that ending the open turn (or, with no turn open, the
 * next one) will fold into the summaries, so a host can persist or summarise them first.
 */
export function previewCompaction(state: LayeredContextState): CompactionPreview {
  expectState(state, ['conversation', 'reasoning', 'settings']);
  return readingState(state, () => {
    const recent = state.conversation.recentTurns.map((t) => t.turnNum);
    const traces = state.reasoning.turnSummaries.map((t) => t.turnNum);
    // Ending a turn adds one entry to each list; whatever then exceeds the window folds.
    const foldTurns = recent.slice(0, Math.max(0, recent.length + 1 - state.settings.recentTurns));
    const foldTraces = traces.slice(0, Math.max(0, traces.length + 1 - state.settings.recentTraces));
    return { foldTurns, foldTraces };
  });
}

/** Sets (or with `null` clears) the pending state. Returns a new state. */
export function setPending(state: LayeredContextState, pending: PendingState | null): LayeredContextState {
  expectState(state, ['conversation']);
  const parsed = parseOrThrow(pendingSchema.nullable(), pending, 'pending');
  return updatedState(state, (next) => {
    next.conversation.pending = parsed;
  });
}

/** Replaces the engagement summary (the conversation's overall theme). Returns a new state. */
export function setEngagementSummary(state: LayeredContextState, summary: string): LayeredContextState {
  expectState(state, ['conversation']);
  const parsed = parseOrThrow(z.string(), summary, 'summary');
  return updatedState(state, (next) => {
    next.conversation.engagementSummary = parsed;
  });
}
