import { expectArray, expectNumber, expectObject, expectOptionalNumber, expectOptions, expectString } from '../args.ts';
import { applyContextBudget, type ApplyContextBudgetOptions } from './budget.ts';
import { expectOptionalText } from './checks.ts';
import { HANDOFF_FIELDS, narrativeCap, normaliseHandoffFields, type HandoffField, type PhaseManifest } from './manifest.ts';
import { requireInt } from './truncate.ts';

/** What a phase hands to the next ones (spec 003 `phaseHandoff`, camelCase). */
export interface PhaseHandoff {
  readonly phase: number;
  readonly goal?: string;
  readonly epicId?: string;
  readonly verdicts?: Readonly<Record<string, string>>;
  readonly artifactsProduced?: readonly string[];
  readonly decisionsMade?: readonly string[];
  readonly openRisks?: readonly string[];
  readonly narrative?: string;
}

/** Options of {@link buildHandoffContext}: the budget step's counter and log. */
export type BuildHandoffOptions = Omit<ApplyContextBudgetOptions, 'phase'>;

/** First `cap` code points of `text`, ending in `...` (inside the cap) when cut. */
function capChars(text: string, cap: number): string {
  const cps = Array.from(text);
  if (cps.length <= cap) return text;
  return cap > 3 ? cps.slice(0, cap - 3).join('') + '...' : cps.slice(0, cap).join('');
}

const oneLine = (s: string): string => s.replace(/\s*\n\s*/g, ' ').trim();

/** The non-empty items of all lists, each once, in first-seen order (a Set: linear, where includes() per item was quadratic). */
function unique(lists: (readonly string[] | undefined)[]): string[] {
  const seen = new Set<string>();
  for (const list of lists) for (const item of list ?? []) if (item !== '') seen.add(item);
  return [...seen];
}

const LIST_FIELDS = ['artifactsProduced', 'decisionsMade', 'openRisks'] as const;

/** Checks the kind of every field of a handoff the context reads; absent (or `null`) fields are skipped. */
function expectHandoff(h: unknown, index: number): void {
  const at = `handoffs[${index}]`;
  expectObject(h, at);
  expectNumber(h.phase, `${at}.phase`);
  expectOptionalText(h.goal, `${at}.goal`);
  expectOptionalText(h.epicId, `${at}.epicId`);
  expectOptionalText(h.narrative, `${at}.narrative`);
  const verdicts = h.verdicts;
  if (verdicts !== undefined && verdicts !== null) {
    expectObject(verdicts, `${at}.verdicts`);
    for (const key of Object.keys(verdicts)) expectOptionalText(verdicts[key], `${at}.verdicts.${key}`);
  }
  for (const field of LIST_FIELDS) {
    const list = h[field];
    if (list === undefined || list === null) continue;
    expectArray(list, `${at}.${field}`);
    list.forEach((item, i) => expectString(item, `${at}.${field}[${i}]`));
  }
}

/**
 * Builds the prior-phase context for a phase (spec 003 section 3): select the manifest's fields
 * (narrative per the NarrativeCap table), assemble them into text, then fit the text into
 * `manifest.maxTokens` with {@link applyContextBudget} (logged when `options.log` is given).
 * Handoffs are read in phase order; the goal and epic come from the latest handoff that has one,
 * verdicts accumulate (later phases win), lists are merged without duplicates.
 * `manifest.handoffFields` may use the spec's names (`epic_id`); a name that is no handoff field
 * is INVALID_PARAMS naming `manifest.handoffFields` and listing the valid ones.
 */
export function buildHandoffContext(handoffs: readonly PhaseHandoff[], manifest: PhaseManifest, options: BuildHandoffOptions = {}): string {
  expectArray(handoffs, 'handoffs');
  handoffs.forEach(expectHandoff);
  const cap = narrativeCap(manifest); // checks the manifest is one, as to the fields it reads
  // A name that is no field (`goalz`) would select nothing and yield '' without a word.
  const fields = normaliseHandoffFields(manifest.handoffFields, 'manifest.handoffFields');
  requireInt('manifest.maxTokens', manifest.maxTokens);
  expectOptionalNumber(manifest.phase, 'manifest.phase');
  expectOptions(options);
  if (handoffs.length === 0) return '';
  const ordered = [...handoffs].sort((a, b) => a.phase - b.phase);
  // Select.
  const wanted = new Set<HandoffField>(fields.length > 0 ? fields : HANDOFF_FIELDS);
  const latest = (f: 'goal' | 'epicId'): string | undefined => ordered.map((h) => h[f]).filter((v): v is string => !!v).at(-1);
  // A null-prototype record, filled key by key: a gate named `__proto__` (as JSON.parse makes it)
  // stays a verdict, where Object.assign into `{}` would set the prototype and drop it.
  const verdicts: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const h of ordered) {
    const v = h.verdicts ?? {};
    for (const k of Object.keys(v)) verdicts[k] = v[k] as string;
  }

  // Assemble.
  const lines: string[] = ['## Context from prior phases'];
  const goal = latest('goal');
  if (wanted.has('goal') && goal) lines.push(`Goal: ${oneLine(goal)}`);
  const epic = latest('epicId');
  if (wanted.has('epicId') && epic) lines.push(`Epic: ${oneLine(epic)}`);
  const keys = Object.keys(verdicts).sort();
  // Pushed one by one: spreading a long list into push() overflows the stack (~100k items).
  if (wanted.has('verdicts') && keys.length > 0) {
    lines.push('Verdicts:');
    for (const k of keys) lines.push(`- ${k}: ${oneLine(verdicts[k] ?? '')}`);
  }
  const list = (field: 'artifactsProduced' | 'decisionsMade' | 'openRisks', title: string): void => {
    if (!wanted.has(field)) return;
    const items = unique(ordered.map((h) => h[field]));
    if (items.length === 0) return;
    lines.push(`${title}:`);
    for (const i of items) lines.push(`- ${oneLine(i)}`);
  };
  list('artifactsProduced', 'Artifacts produced');
  list('decisionsMade', 'Decisions made');
  list('openRisks', 'Open risks');
  if (cap > 0) {
    for (const h of ordered) {
      if (h.narrative) lines.push(`Narrative (phase ${h.phase}):`, capChars(h.narrative.trim(), cap));
    }
  }
  if (lines.length === 1) return '';
  const assembled = lines.join('\n') + '\n';

  // Truncate.
  return applyContextBudget(assembled, manifest.maxTokens, { ...options, phase: manifest.phase }).context;
}
