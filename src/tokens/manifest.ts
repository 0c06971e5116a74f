import { described, expectArray, expectObject, expectOptions } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { expectNumberKind } from './checks.ts';

/** Handoff fields a phase can ask for (spec 003 `handoff_fields`, in camelCase). */
export type HandoffField = 'goal' | 'epicId' | 'verdicts' | 'artifactsProduced' | 'decisionsMade' | 'openRisks' | 'narrative';

/** Every handoff field, in the order the context lists them. */
export const HANDOFF_FIELDS: readonly HandoffField[] = ['goal', 'epicId', 'verdicts', 'artifactsProduced', 'decisionsMade', 'openRisks', 'narrative'];

// The spec's JSON names of the fields are accepted too, so manifests written for it load unchanged.
const ALIASES: Record<string, HandoffField> = {
  epic_id: 'epicId',
  artifacts_produced: 'artifactsProduced',
  decisions_made: 'decisionsMade',
  open_risks: 'openRisks',
};

/** What context a phase needs and how much room it gets (spec 003 `phaseManifest`). */
export interface PhaseManifest {
  readonly phase: number;
  /** Fields to include; empty means "no manifest": include everything. */
  readonly handoffFields: readonly HandoffField[];
  /** Narrative cap in characters; its meaning depends on `handoffFields` (see {@link narrativeCap}). */
  readonly narrativeCap: number;
  /** Token budget of the assembled context; 0 means unlimited. */
  readonly maxTokens: number;
}

/** Narrative length used when there is no manifest (backward compatibility). */
export const DEFAULT_NARRATIVE_CAP = 1000;

/** The spec's default manifests, by phase. */
export const DEFAULT_MANIFESTS: Readonly<Record<number, PhaseManifest>> = Object.freeze({
  1: Object.freeze({ phase: 1, handoffFields: Object.freeze([]), narrativeCap: 0, maxTokens: 0 }),
  2: Object.freeze({
    phase: 2,
    handoffFields: Object.freeze(['goal', 'epicId', 'verdicts', 'decisionsMade', 'openRisks'] as const),
    narrativeCap: 500,
    maxTokens: 2500,
  }),
  3: Object.freeze({
    phase: 3,
    handoffFields: Object.freeze(['goal', 'epicId', 'verdicts', 'artifactsProduced'] as const),
    narrativeCap: 1000,
    maxTokens: 2500,
  }),
});

/**
 * The narrative cap a manifest means (spec 003 NarrativeCap Semantics, exactly):
 * fields given and cap 0 → omit (`0`); fields given and cap > 0 → cap; no fields and cap 0 → 1000;
 * no fields and cap > 0 → cap. A result of 0 means "omit the narrative".
 */
export function narrativeCap(manifest: Pick<PhaseManifest, 'handoffFields' | 'narrativeCap'>): number {
  expectObject(manifest, 'manifest');
  expectArray(manifest.handoffFields, 'manifest.handoffFields');
  expectNumberKind(manifest.narrativeCap, 'manifest.narrativeCap');
  const declared = manifest.handoffFields.length > 0;
  if (manifest.narrativeCap > 0) return manifest.narrativeCap;
  return declared ? 0 : DEFAULT_NARRATIVE_CAP;
}

/**
 * A manifest override: any subset of the fields, under their camelCase names or the spec's JSON
 * keys (`handoff_fields`, `narrative_cap`, `max_tokens`), so a manifest written as the spec's JSON
 * loads unchanged; `phase`, if given, must be the phase it overrides. `handoffFields` may use the
 * spec's field names (`epic_id`). Any other key is INVALID_PARAMS naming it.
 */
export type ManifestOverride = Partial<Omit<PhaseManifest, 'phase' | 'handoffFields'>> & {
  readonly handoffFields?: readonly (HandoffField | string)[] | null;
  readonly phase?: number;
  readonly handoff_fields?: readonly (HandoffField | string)[] | null;
  readonly narrative_cap?: number;
  readonly max_tokens?: number;
};

/** Each manifest part an override may set, by its camelCase name and the spec's JSON key. */
const OVERRIDE_KEYS = [
  ['handoffFields', 'handoff_fields'],
  ['narrativeCap', 'narrative_cap'],
  ['maxTokens', 'max_tokens'],
] as const;

/** Every key an override may have. */
const KNOWN_OVERRIDE_KEYS: readonly string[] = ['phase', ...OVERRIDE_KEYS.flat()];

function nonNegativeInt(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw invalidParams(field, `expected a non-negative integer, got ${described(v)}.`);
  return v;
}

/**
 * Handoff field names checked and made canonical: the spec's JSON keys (`epic_id`) become their
 * camelCase names, duplicates are dropped (first kept), and a name that is no field of a handoff is
 * INVALID_PARAMS naming `at` and listing the valid names, rather than a field the context silently
 * never shows. `null` or `undefined` is no fields.
 */
export function normaliseHandoffFields(fields: readonly string[] | null | undefined, at: string): HandoffField[] {
  if (fields == null) return [];
  if (!Array.isArray(fields)) throw invalidParams(at, 'expected an array of field names.');
  const out: HandoffField[] = [];
  for (const f of fields as readonly unknown[]) {
    if (typeof f !== 'string') {
      throw invalidParams(at, `expected handoff field names, got ${described(f)}; use ${HANDOFF_FIELDS.join(', ')}.`, { known: [...HANDOFF_FIELDS] });
    }
    const name = (Object.hasOwn(ALIASES, f) ? ALIASES[f] : f) as HandoffField;
    if (!HANDOFF_FIELDS.includes(name)) {
      throw invalidParams(at, `unknown handoff field ${JSON.stringify(f)}; use one of ${HANDOFF_FIELDS.join(', ')}.`, { known: [...HANDOFF_FIELDS] });
    }
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/**
 * The value of one manifest part in an override, under whichever name it was given; both names
 * at once is INVALID_PARAMS (which one would win is a guess).
 */
function pick(o: Record<string, unknown>, [camel, snake]: readonly [string, string], at: string): { at: string; value: unknown } {
  const hasCamel = o[camel] !== undefined;
  const hasSnake = o[snake] !== undefined;
  if (hasCamel && hasSnake) throw invalidParams(`${at}.${snake}`, `give either ${camel} or ${snake}, not both.`, { key: snake });
  return hasSnake ? { at: `${at}.${snake}`, value: o[snake] } : { at: `${at}.${camel}`, value: o[camel] };
}

/**
 * The manifest for a phase: the default manifest (or, for phases without one, the permissive
 * manifest: all fields, unlimited tokens), with `overrides[phase]` applied field by field. An
 * override may be written with the spec's JSON keys (`{ "phase": 2, "handoff_fields": [...],
 * "narrative_cap": 500, "max_tokens": 2500 }`); an unknown key (a typo such as `maxToken`), a
 * `phase` other than the one overridden, or one part given under both names is INVALID_PARAMS
 * naming it, since a silently ignored key would leave the default budget in force.
 */
export function resolveManifest(phase: number, overrides: Readonly<Record<number, ManifestOverride>> = {}): PhaseManifest {
  nonNegativeInt('phase', phase);
  expectOptions(overrides, 'overrides');
  const base: PhaseManifest = DEFAULT_MANIFESTS[phase] ?? { phase, handoffFields: [], narrativeCap: 0, maxTokens: 0 };
  const o: unknown = overrides[phase];
  if (o === undefined) return base;
  const at = `overrides[${phase}]`;
  expectObject(o, at);
  for (const key of Object.keys(o)) {
    if (!KNOWN_OVERRIDE_KEYS.includes(key)) {
      throw invalidParams(`${at}.${key}`, `unknown manifest key ${JSON.stringify(key)}; use ${KNOWN_OVERRIDE_KEYS.join(', ')}.`, {
        key,
        known: [...KNOWN_OVERRIDE_KEYS],
      });
    }
  }
  if (o.phase !== undefined && o.phase !== phase) {
    throw invalidParams(`${at}.phase`, `is ${described(o.phase)}, but the override is for phase ${phase}; file it under its own phase or drop the key.`);
  }
  const [fieldsKeys, capKeys, tokensKeys] = OVERRIDE_KEYS;
  const fields = pick(o, fieldsKeys, at);
  const cap = pick(o, capKeys, at);
  const tokens = pick(o, tokensKeys, at);
  return {
    phase,
    handoffFields: fields.value !== undefined ? normaliseHandoffFields(fields.value as readonly string[] | null, fields.at) : base.handoffFields,
    narrativeCap: cap.value !== undefined ? nonNegativeInt(cap.at, cap.value) : base.narrativeCap,
    maxTokens: tokens.value !== undefined ? nonNegativeInt(tokens.at, tokens.value) : base.maxTokens,
  };
}
