/**
 * Run-time checks of the arguments of the layered-context functions, for callers in plain
 * JavaScript or with data parsed from JSON.
 *
 * At entry a function checks, in constant time, that `state` is an object and that the parts it
 * reads (`state.entities`, `state.conversation`, …) have the right kind ({@link expectState}).
 * What lies deeper (one entity, one turn) is not walked on every call: valid states pay nothing
 * for it. If a deeper part turns out to be malformed while the function runs, the failure is
 * explained ({@link readingState}) with the same schema `layeredContextFromJSON` validates with:
 * `INVALID_PARAMS` naming the first bad field (`state.entities[2]`), or `UNSUPPORTED_VALUE` for a
 * cycle, never a TypeError from inside. Messages name fields and kinds, never values.
 */
import { expectArray, expectNullableObject, expectNumber, expectObject, expectString } from '../args.ts';
import { CtxgateError, isCtxgateError, isDataCloneError } from '../errors.ts';
import type { LayeredContextState } from './model.ts';
import { cycleError, findCycle, layeredContextStateSchema, parseOrThrow } from './schema.ts';

/** A part of the state a function reads; {@link expectState} checks the kind of each one named. */
export type StatePart = 'settings' | 'turn' | 'entities' | 'curationLog' | 'conversation' | 'reasoning';

const SETTINGS_KEYS = ['recentTurns', 'recentTraces', 'activeWindow', 'summaryMaxChars', 'curationLogLimit'] as const;

const PART_CHECKS: Record<StatePart, (state: Record<string, unknown>) => void> = {
  settings(state) {
    const settings = state.settings;
    expectObject(settings, 'state.settings');
    for (const key of SETTINGS_KEYS) expectNumber(settings[key], `state.settings.${key}`);
  },
  turn(state) {
    expectNumber(state.turn, 'state.turn');
  },
  entities(state) {
    expectArray(state.entities, 'state.entities');
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
 * Throws `INVALID_PARAMS` unless `state` is an object whose `parts` have the kind a
 * `LayeredContextState` gives them (arrays, strings, objects or `null`). Constant time: the items
 * of the arrays are left to {@link readingState}.
 */
export function expectState(state: unknown, parts: readonly StatePart[]): asserts state is LayeredContextState {
  expectObject(state, 'state');
  for (const part of parts) PART_CHECKS[part](state);
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
