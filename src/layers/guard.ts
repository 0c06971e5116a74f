/**
 * Run-time checks of the arguments of the layered-context functions, for callers in plain
 * JavaScript or with data parsed from JSON.
 *
 * At entry a function checks the parts of `state` it reads ({@link expectState}): their kind, and
 * the invariants a hand-built or corrupted state breaks without failing, which would otherwise give
 * silently wrong results: the version, every setting within its range, the turn number, a turn
 * open in both the conversation and the trace or in neither, and for the registry each entity's
 * fields (status, turn numbers, retention) and unique refs. These are the rules of
 * `layeredContextFromJSON` that cost O(1), or O(1) per entity, never a walk of entity data or of
 * history: valid states pay a small constant per entity, which every function that reads the
 * registry already pays to scan or copy it. If a deeper part (a turn, a step, entity data) turns out
 * to be malformed while the function runs, the failure is explained ({@link readingState}) with the
 * same schema `layeredContextFromJSON` validates with: `INVALID_PARAMS` naming the first bad field
 * (`state.entities[2]`), or `UNSUPPORTED_VALUE` for a cycle, never a TypeError from inside.
 * Messages name fields and kinds, never values (numbers excepted: they are counts and limits).
 */
import { described, expectArray, expectNullableObject, expectObject, expectString, notOneOf, wrongKind } from '../args.ts';
import { CtxgateError, invalidParams, isCtxgateError, isDataCloneError } from '../errors.ts';
import { ENTITY_STATUSES } from './model.ts';
import type { LayeredContextState } from './model.ts';
import { SETTINGS_LIMITS, cycleError, findCycle, layeredContextStateSchema, parseOrThrow } from './schema.ts';

/** A part of the state a function reads; {@link expectState} checks each one named. */
export type StatePart = 'settings' | 'turn' | 'entities' | 'curationLog' | 'conversation' | 'reasoning';

/** The settings, by the table of their ranges (one list: a new setting gets its range or fails to compile). */
const SETTINGS_KEYS = Object.keys(SETTINGS_LIMITS) as (keyof typeof SETTINGS_LIMITS)[];

/** What to do about a state that breaks an invariant: it was not made by these functions. */
const REBUILD = 'build states with createLayeredContext and the turn functions, or restore one with layeredContextFromJSON';

/** A turn number as the schema has it: a whole number, 0 or more (safe, so `+ 1` stays exact). */
function expectTurnNumber(value: unknown, field: string): asserts value is number {
  // Any other number is quoted (NaN, 1.5, -1): a count, never user content.
  if (typeof value !== 'number') throw wrongKind(field, 'a whole number', value);
  if (!Number.isSafeInteger(value) || value < 0) throw invalidParams(field, `must be a whole number, 0 or more (got ${described(value)}); ${REBUILD}.`);
}

const PART_CHECKS: Record<StatePart, (state: Record<string, unknown>) => void> = {
  settings(state) {
    const settings = state.settings;
    expectObject(settings, 'state.settings');
    for (const key of SETTINGS_KEYS) {
      const value = settings[key];
      const field = `state.settings.${key}`;
      if (typeof value !== 'number') throw wrongKind(field, 'a whole number', value);
      // Out of range, a setting misleads silently: recentTurns -1 folds the turn just ended,
      // activeWindow 0 hides every entity, curationLogLimit -1 empties the log.
      const { min, max } = SETTINGS_LIMITS[key];
      if (!Number.isInteger(value) || value < min || value > max) {
        throw invalidParams(field, `must be a whole number from ${min} to ${max} (got ${described(value)}); ${REBUILD}.`);
      }
    }
  },
  turn(state) {
    expectTurnNumber(state.turn, 'state.turn');
  },
  entities(state) {
    expectArray(state.entities, 'state.entities');
    expectTurnNumber(state.turn, 'state.turn');
    expectEntities(state.entities, state.turn);
  },
  curationLog(state) {
    expectArray(state.curationLog, 'state.curationLog');
  },
  conversation(state) {
    const c = state.conversation;
    expectObject(c, 'state.conversation');
    expectArray(c.recentTurns, 'state.conversation.recentTurns');
    expectString(c.historySummary, 'state.conversation.historySummary');
    expectString(c.engagementSummary, 'state.conversation.engagementSummary');
    expectNullableObject(c.pending, 'state.conversation.pending');
    expectNullableObject(c.current, 'state.conversation.current');
  },
  reasoning(state) {
    const r = state.reasoning;
    expectObject(r, 'state.reasoning');
    expectArray(r.turnSummaries, 'state.reasoning.turnSummaries');
    expectString(r.reasoningSummary, 'state.reasoning.reasoningSummary');
    expectNullableObject(r.current, 'state.reasoning.current');
  },
};

/**
 * The registry's per-entity rules of the schema, one pass over scalar fields (never `data`): a
 * status outside the enum, a NaN turn (which hides the entity from every tier), a reference after
 * the current turn or before creation, a ref registered twice (rendered twice).
 */
function expectEntities(entities: unknown[], turn: number): void {
  const seen = new Map<unknown, number>();
  entities.forEach((e: unknown, i) => {
    const at = `state.entities[${i}]`;
    expectObject(e, at);
    for (const key of ['ref', 'type'] as const) {
      expectString(e[key], `${at}.${key}`);
      if (e[key] === '') throw invalidParams(`${at}.${key}`, `must not be empty; ${REBUILD}.`);
    }
    expectString(e.label, `${at}.label`);
    if (!(ENTITY_STATUSES as readonly unknown[]).includes(e.status)) throw notOneOf(`${at}.status`, ENTITY_STATUSES, e.status);
    expectTurnNumber(e.turnCreated, `${at}.turnCreated`);
    expectTurnNumber(e.turnLastRef, `${at}.turnLastRef`);
    if (e.demotedTurn !== null) expectTurnNumber(e.demotedTurn, `${at}.demotedTurn`);
    if (e.retentionReason !== null && typeof e.retentionReason !== 'string') throw wrongKind(`${at}.retentionReason`, 'a string or null', e.retentionReason);
    if (e.turnLastRef < e.turnCreated) throw invalidParams(`${at}.turnLastRef`, `must not be before turnCreated; ${REBUILD}.`);
    if (e.turnLastRef > turn) throw invalidParams(`${at}.turnLastRef`, `must not be after the current turn (state.turn); ${REBUILD}.`);
    const first = seen.get(e.ref);
    if (first !== undefined) {
      throw invalidParams(`${at}.ref`, `repeats the ref of state.entities[${first}]; a ref is registered once, and registering it again updates that entity.`);
    }
    seen.set(e.ref, i);
  });
}

/**
 * A turn is open in the conversation exactly when it is open in the trace, and then it is turn
 * `state.turn`: otherwise beginTurn would start a turn over an open trace (dropping it) and the
 * recording functions would write into a turn endTurn cannot close.
 */
function expectOpenTurnAgrees(state: Record<string, unknown>): void {
  expectTurnNumber(state.turn, 'state.turn');
  const conversation = (state.conversation as { current: { turnNum?: unknown } | null }).current;
  const trace = (state.reasoning as { current: { turnNum?: unknown } | null }).current;
  if ((conversation === null) !== (trace === null)) {
    throw invalidParams('state.reasoning.current', `must be set exactly when state.conversation.current is set (a turn is open in both or in neither); ${REBUILD}.`);
  }
  if (conversation !== null && conversation.turnNum !== state.turn) {
    throw invalidParams('state.conversation.current.turnNum', `must equal state.turn; ${REBUILD}.`);
  }
  if (trace !== null && trace.turnNum !== state.turn) {
    throw invalidParams('state.reasoning.current.turnNum', `must equal state.turn; ${REBUILD}.`);
  }
}

/**
 * Throws `INVALID_PARAMS` naming the field unless `state` is an object of version 1 whose `parts`
 * hold what a `LayeredContextState` gives them: the kinds (arrays, strings, objects or `null`),
 * the settings within their ranges, a whole non-negative turn, valid entity fields with unique
 * refs, and (when both the conversation and the reasoning are read) an open turn that agrees
 * between them. O(1) per part, plus O(1) per entity for `entities`; the items of the other arrays
 * are left to {@link readingState}.
 */
export function expectState(state: unknown, parts: readonly StatePart[]): asserts state is LayeredContextState {
  expectObject(state, 'state');
  for (const part of parts) PART_CHECKS[part](state);
  // After the parts, so a value that is no state at all (`{}`) is named by the part it lacks.
  if (state.version !== 1) {
    throw invalidParams('state.version', `must be 1, the layered-context version this ctxgate reads (got ${described(state.version)}); ${REBUILD}.`);
  }
  if (parts.includes('conversation') && parts.includes('reasoning')) expectOpenTurnAgrees(state);
}

/**
 * What is wrong with a state, by the schema of `layeredContextFromJSON` (`INVALID_PARAMS` naming
 * the first bad field under `state`) or because it contains a cycle (`UNSUPPORTED_VALUE`); or
 * `undefined` when it is a valid state. Walks the whole state: for failures, not for every call.
 */
export function diagnoseState(state: unknown): CtxgateError | undefined {
  try {
    parseOrThrow(layeredContextStateSchema, state, 'state');
    const cycle = findCycle(state, 'state');
    return cycle === null ? undefined : cycleError('state', cycle);
  } catch (found) {
    // Anything else (data nested too deeply for the schema, say) leaves the state unexplained.
    return isCtxgateError(found) ? found : undefined;
  }
}

/**
 * The error to throw for a failure while reading `state`: ctxgate errors unchanged; otherwise,
 * when the state breaks the schema of `layeredContextFromJSON`, `INVALID_PARAMS` naming the first
 * bad field; when it contains a cycle or something structuredClone cannot copy,
 * `UNSUPPORTED_VALUE`. A failure the state does not explain is returned unchanged.
 */
function explainStateFailure(error: unknown, state: unknown): unknown {
  if (isCtxgateError(error)) return error;
  return diagnoseState(state) ?? cloneFailure(error);
}

/**
 * A DataCloneError (structuredClone refusing part of a state) as `UNSUPPORTED_VALUE` on `state`;
 * any other error unchanged. Not the clone's own message: it quotes the value it could not copy.
 */
export function cloneFailure(error: unknown): unknown {
  if (!isDataCloneError(error)) return error;
  return new CtxgateError('UNSUPPORTED_VALUE', 'state: holds a value structuredClone cannot copy; a layered context must be plain JSON data.', {
    details: { field: 'state' },
  });
}

/**
 * Runs `read` over a state that passed {@link expectState}. A failure caused by a malformed part
 * deeper in the state is rethrown as explained by {@link explainStateFailure}.
 */
export function readingState<T>(state: unknown, read: () => T): T {
  try {
    return read();
  } catch (error) {
    throw explainStateFailure(error, state);
  }
}

/**
 * A copy of `state` (which passed {@link expectState}) changed by `update`: the functions that
 * return a new state. Failures are explained as in {@link readingState}; `state` is never changed.
 */
export function updatedState(state: LayeredContextState, update: (next: LayeredContextState) => void): LayeredContextState {
  return readingState(state, () => {
    const next = structuredClone(state);
    update(next);
    return next;
  });
}
