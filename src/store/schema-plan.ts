import type { z } from 'zod';
import { FORBIDDEN_KEYS } from './json-safety.ts';

/**
 * A zod schema compiled into a plan a plain walk can check a value against (namespace-pass.ts)
 * without zod's per-node machinery (a payload object per value, issue arrays, a parsed copy of
 * every object). The zod schemas in model.ts stay the only definition of the model: the plan is
 * read off their definitions at first use, so a schema change changes the plan with it.
 *
 * A plan may only ever be stricter than its schema, never looser: the walk's "no" sends the value
 * to zod itself, which then decides and words the error, so only a plan that accepts what zod
 * refuses could change behaviour. Hence anything this compiler does not recognise with certainty
 * (another schema type, a check it does not know, a transform) becomes a ZOD plan, which asks zod
 * about that sub-value; and checks it does not inline are run through zod's own check functions.
 * A property test compares the verdicts of plans and schemas on valid and invalid data.
 */

/** What a plan node checks; see {@link Plan.kind}. */
export const PLAN_STRING = 0;
export const PLAN_NUMBER = 1;
export const PLAN_BOOLEAN = 2;
/** Any JSON value (`z.unknown()`): only the JSON-safety rules apply. */
export const PLAN_JSON = 3;
export const PLAN_ARRAY = 4;
/** A strict object (`z.strictObject`): known members only, required ones present. */
export const PLAN_OBJECT = 5;
/** A map from any name to values of one plan (`z.record(z.string(), …)`). */
export const PLAN_RECORD = 6;
/** Checked by calling the zod schema on the value (plus the JSON-safety rules). */
export const PLAN_ZOD = 7;

/** A zod check as the walk runs it: `check` pushes an issue onto the payload if the value fails. */
interface ZodCheckInternals {
  _zod: { def: { check?: string; when?: (payload: ZodPayload) => boolean } & Record<string, unknown>; check: (payload: ZodPayload) => unknown };
}

interface ZodPayload {
  value: unknown;
  issues: unknown[];
}

/** The parts of a zod schema's internals the compiler reads. */
interface ZodInternals {
  _zod: {
    def: Record<string, unknown> & { type: string; checks?: ZodCheckInternals[] };
    traits: Set<string>;
    optin?: string;
    optout?: string;
  };
}

/**
 * One node of a compiled schema. Every plan has every field (unused ones neutral), so the walk
 * reads them from one object shape.
 */
export interface Plan {
  /** One of the PLAN_* constants. */
  readonly kind: number;
  /** STRING: fewest code points (zod's `min`); 0 for none. */
  readonly minLength: number;
  /** STRING: patterns the whole string must match. */
  readonly patterns: readonly RegExp[];
  /** NUMBER: bounds (±Infinity for none) and whether they are inclusive; whether it must be a safe integer. */
  readonly min: number;
  readonly minInclusive: boolean;
  readonly max: number;
  readonly maxInclusive: boolean;
  readonly safeInteger: boolean;
  /** ARRAY and RECORD: the plan of every item or value. */
  readonly element: Plan | undefined;
  /** OBJECT: member names in RFC 8785 order. */
  readonly sortedKeys: readonly string[];
  /**
   * OBJECT: an object with every member name, in RFC 8785 order, each set to undefined. A copy in
   * canonical order starts as a clone of it (one step for the engine), so a member left undefined
   * is one JSON leaves out.
   */
  readonly template: Readonly<Record<string, undefined>>;
  /** OBJECT: which of a few places in the walk clones `template` (see namespace-pass.ts). */
  readonly cloneSite: number;
  /** OBJECT: index in `sortedKeys` by member name (forbidden names are left out, so they are unknown). */
  readonly slots: ReadonlyMap<string, number>;
  /** OBJECT: plan and whether required, by slot. */
  readonly fields: readonly Plan[];
  readonly required: readonly boolean[];
  readonly requiredCount: number;
  /** Checks run through zod's own check functions, in zod's order, after the checks above. */
  readonly zodChecks: readonly ZodCheckInternals[];
  /** ZOD: the schema to ask. */
  readonly schema: z.ZodType | undefined;
  /** STRING with no check at all: any string passes (the walk settles these inline). */
  readonly anyString: boolean;
  /**
   * OBJECT: the member names in the order the last object checked against this plan listed them,
   * and their slots. Objects of one kind usually list their members alike, so a name is found by
   * comparing it with the name seen at the same position last time before asking `slots`.
   */
  readonly seenNames: string[];
  readonly seenSlots: number[];
}

/** Member names JSON.stringify would not write in insertion order: canonical array indices. */
export const INDEX_LIKE = /^(?:0|[1-9][0-9]*)$/;

function plan(kind: number, fields: Partial<Plan> = {}): Plan {
  return {
    kind,
    minLength: 0,
    patterns: [],
    min: -Infinity,
    minInclusive: true,
    max: Infinity,
    maxInclusive: true,
    safeInteger: false,
    element: undefined,
    sortedKeys: [],
    template: {},
    cloneSite: 0,
    slots: new Map(),
    fields: [],
    required: [],
    requiredCount: 0,
    zodChecks: [],
    schema: undefined,
    anyString: false,
    seenNames: [],
    seenSlots: [],
    ...fields,
  };
}

const compiled = new WeakMap<object, Plan>();
/** Object plans compiled so far (spreads them over clone sites). */
let objectPlans = 0;

/** The plan of `schema`, compiled once per schema object. */
export function planOf(schema: z.ZodType): Plan {
  let known = compiled.get(schema);
  if (known === undefined) compiled.set(schema, (known = compile(schema)));
  return known;
}

function internals(schema: unknown): ZodInternals['_zod'] | undefined {
  const zod = (schema as Partial<ZodInternals> | null)?._zod;
  return zod !== undefined && zod.traits instanceof Set && typeof zod.def?.type === 'string' ? zod : undefined;
}

function compile(schema: z.ZodType): Plan {
  const zod = internals(schema);
  const asZod = plan(PLAN_ZOD, { schema });
  if (zod === undefined || zod.def.coerce === true) return asZod;
  const def = zod.def;
  // A schema that is itself a check (zod's string formats, such as iso.datetime) runs as its own first check.
  const checks: ZodCheckInternals[] = [...(zod.traits.has('$ZodCheck') ? [schema as unknown as ZodCheckInternals] : []), ...(def.checks ?? [])];
  switch (def.type) {
    case 'string':
      return compileString(checks) ?? asZod;
    case 'number':
      return compileNumber(checks) ?? asZod;
    case 'boolean':
      return checks.length === 0 ? plan(PLAN_BOOLEAN) : asZod;
    case 'unknown':
    case 'any':
      return checks.length === 0 ? plan(PLAN_JSON) : asZod;
    case 'optional':
      // Only reached for an optional that is not an object member (members are unwrapped below):
      // there `undefined` is never JSON data, so the inner schema decides every value that can pass.
      return zod.traits.has('$ZodOptional') && checks.length === 0 && internals(def.innerType)?.optin === undefined
        ? planOf(def.innerType as z.ZodType)
        : asZod;
    case 'array':
      return plan(PLAN_ARRAY, { element: planOf(def.element as z.ZodType), zodChecks: checks });
    case 'record': {
      const key = internals(def.keyType);
      const plainStringKeys = key !== undefined && key.def.type === 'string' && key.def.coerce !== true && !key.traits.has('$ZodCheck') && (key.def.checks ?? []).length === 0;
      if (!plainStringKeys || def.mode !== undefined) return asZod;
      return plan(PLAN_RECORD, { element: planOf(def.valueType as z.ZodType), zodChecks: checks });
    }
    case 'object':
      return compileObject(def, checks) ?? asZod;
    default:
      return asZod;
  }
}

function compileString(checks: readonly ZodCheckInternals[]): Plan | undefined {
  let minLength = 0;
  const patterns: RegExp[] = [];
  const zodChecks: ZodCheckInternals[] = [];
  for (const check of checks) {
    const def = check._zod.def;
    const traits = (check as unknown as ZodInternals)._zod.traits;
    if (def.check === 'min_length' && traits?.has('$ZodCheckMinLength') && typeof def.minimum === 'number') {
      minLength = Math.max(minLength, def.minimum);
    } else if (def.pattern instanceof RegExp && !def.pattern.global && !def.pattern.sticky && (traits?.has('$ZodCheckRegex') || traits?.has('$ZodISODateTime'))) {
      // Regex checks and ISO datetimes test their pattern and nothing else.
      patterns.push(def.pattern);
    } else zodChecks.push(check);
  }
  return plan(PLAN_STRING, { minLength, patterns, zodChecks, anyString: minLength === 0 && patterns.length === 0 && zodChecks.length === 0 });
}

function compileNumber(checks: readonly ZodCheckInternals[]): Plan | undefined {
  let min = -Infinity;
  let minInclusive = true;
  let max = Infinity;
  let maxInclusive = true;
  let safeInteger = false;
  const zodChecks: ZodCheckInternals[] = [];
  for (const check of checks) {
    const def = check._zod.def;
    const traits = (check as unknown as ZodInternals)._zod.traits;
    if (def.check === 'greater_than' && traits?.has('$ZodCheckGreaterThan') && typeof def.value === 'number' && min === -Infinity) {
      min = def.value;
      minInclusive = def.inclusive === true;
    } else if (def.check === 'less_than' && traits?.has('$ZodCheckLessThan') && typeof def.value === 'number' && max === Infinity) {
      max = def.value;
      maxInclusive = def.inclusive === true;
    } else if (def.check === 'number_format' && def.format === 'safeint' && traits?.has('$ZodCheckNumberFormat')) {
      safeInteger = true;
    } else zodChecks.push(check);
  }
  return plan(PLAN_NUMBER, { min, minInclusive, max, maxInclusive, safeInteger, zodChecks });
}

function compileObject(def: ZodInternals['_zod']['def'], checks: readonly ZodCheckInternals[]): Plan | undefined {
  // Strict objects only: any other catchall (or none, which strips unknown members) is left to zod.
  if (internals(def.catchall)?.def.type !== 'never') return undefined;
  const shape = def.shape as Record<string, unknown>;
  if (Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const names = Object.keys(shape).filter((name) => !FORBIDDEN_KEYS.has(name));
  // JSON.stringify writes array-index names first whatever their insertion order.
  if (names.some((name) => INDEX_LIKE.test(name))) return undefined;
  const sortedKeys = [...names].sort();
  const fields: Plan[] = [];
  const required: boolean[] = [];
  for (const name of sortedKeys) {
    const member = internals(shape[name]);
    if (member === undefined) return undefined;
    if (member.optin === undefined) {
      fields.push(planOf(shape[name] as z.ZodType));
      required.push(true);
    } else if (member.def.type === 'optional' && member.traits.has('$ZodOptional') && member.optin === 'optional' && (member.def.checks ?? []).length === 0) {
      // `.optional()`: the member may be absent; when present, the inner schema decides.
      fields.push(planOf(member.def.innerType as z.ZodType));
      required.push(false);
    } else return undefined;
  }
  const template: Record<string, undefined> = {};
  for (const name of sortedKeys) template[name] = undefined;
  return plan(PLAN_OBJECT, {
    sortedKeys,
    template,
    cloneSite: objectPlans++ % 8,
    slots: new Map(sortedKeys.map((name, i) => [name, i])),
    fields,
    required,
    requiredCount: required.filter(Boolean).length,
    zodChecks: [...checks],
  });
}

/**
 * True if `value` passes the checks zod would run on it that the plan does not inline. Each runs
 * as zod runs it (skipped where its `when` says so) on a payload of its own value; any issue fails.
 */
export function passesZodChecks(checks: readonly ZodCheckInternals[], value: unknown): boolean {
  const payload: ZodPayload = { value, issues: [] };
  for (const check of checks) {
    const when = check._zod.def.when;
    if (when !== undefined && !when(payload)) continue;
    const result = check._zod.check(payload);
    if (result instanceof Promise || payload.issues.length > 0) return false;
  }
  return true;
}
