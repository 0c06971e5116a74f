import { described, expectArray, expectObject, expectOptions } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { expectNumberKind } from './checks.ts';

/** Handoff fields a phase can ask for (spec 003 `handoff_fields`, in camelCase). */
export type HandoffField = 'goal' | 'epicId' | 'verdicts' | 'artifactsProduced' | 'decisionsMade' | 'openRisks' | 'narrative';

/** Every handoff field, in the order the context lists them. */
export const HANDOFF_FIELDS: readonly HandoffField[] = ['goal', 'epicId', 'verdicts', 'artifactsProduced', 'decisionsMade', 'openRisks', 'narrative'];

// The spec's JSON keys are accepted too, so manifests written for it load unchanged.
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

/** A manifest override: any subset of the fields; `handoffFields` may use the spec's JSON keys. */
export type ManifestOverride = Partial<Omit<PhaseManifest, 'phase' | 'handoffFields'>> & {
  readonly handoffFields?: readonly (HandoffField | string)[] | null;
};

function nonNegativeInt(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw invalidParams(field, `expected a non-negative integer, got ${described(v)}.`);
  return v;
}

function normaliseFields(fields: readonly string[] | null | undefined, at: string): HandoffField[] {
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
 * The manifest for a phase: the default manifest (or, for phases without one, the permissive
 * manifest: all fields, unlimited tokens), with `overrides[phase]` applied field by field.
 */
export function resolveManifest(phase: number, overrides: Readonly<Record<number, ManifestOverride>> = {}): PhaseManifest {
  nonNegativeInt('phase', phase);
  expectOptions(overrides, 'overrides');
  const base: PhaseManifest = DEFAULT_MANIFESTS[phase] ?? { phase, handoffFields: [], narrativeCap: 0, maxTokens: 0 };
  const o = overrides[phase];
  if (o === undefined) return base;
  const at = `overrides[${phase}]`;
  expectObject(o, at);
  return {
    phase,
    handoffFields: o.handoffFields !== undefined ? normaliseFields(o.handoffFields, `${at}.handoffFields`) : base.handoffFields,
    narrativeCap: o.narrativeCap !== undefined ? nonNegativeInt(`${at}.narrativeCap`, o.narrativeCap) : base.narrativeCap,
    maxTokens: o.maxTokens !== undefined ? nonNegativeInt(`${at}.maxTokens`, o.maxTokens) : base.maxTokens,
  };
}
