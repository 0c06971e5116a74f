/**
 * Layer 1, the entity registry (spec 002, `SessionIdRegistry`): Act registers what it read,
 * wrote or generated, Understand curates, and {@link getEntityContext} sorts the registry into
 * the three tiers every view reads from.
 *
 * Tier rules (applied in this order):
 * 1. Demoted and not registered or referenced since (in the same turn or a later one): in no tier.
 * 2. Status `generated` (not saved): the generated tier, whatever its age.
 * 3. Referenced within the active window (default: this turn or the one before): active.
 * 4. Older but retained by Understand (it has a `retentionReason`): retained.
 * 5. Otherwise dormant: kept in the registry, shown to no node.
 *
 * Within a tier the most recently referenced entity comes first; ties by ref (bytewise), so
 * views never depend on registration timing.
 */
import { z } from 'zod';
import { expectArray, expectObject, expectString } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { expectState, readingState, updatedState } from './guard.ts';
import { CURATION_ACTIONS, ENTITY_STATUSES } from './model.ts';
import type {
  CurationAction,
  EntityRecord,
  EntityStatus,
  JsonValue,
  LayeredContextState,
  TurnExecutionSummary,
} from './model.ts';
import { expectAcyclic, parseOrThrow } from './schema.ts';

/** What Act passes to register (or update) an entity. */
export interface EntityRegistration {
  ref: string;
  type: string;
  label: string;
  status: EntityStatus;
  /** Full data for Act's view; omit to keep what is stored (or none). */
  data?: JsonValue;
}

/** One curation decision Understand makes this turn. */
export interface CurationInput {
  ref: string;
  action: CurationAction;
  /** Why; recorded in the decision history and shown to Understand and Think. */
  reason: string;
}

/** The three tiers of entity context (spec 002, `EntityContext`). */
export interface EntityContext {
  /** Referenced in the active window (or promoted). */
  active: EntityRecord[];
  /** Generated and not saved. */
  generated: EntityRecord[];
  /** Older, kept by Understand with a reason. */
  retained: EntityRecord[];
}

const registrationSchema = z.strictObject({
  ref: z.string().min(1, 'must not be empty'),
  type: z.string().min(1, 'must not be empty'),
  label: z.string(),
  status: z.enum(ENTITY_STATUSES),
  data: (z.json() as unknown as z.ZodType<JsonValue>).optional(),
});

const curationSchema = z
  .array(
    z.strictObject({
      ref: z.string().min(1, 'must not be empty'),
      action: z.enum(CURATION_ACTIONS),
      reason: z.string().min(1, 'must give a reason'),
    }),
  )
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((d, i) => {
      if (seen.has(d.ref)) {
        ctx.addIssue({ code: 'custom', path: [i, 'ref'], message: `"${d.ref}" has more than one decision; give one per ref` });
      }
      seen.add(d.ref);
    });
  });

/** Bytewise (UTF-16 code unit) order: identical in every runtime, unlike `localeCompare`. */
export function compareRefs(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Registers an entity this turn, or updates it (type, label, status, data) if the ref exists.
 * Either way it becomes referenced in the current turn, and a re-registered demoted entity is
 * active again, also when Understand demoted it earlier in this same turn. Returns a new state.
 */
export function registerEntity(state: LayeredContextState, entity: EntityRegistration): LayeredContextState {
  expectState(state, ['entities', 'turn']);
  const input = parseOrThrow(registrationSchema, entity, 'entity');
  expectAcyclic(input.data, 'entity.data');
  return updatedState(state, (next) => register(next, input));
}

/** Registers (or updates) the entity in `next`, the copy being built. */
function register(next: LayeredContextState, input: z.output<typeof registrationSchema>): void {
  const existing = next.entities.find((e) => e.ref === input.ref);
  if (existing) {
    existing.type = input.type;
    existing.label = input.label;
    existing.status = input.status;
    existing.turnLastRef = next.turn;
    // Act reading it again after Understand demoted it (possibly this very turn) puts it back in
    // context. Turn numbers alone cannot order a demotion and a re-read within one turn.
    existing.demotedTurn = null;
    if (input.data !== undefined) existing.data = input.data;
  } else {
    next.entities.push({
      ref: input.ref,
      type: input.type,
      label: input.label,
      status: input.status,
      turnCreated: next.turn,
      turnLastRef: next.turn,
      retentionReason: null,
      data: input.data ?? null,
      demotedTurn: null,
    });
  }
}

/**
 * Marks entities as referenced in the current turn (keeps them active; a demoted one is active
 * again, as on re-registration). Returns a new state.
 */
export function referenceEntities(state: LayeredContextState, refs: readonly string[]): LayeredContextState {
  expectState(state, ['entities', 'turn']);
  const list = parseOrThrow(z.array(z.string().min(1, 'must not be empty')), refs, 'refs');
  return updatedState(state, (next) => {
    list.forEach((ref, i) => {
      const entity = next.entities.find((e) => e.ref === ref);
      if (!entity) throw invalidParams(`refs[${i}]`, 'is not a registered entity; register it with registerEntity first.');
      entity.turnLastRef = next.turn;
      entity.demotedTurn = null;
    });
  });
}

/**
 * Applies Understand's curation decisions: `retain` keeps an entity in long-term memory once it
 * leaves the active window, `promote` makes it active now (and retained afterwards), `demote`
 * removes it from every tier and clears its retention until it is registered or referenced again.
 * Every decision is logged with its turn and reason, and added to the open turn's curation
 * summary. Throws `INVALID_PARAMS` (field `turn`) when no turn is open, like the recording
 * functions: Understand curates within a turn. Returns a new state.
 */
export function curateEntities(state: LayeredContextState, decisions: readonly CurationInput[]): LayeredContextState {
  expectState(state, ['entities', 'turn', 'curationLog', 'conversation', 'reasoning', 'settings']);
  const list = parseOrThrow(curationSchema, decisions, 'decisions');
  // Outside a turn the decisions would be logged under the turn already ended, whose curation
  // summary is no longer recorded: the log and the trace would disagree.
  if (state.reasoning.current === null) throw invalidParams('turn', 'no turn is open; call beginTurn first, then curate.');
  return updatedState(state, (next) => curate(next, list));
}

/** Applies the curation decisions to `next`, the copy being built. */
function curate(next: LayeredContextState, list: readonly CurationInput[]): void {
  const turn = next.turn;
  list.forEach((decision, i) => {
    const entity = next.entities.find((e) => e.ref === decision.ref);
    if (!entity) {
      throw invalidParams(`decisions[${i}].ref`, 'is not a registered entity; only registered entities can be curated.');
    }
    if (decision.action === 'demote') {
      entity.retentionReason = null;
      entity.demotedTurn = turn;
    } else {
      entity.retentionReason = decision.reason;
      entity.demotedTurn = null;
      if (decision.action === 'promote') entity.turnLastRef = turn;
    }
    next.curationLog.push({ turn, ref: decision.ref, action: decision.action, reason: decision.reason });
    recordInSummary(next.reasoning.current as TurnExecutionSummary, decision);
  });
  const limit = next.settings.curationLogLimit;
  if (next.curationLog.length > limit) next.curationLog = next.curationLog.slice(next.curationLog.length - limit);
}

function recordInSummary(summary: TurnExecutionSummary, decision: { ref: string; action: CurationAction; reason: string }): void {
  const c = summary.entityCuration;
  // A later decision on the same ref in the same turn replaces the earlier one.
  c.retained = c.retained.filter((r) => r !== decision.ref);
  c.promoted = c.promoted.filter((r) => r !== decision.ref);
  c.demoted = c.demoted.filter((r) => r !== decision.ref);
  const list = decision.action === 'retain' ? c.retained : decision.action === 'promote' ? c.promoted : c.demoted;
  list.push(decision.ref);
  c.reasons[decision.ref] = decision.reason;
}

/** Which tier an entity is in this turn, or `null` when it is shown to no node. */
export function entityTier(entity: EntityRecord, state: LayeredContextState): keyof EntityContext | null {
  if (entity.demotedTurn !== null && entity.turnLastRef <= entity.demotedTurn) return null;
  if (entity.status === 'generated') return 'generated';
  if (state.turn - entity.turnLastRef < state.settings.activeWindow) return 'active';
  if (entity.retentionReason !== null) return 'retained';
  return null;
}

/**
 * Sorts the registry into the three tiers (spec 002, `get_entity_context`). The records are
 * copies: changing them leaves the state alone.
 */
export function getEntityContext(state: LayeredContextState): EntityContext {
  expectState(state, ['entities', 'turn', 'settings']);
  return readingState(state, () => structuredClone(sortIntoTiers(state)));
}

/**
 * The tiers of a state that passed {@link expectState}, holding the state's own records (not
 * copies): for views, which copy only what they show. Never hand these records out.
 */
export function sortIntoTiers(state: LayeredContextState): EntityContext {
  const out: EntityContext = { active: [], generated: [], retained: [] };
  for (const entity of state.entities) {
    const tier = entityTier(entity, state);
    if (tier) out[tier].push(entity);
  }
  const order = (a: EntityRecord, b: EntityRecord) => b.turnLastRef - a.turnLastRef || compareRefs(a.ref, b.ref);
  out.active.sort(order);
  out.generated.sort(order);
  out.retained.sort(order);
  return out;
}

/**
 * Refs Think must not plan to read again: active entities whose data is already in context
 * (everything active except deleted ones; generated entities are not in storage to be read).
 * Sorted bytewise.
 */
export function doNotReReadRefs(context: EntityContext): string[] {
  expectObject(context, 'context');
  expectArray(context.active, 'context.active');
  context.active.forEach((e: unknown, i) => {
    expectObject(e, `context.active[${i}]`);
    expectString(e.ref, `context.active[${i}].ref`);
  });
  return context.active
    .filter((e) => e.status !== 'deleted')
    .map((e) => e.ref)
    .sort(compareRefs);
}
