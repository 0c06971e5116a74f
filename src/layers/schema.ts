/**
 * Runtime validation of the layered-context state and of every input that changes it. A failure
 * is an `INVALID_PARAMS` error naming the first bad field (e.g. `entities[2].status`).
 */
import { z } from 'zod';
import { CtxgateError, invalidParams } from '../errors.ts';
import { findJsonFault } from '../json-fault.ts';
import { findNonJson } from '../json-data.ts';
import {
  CURATION_ACTIONS,
  DEFAULT_SETTINGS,
  ENTITY_STATUSES,
  PENDING_TYPES,
  STEP_TYPES,
} from './model.ts';
import type { JsonValue, LayeredContextSettings, LayeredContextState } from './model.ts';

const turnNumber = z.int().min(0);
const text = z.string();
const nonEmpty = z.string().min(1, 'must not be empty');
const jsonValue = z.json() as unknown as z.ZodType<JsonValue>;
const jsonObject = z.record(z.string(), jsonValue);

/** Schema of an entity status. */
export const entityStatusSchema = z.enum(ENTITY_STATUSES);

/** Schema of a stored entity. */
export const entityRecordSchema = z.strictObject({
  ref: nonEmpty,
  type: nonEmpty,
  label: text,
  status: entityStatusSchema,
  turnCreated: turnNumber,
  turnLastRef: turnNumber,
  retentionReason: text.nullable(),
  data: jsonValue.nullable(),
  demotedTurn: turnNumber.nullable(),
});

/** Schema of a pending state. */
export const pendingStateSchema = z.strictObject({
  type: z.enum(PENDING_TYPES),
  context: text,
  questions: z.array(text),
});

const conversationTurnSchema = z.strictObject({
  turnNum: turnNumber,
  user: text,
  assistantSummary: text,
  routing: jsonObject.nullable(),
  timestamp: text,
});

const currentTurnSchema = z.strictObject({ turnNum: turnNumber, user: text, timestamp: text });

/** Schema of a step summary. */
export const stepSummarySchema = z.strictObject({
  stepNum: z.int().min(1),
  type: z.enum(STEP_TYPES),
  subdomain: text,
  description: text,
  outcome: text,
  entitiesInvolved: z.array(nonEmpty),
  note: text.nullable(),
  result: jsonValue.nullable(),
});

const curationSummarySchema = z.strictObject({
  retained: z.array(nonEmpty),
  promoted: z.array(nonEmpty),
  demoted: z.array(nonEmpty),
  reasons: z.record(z.string(), text),
});

const turnExecutionSummarySchema = z.strictObject({
  turnNum: turnNumber,
  thinkDecision: text.nullable(),
  thinkGoal: text.nullable(),
  steps: z.array(stepSummarySchema),
  entityCuration: curationSummarySchema,
  conversationPhase: text.nullable(),
  userExpressed: text.nullable(),
  blockedReason: text.nullable(),
});

/**
 * The range of each setting, whole numbers within `[min, max]`: the one table both the schema
 * below and the entry checks of the working functions (guard.ts) read, so they cannot disagree.
 */
export const SETTINGS_LIMITS: Readonly<Record<keyof LayeredContextSettings, { readonly min: number; readonly max: number }>> = Object.freeze({
  recentTurns: { min: 1, max: 1000 },
  recentTraces: { min: 1, max: 1000 },
  activeWindow: { min: 1, max: 1000 },
  summaryMaxChars: { min: 80, max: 1_000_000 },
  curationLogLimit: { min: 0, max: 100_000 },
});

const setting = (key: keyof LayeredContextSettings) =>
  z.int().min(SETTINGS_LIMITS[key].min).max(SETTINGS_LIMITS[key].max).default(DEFAULT_SETTINGS[key]);

/** Schema of the settings; every field has its default. */
export const settingsSchema = z.strictObject({
  recentTurns: setting('recentTurns'),
  recentTraces: setting('recentTraces'),
  activeWindow: setting('activeWindow'),
  summaryMaxChars: setting('summaryMaxChars'),
  curationLogLimit: setting('curationLogLimit'),
});

/** Schema of the whole state, with the cross-field rules a hand-edited state could break. */
export const layeredContextStateSchema = z
  .strictObject({
    version: z.literal(1),
    settings: settingsSchema,
    turn: turnNumber,
    entities: z.array(entityRecordSchema),
    curationLog: z.array(
      z.strictObject({ turn: turnNumber, ref: nonEmpty, action: z.enum(CURATION_ACTIONS), reason: text }),
    ),
    conversation: z.strictObject({
      recentTurns: z.array(conversationTurnSchema),
      historySummary: text,
      engagementSummary: text,
      pending: pendingStateSchema.nullable(),
      current: currentTurnSchema.nullable(),
    }),
    reasoning: z.strictObject({
      turnSummaries: z.array(turnExecutionSummarySchema),
      reasoningSummary: text,
      current: turnExecutionSummarySchema.nullable(),
    }),
  })
  .superRefine((state, ctx) => {
    const seen = new Set<string>();
    state.entities.forEach((e, i) => {
      if (seen.has(e.ref)) ctx.addIssue({ code: 'custom', path: ['entities', i, 'ref'], message: `duplicate ref "${e.ref}"` });
      seen.add(e.ref);
      if (e.turnLastRef < e.turnCreated) {
        ctx.addIssue({ code: 'custom', path: ['entities', i, 'turnLastRef'], message: 'must not be before turnCreated' });
      }
      if (e.turnLastRef > state.turn) {
        ctx.addIssue({ code: 'custom', path: ['entities', i, 'turnLastRef'], message: 'must not be after the current turn' });
      }
    });
    const current = state.conversation.current;
    if (current !== null && current.turnNum !== state.turn) {
      ctx.addIssue({ code: 'custom', path: ['conversation', 'current', 'turnNum'], message: 'must equal turn' });
    }
    if ((current === null) !== (state.reasoning.current === null)) {
      ctx.addIssue({
        code: 'custom',
        path: ['reasoning', 'current'],
        message: 'must be set exactly when conversation.current is set',
      });
    }
    if (state.reasoning.current !== null && state.reasoning.current.turnNum !== state.turn) {
      ctx.addIssue({ code: 'custom', path: ['reasoning', 'current', 'turnNum'], message: 'must equal turn' });
    }
  });

/** Formats a zod issue path as a field name: `entities[2].status`. */
export function fieldName(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  let out = prefix;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(root)' : out;
}

/**
 * Parses `value` with `schema`, or throws `INVALID_PARAMS` naming the first bad field under
 * `prefix` (`UNSUPPORTED_VALUE` when it is nested too deeply to check). Values are never echoed
 * into the message (they may be user content).
 */
export function parseOrThrow<T>(schema: z.ZodType<T>, value: unknown, prefix: string): T {
  let result: ReturnType<typeof schema.safeParse>;
  try {
    result = schema.safeParse(value);
  } catch (error) {
    // The schema recurses per level of JSON data; about a thousand levels exhaust the stack.
    if (!(error instanceof RangeError)) throw error;
    const field = prefix || '(root)';
    throw new CtxgateError('UNSUPPORTED_VALUE', `${field}: is nested too deeply to check; keep JSON data within a few hundred levels.`, {
      details: { field },
    });
  }
  if (result.success) return result.data;
  throw toInvalidParams(result.error, prefix, value);
}

function toInvalidParams(error: z.ZodError, prefix: string, value: unknown): CtxgateError {
  const issue = error.issues[0];
  if (issue === undefined) return invalidParams(prefix || '(root)', 'is invalid.');
  let path: PropertyKey[] = [...issue.path];
  let message = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    path = [...path, key];
    message = 'is not a known field; remove it';
  }
  if (issue.code === 'invalid_union') {
    // The only unions here are JSON data (entity data, step results, routing), and zod reports a
    // value JSON cannot hold as "Invalid input" on the whole field: name where it is and what it is.
    const fault = findNonJson(valueAt(value, path), fieldName(prefix, path));
    if (fault !== null) return invalidParams(fault.path, `${fault.problem}.`, { issues: error.issues.length, what: fault.what });
  }
  return invalidParams(fieldName(prefix, path), `${message}.`, { issues: error.issues.length });
}

/** The part of `root` at `path`, or `undefined` when the path leaves the data. */
function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

/**
 * The path of the first cycle in `value` (an object that contains itself), e.g. `entity.data.self`,
 * or `null` when there is none. For data the schema already checked, so the only fault
 * {@link findJsonFault} can find there is a cycle.
 */
export function findCycle(value: unknown, field: string): string | null {
  const fault = findJsonFault(value, field);
  return fault?.what === 'a cycle' ? fault.path : null;
}

/** `UNSUPPORTED_VALUE` for a cycle found at `path` inside the argument `field`. */
export function cycleError(field: string, path: string): CtxgateError {
  return new CtxgateError(
    'UNSUPPORTED_VALUE',
    `${path}: refers back to an object that contains it (a cycle), which JSON cannot represent; pass plain data without the back-reference.`,
    { details: { field, path } },
  );
}

/** Throws `UNSUPPORTED_VALUE` if the JSON data passed as `field` contains a cycle. */
export function expectAcyclic(value: unknown, field: string): void {
  const path = findCycle(value, field);
  if (path !== null) throw cycleError(field, path);
}

/**
 * The state as plain JSON data (a validated deep copy), ready for `JSON.stringify` or a store.
 * Throws `INVALID_PARAMS` if the state was corrupted by hand (`UNSUPPORTED_VALUE` for a cycle).
 */
export function layeredContextToJSON(state: LayeredContextState): LayeredContextState {
  return acyclic(parseOrThrow(layeredContextStateSchema, state, '') as LayeredContextState);
}

/** The schema accepts cyclic data (and copies the cycle); JSON cannot hold it. */
function acyclic(state: LayeredContextState): LayeredContextState {
  const path = findCycle(state, '');
  if (path !== null) throw cycleError(path, path);
  return state;
}

/**
 * Rebuilds a state from {@link layeredContextToJSON} output, or from its JSON text. Throws
 * `INVALID_PARAMS` naming the first bad field (or `json` when the text does not parse).
 */
export function layeredContextFromJSON(input: unknown): LayeredContextState {
  let value = input;
  if (typeof input === 'string') {
    try {
      value = JSON.parse(input);
    } catch {
      throw invalidParams('json', 'is not valid JSON; pass the text layeredContextToJSON produced.');
    }
  }
  return acyclic(parseOrThrow(layeredContextStateSchema, value, '') as LayeredContextState);
}
