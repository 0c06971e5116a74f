import { SecretRiskError } from '../errors.ts';
import { findSecrets } from './scan.ts';
import type { Redaction, RedactResult, ScanOptions, SecretFinding } from './types.ts';

/** Most locations listed in a refusal message; the details hold them all. */
const MESSAGE_LOCATIONS = 10;

/**
 * Replaces every secret with a placeholder `[REDACTED:<rule-id>:<n>]`. Numbers count distinct
 * secret values in order of first appearance within this call, so the same value gets the same
 * number and the output is deterministic; the number never depends on the value itself.
 *
 * With `mediumConfidence: 'refuse'`, any medium-confidence finding throws a `SecretRiskError`
 * listing rule ids and line/column (never the value). Synchronous: needs `await loadCore()` first.
 */
export function redactSecrets(text: string, options: ScanOptions = {}): RedactResult {
  const findings = findSecrets(text, options);
  if (options.mediumConfidence === 'refuse') {
    const uncertain = findings.filter((f) => f.confidence === 'medium');
    if (uncertain.length > 0) throw refusal(uncertain);
  }
  const numbers = new Map<string, number>();
  const redactions: Redaction[] = [];
  let out = '';
  let cursor = 0;
  for (const f of findings) {
    const value = text.slice(f.start, f.end);
    let n = numbers.get(value);
    if (n === undefined) {
      n = numbers.size + 1;
      numbers.set(value, n);
    }
    const placeholder = `[REDACTED:${f.ruleId}:${n}]`;
    out += text.slice(cursor, f.start) + placeholder;
    cursor = f.end;
    redactions.push({ ...f, placeholder });
  }
  out += text.slice(cursor);
  return { text: out, redactions };
}

function refusal(findings: SecretFinding[]): SecretRiskError {
  const where = findings.slice(0, MESSAGE_LOCATIONS).map((f) => `${f.ruleId} at ${f.line}:${f.column}`);
  const more = findings.length > MESSAGE_LOCATIONS ? ` and ${findings.length - MESSAGE_LOCATIONS} more` : '';
  return new SecretRiskError(
    `Refused: ${findings.length} possible secret(s) could not be classified with certainty (${where.join(', ')}${more}). ` +
      "Move the secrets out of the project, add a deny rule for the file, or pass mediumConfidence: 'redact' to redact them.",
    { details: { findings: findings.map((f) => ({ ruleId: f.ruleId, confidence: f.confidence, line: f.line, column: f.column })) } },
  );
}
