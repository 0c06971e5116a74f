import { invalidParams } from '../errors.ts';
import { scanSecretText } from '../core/scan.ts';
import { RULES } from './rules.generated.ts';
import { mapUtf16Offsets } from './offsets.ts';
import { insideDataUrl, isNonSecretAssignment, isNonSecretPassword, isPlaceholder } from './filters.ts';
import { compileUserRules, matchUserRules } from './user-rules.ts';
import type { Confidence, ScanOptions, SecretFinding } from './types.ts';

/** Rules whose value is judged as a `name = value` assignment by the host filters. */
const ASSIGNMENT_RULES = new Set(
  RULES.map((r, i) => [r.id, i] as const)
    .filter(([id]) => id.startsWith('generic-'))
    .map(([, i]) => i),
);
/** Rules whose value is a password inside a URL or connection string. */
const PASSWORD_RULES = new Set(
  RULES.map((r, i) => [r.id, i] as const)
    .filter(([id]) => id.endsWith('-connection-string') || id === 'url-password' || id === 'ado-connection-string-password')
    .map(([, i]) => i),
);
/** Long structural matches (key blocks) that the placeholder heuristics must not judge. */
const STRUCTURAL_RULES = new Set(
  RULES.map((r, i) => [r.id, i] as const)
    .filter(([id]) => id.startsWith('private-key-') || id === 'gcp-service-account-private-key')
    .map(([, i]) => i),
);
const RULE_INDEX = new Map(RULES.map((r, i) => [r.id, i]));

/** A candidate in UTF-16 offsets before overlapping candidates are merged. */
interface Candidate {
  readonly priority: number;
  readonly ruleId: string;
  readonly confidence: Confidence;
  readonly start: number;
  readonly end: number;
}

/** Builds the set of enabled built-in rule indices from allow/deny lists (unknown ids are an error). */
function enabledRules(options: ScanOptions): (index: number) => boolean {
  const check = (field: string, ids: readonly string[] | undefined): Set<number> | undefined => {
    if (ids === undefined) return undefined;
    if (!Array.isArray(ids)) throw invalidParams(field, 'must be an array of rule ids.');
    const set = new Set<number>();
    ids.forEach((id, k) => {
      const index = RULE_INDEX.get(id);
      // The unknown value is not echoed: a caller may have pasted something sensitive by mistake.
      if (index === undefined) throw invalidParams(`${field}[${k}]`, 'is not a built-in rule id; see RULES for the list.');
      set.add(index);
    });
    return set;
  };
  const allow = check('allowRules', options.allowRules);
  const deny = check('denyRules', options.denyRules);
  return (i) => (allow === undefined || allow.has(i)) && (deny === undefined || !deny.has(i));
}

/**
 * The scan pipeline shared by {@link scanSecrets} and redaction: core scan, host filters, user
 * rules, then overlapping matches merged into one finding (union of spans, highest-priority rule,
 * high confidence if any part is high) so a redaction never leaves part of a secret behind.
 */
export function findSecrets(text: string, options: ScanOptions = {}): SecretFinding[] {
  if (typeof text !== 'string') throw invalidParams('text', 'must be a string.');
  if (options === null || typeof options !== 'object') throw invalidParams('options', 'must be an object.');
  if (options.mediumConfidence !== undefined && options.mediumConfidence !== 'redact' && options.mediumConfidence !== 'refuse') {
    throw invalidParams('mediumConfidence', "must be 'redact' or 'refuse'.");
  }
  const enabled = enabledRules(options);
  const userRules = compileUserRules(options.extraRules);
  // Offsets come back in UTF-16 code units (the core maps them on non-ASCII text).
  const raw = scanSecretText(text, RULES.length);

  const candidates: Candidate[] = [];
  if (raw.matches.length > 0) {
    const matches = raw.matches.filter((m) => enabled(m.rule));
    for (const m of matches) {
      const { start, end } = m;
      const value = text.slice(start, end);
      if (isPlaceholder(value, STRUCTURAL_RULES.has(m.rule))) continue;
      // A key block holds key material: at least one long base64 run, not prose or `...`.
      if (STRUCTURAL_RULES.has(m.rule) && !/[A-Za-z0-9+/]{40}/.test(value)) continue;
      if (ASSIGNMENT_RULES.has(m.rule) && isNonSecretAssignment(text, start, end)) continue;
      if (PASSWORD_RULES.has(m.rule) && isNonSecretPassword(value)) continue;
      if (insideDataUrl(text, start)) continue;
      const rule = RULES[m.rule]!;
      candidates.push({ priority: m.rule, ruleId: rule.id, confidence: m.confidence === 1 ? 'high' : 'medium', start, end });
    }
  }
  userRules.forEach((rule, k) => {
    for (const m of matchUserRules(text, [rule])) {
      if (isPlaceholder(text.slice(m.start, m.end), false)) continue;
      candidates.push({ priority: RULES.length + k, ruleId: rule.id, confidence: rule.confidence, start: m.start, end: m.end });
    }
  });
  if (candidates.length === 0) return [];

  candidates.sort((a, b) => a.start - b.start || a.priority - b.priority);
  const merged: Candidate[] = [];
  for (const c of candidates) {
    const last = merged[merged.length - 1];
    if (last && c.start < last.end) {
      const best = c.priority < last.priority ? c : last;
      merged[merged.length - 1] = {
        priority: best.priority,
        ruleId: best.ruleId,
        confidence: last.confidence === 'high' || c.confidence === 'high' ? 'high' : 'medium',
        start: last.start,
        end: Math.max(last.end, c.end),
      };
    } else merged.push(c);
  }
  const positions = mapUtf16Offsets(
    text,
    merged.map((c) => c.start),
  );
  return merged.map((c, k) => ({
    ruleId: c.ruleId,
    confidence: c.confidence,
    start: c.start,
    end: c.end,
    line: positions[k]!.line,
    column: positions[k]!.column,
  }));
}

/**
 * Finds secrets in a text: each finding has the rule id, confidence, UTF-16 `start`/`end` and a
 * 1-based `line`/`column`, never the value. Synchronous: needs `await init()` first.
 */
export function scanSecrets(text: string, options: ScanOptions = {}): SecretFinding[] {
  return findSecrets(text, options);
}
