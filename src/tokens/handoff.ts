import { expectArray, expectNumber, expectObject, expectOptionalNumber, expectOptions, expectString } from '../args.ts';
import { applyContextBudget, type ApplyContextBudgetOptions } from './budget.ts';
import { expectOptionalText } from './checks.ts';
import { HANDOFF_FIELDS, narrativeCap, type HandoffField, type PhaseManifest } from './manifest.ts';
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

function unique(lists: (readonly string[] | undefined)[]): string[] {
  const out: string[] = [];
  for (const list of lists) for (const item of list ?? []) if (item !== '' && !out.includes(item)) out.push(item);
  return out;
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
 */
export function buildHandoffContext(handoffs: readonly PhaseHandoff[], manifest: PhaseManifest, options: BuildHandoffOptions = {}): string {
  expectArray(handoffs, 'handoffs');
  handoffs.forEach(expectHandoff);
  const cap = narrativeCap(manifest); // checks the manifest is one, as to the fields it reads
  requireInt('manifest.maxTokens', manifest.maxTokens);
  expectOptionalNumber(manifest.phase, 'manifest.phase');
  expectOptions(options);
  if (handoffs.length === 0) return '';
  const ordered = [...handoffs].sort((a, b) => a.phase - b.phase);
  // Select.
  const wanted = new Set<HandoffField>(manifest.handoffFields.length > 0 ? manifest.handoffFields : HANDOFF_FIELDS);
  const latest = (f: 'goal' | 'epicId'): string | undefined => ordered.map((h) => h[f]).filter((v): v is string => !!v).at(-1);
  const verdicts: Record<string, string> = {};
  for (const h of ordered) Object.assign(verdicts, h.verdicts ?? {});

  // Assemble.
  const lines: string[] = ['## Context from prior phases'];
  const goal = latest('goal');
  if (wanted.has('goal') && goal) lines.push(`Goal: ${oneLine(goal)}`);
  const epic = latest('epicId');
  if (wanted.has('epicId') && epic) lines.push(`Epic: ${oneLine(epic)}`);
  const keys = Object.keys(verdicts).sort();
  if (wanted.has('verdicts') && keys.length > 0) {
    lines.push('Verdicts:', ...keys.map((k) => `- ${k}: ${oneLine(verdicts[k] ?? '')}`));
  }
  const list = (field: 'artifactsProduced' | 'decisionsMade' | 'openRisks', title: string): void => {
    const items = unique(ordered.map((h) => h[field]));
    if (wanted.has(field) && items.length > 0) lines.push(`${title}:`, ...items.map((i) => `- ${oneLine(i)}`));
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
