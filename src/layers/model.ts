/**
 * The data model of the three context layers (spec 002): entities, conversation history and the
 * reasoning trace, plus the one plain-data state object that holds all three between turns.
 *
 * Everything here is plain JSON (no classes, no `undefined`, no Dates) so the state can be
 * persisted in the agent-context store as is and renders byte-identically after a round trip.
 */

/** Any JSON value. Entity data and step results are carried as JSON so they persist unchanged. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The statuses an entity can have (spec 002, `EntitySnapshot.status`). */
export const ENTITY_STATUSES = ['read', 'created', 'updated', 'deleted', 'generated', 'linked'] as const;

/** What happened to an entity: read from storage, written, or generated and not yet saved. */
export type EntityStatus = (typeof ENTITY_STATUSES)[number];

/** One entity as the spec describes it (spec 002, `EntitySnapshot`). */
export interface EntitySnapshot {
  /** Session-stable reference, e.g. `recipe_1`. */
  ref: string;
  /** Kind of thing, e.g. `recipes`. */
  type: string;
  /** Human label, e.g. `Lemon Herb Chicken`. */
  label: string;
  /** Latest status. */
  status: EntityStatus;
  /** Turn in which the entity was first registered. */
  turnCreated: number;
  /** Last turn in which the entity was registered, referenced or promoted. */
  turnLastRef: number;
  /** Why Understand kept it in long-term memory; `null` when it was never retained (or demoted). */
  retentionReason: string | null;
}

/** An entity as the registry stores it: the snapshot plus its full data and demotion mark. */
export interface EntityRecord extends EntitySnapshot {
  /** Full data, shown only to views that ask for `data` detail (Act). */
  data: JsonValue | null;
  /**
   * Turn in which Understand demoted the entity, or `null`. A demoted entity leaves every tier
   * until it is registered or referenced again, which clears the mark (in the same turn too).
   */
  demotedTurn: number | null;
}

/** The kinds of curation decision Understand can make. */
export const CURATION_ACTIONS = ['retain', 'promote', 'demote'] as const;

/**
 * `retain`: keep in long-term memory after it ages out of the active window. `promote`: make it
 * active now (and retained afterwards). `demote`: drop it from every tier and from retention.
 */
export type CurationAction = (typeof CURATION_ACTIONS)[number];

/** One curation decision, with the reason Understand gave (its "own decision history"). */
export interface CurationDecision {
  turn: number;
  ref: string;
  action: CurationAction;
  reason: string;
}

/** The kinds of pending state (spec 002, `PendingState.type`). */
export const PENDING_TYPES = ['propose', 'clarify', 'ask_user'] as const;

/** What the assistant is waiting for from the user. */
export type PendingType = (typeof PENDING_TYPES)[number];

/** The assistant proposed, asked or needs clarification and awaits the user's answer. */
export interface PendingState {
  type: PendingType;
  /** What was proposed or asked. */
  context: string;
  /** Specific questions, if any. */
  questions: string[];
}

/** One completed exchange (spec 002, `ConversationTurn`), numbered so views can cite it. */
export interface ConversationTurn {
  turnNum: number;
  user: string;
  /** Condensed assistant response. */
  assistantSummary: string;
  /** What the router decided, if the host records it. */
  routing: { [key: string]: JsonValue } | null;
  /** Host-supplied timestamp; stored, never rendered (so views stay deterministic). */
  timestamp: string;
}

/** The turn in progress: the user's message before any assistant reply. */
export interface CurrentTurn {
  turnNum: number;
  user: string;
  timestamp: string;
}

/** Step types of a plan (spec 002, `StepSummary.type`). */
export const STEP_TYPES = ['read', 'analyze', 'generate', 'write'] as const;

/** Kind of work a step did. */
export type StepType = (typeof STEP_TYPES)[number];

/** One executed step (spec 002, `StepSummary`), plus its full result for Act. */
export interface StepSummary {
  stepNum: number;
  type: StepType;
  subdomain: string;
  /** From the plan. */
  description: string;
  /** The model's result summary if available, else a generic count. */
  outcome: string;
  /** Refs the step touched. */
  entitiesInvolved: string[];
  /** Act's note for the next step. */
  note: string | null;
  /** Full step result; only views with `data` detail on the current turn show it. */
  result: JsonValue | null;
}

/** Understand's curation in one turn (spec 002, `CurationSummary`), plus promotions. */
export interface CurationSummary {
  /** Refs explicitly kept. */
  retained: string[];
  /** Refs explicitly made active. */
  promoted: string[];
  /** Refs no longer active. */
  demoted: string[];
  /** ref -> reason, for every ref above. */
  reasons: { [ref: string]: string };
}

/** What happened in one turn (spec 002, `TurnExecutionSummary`). */
export interface TurnExecutionSummary {
  turnNum: number;
  /** What Think decided: `plan_direct`, `propose`, `clarify`, or a host-defined value. */
  thinkDecision: string | null;
  /** What Think set out to do. */
  thinkGoal: string | null;
  steps: StepSummary[];
  entityCuration: CurationSummary;
  /** `exploring`, `narrowing`, `confirming`, or a host-defined value. */
  conversationPhase: string | null;
  /** What the user expressed, e.g. `prefers quick meals`. */
  userExpressed: string | null;
  /** Set when the turn was blocked before completion. */
  blockedReason: string | null;
}

/** Tunables of a layered context. */
export interface LayeredContextSettings {
  /** Completed turns kept in full; older ones fold into the history summary. At least 1. */
  recentTurns: number;
  /** Turn execution summaries kept in full; older ones fold into the reasoning summary. At least 1. */
  recentTraces: number;
  /** How many turns an entity stays active after its last reference. At least 1. */
  activeWindow: number;
  /** Character cap of the history and reasoning summaries. */
  summaryMaxChars: number;
  /** How many curation decisions are kept in Understand's decision history. */
  curationLogLimit: number;
}

/** Layer 2 as stored. */
export interface ConversationState {
  recentTurns: ConversationTurn[];
  historySummary: string;
  engagementSummary: string;
  pending: PendingState | null;
  current: CurrentTurn | null;
}

/** Layer 3 as stored. */
export interface ReasoningState {
  /** The last `recentTraces` completed turns, oldest first. */
  turnSummaries: TurnExecutionSummary[];
  /** Compressed older reasoning. */
  reasoningSummary: string;
  /** The summary being built for the turn in progress. */
  current: TurnExecutionSummary | null;
}

/** The whole state of a layered context: plain JSON, safe to persist and to structured-clone. */
export interface LayeredContextState {
  version: 1;
  settings: LayeredContextSettings;
  /** Number of the latest turn begun; 0 before the first. */
  turn: number;
  /** Layer 1: the registry, in registration order. */
  entities: EntityRecord[];
  /** Understand's decision history, oldest first. */
  curationLog: CurationDecision[];
  conversation: ConversationState;
  reasoning: ReasoningState;
}

/** Defaults of {@link LayeredContextSettings}. */
export const DEFAULT_SETTINGS: Readonly<LayeredContextSettings> = Object.freeze({
  recentTurns: 2,
  recentTraces: 2,
  activeWindow: 2,
  summaryMaxChars: 2000,
  curationLogLimit: 50,
});
