import { z } from 'zod';
import { invalidParams } from '../errors.ts';
import { RULES } from './rules.generated.ts';
import type { Confidence, UserSecretRule } from './types.ts';

const MAX_BODY = 1024;

const userRuleSchema = z
  .object({
    id: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be kebab-case, e.g. acme-api-key').max(64),
    prefix: z.string().min(3, 'needs at least 3 characters so the rule cannot match everywhere').max(64),
    charset: z.string().min(1).max(256),
    minLength: z.number().int().min(1),
    maxLength: z.number().int().max(MAX_BODY),
    confidence: z.enum(['high', 'medium']).optional(),
  })
  .strict()
  .refine((r) => r.maxLength >= r.minLength, { message: 'maxLength must be at least minLength', path: ['maxLength'] });

/** A user rule compiled for matching. */
export interface CompiledUserRule {
  readonly id: string;
  readonly prefix: string;
  readonly allowed: Uint8Array; // 65536-entry set of UTF-16 code units
  readonly minLength: number;
  readonly maxLength: number;
  readonly confidence: Confidence;
}

/** A match of a user rule, in UTF-16 offsets. */
export interface UserRuleMatch {
  readonly rule: CompiledUserRule;
  readonly start: number;
  readonly end: number;
}

const builtinIds = new Set(RULES.map((r) => r.id));

/** Validates and compiles user rules; throws INVALID_PARAMS naming the bad field. */
export function compileUserRules(rules: readonly UserSecretRule[] | undefined): CompiledUserRule[] {
  if (rules === undefined) return [];
  if (!Array.isArray(rules)) throw invalidParams('extraRules', 'must be an array of { id, prefix, charset, minLength, maxLength } rules.');
  const seen = new Set<string>();
  return rules.map((rule, i) => {
    const parsed = userRuleSchema.safeParse(rule);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw invalidParams(`extraRules[${i}].${issue.path.join('.')}`, `${issue.message}.`);
    }
    const r = parsed.data;
    if (builtinIds.has(r.id) || seen.has(r.id)) {
      throw invalidParams(`extraRules[${i}].id`, `"${r.id}" is already a rule id; choose another id.`);
    }
    seen.add(r.id);
    return { id: r.id, prefix: r.prefix, allowed: parseCharset(r.charset, i), minLength: r.minLength, maxLength: r.maxLength, confidence: r.confidence ?? 'high' };
  });
}

/** Parses `A-Za-z0-9_-` style sets: ranges `a-z`, single characters, `\-` and `\\` escapes. */
function parseCharset(spec: string, index: number): Uint8Array {
  const set = new Uint8Array(65536);
  const units: number[] = [];
  for (let i = 0; i < spec.length; i++) {
    if (spec[i] === '\\' && i + 1 < spec.length) units.push(-spec.charCodeAt(++i) - 1);
    else units.push(spec.charCodeAt(i));
  }
  const code = (u: number) => (u < 0 ? -u - 1 : u);
  for (let k = 0; k < units.length; k++) {
    const a = units[k]!;
    if (k + 2 < units.length && units[k + 1] === 45 /* - */) {
      const lo = code(a);
      const hi = code(units[k + 2]!);
      if (hi < lo) throw invalidParams(`extraRules[${index}].charset`, `range ${String.fromCharCode(lo)}-${String.fromCharCode(hi)} is reversed.`);
      for (let c = lo; c <= hi; c++) set[c] = 1;
      k += 2;
    } else set[code(a)] = 1;
  }
  return set;
}

const isWordUnit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** Work done by {@link matchUserRules}, for tests that check it stays linear. */
export interface MatchWork {
  /** Code units examined while measuring bodies. */
  steps: number;
}

/**
 * Finds every match of the user rules, in time linear in the text for each rule. A prefix hit's
 * body is the run of the rule's characters after it, and a match only when its length is within
 * [minLength, maxLength]. The end of the last run measured is kept: a later hit whose body starts
 * inside that run has the same end, so its length is known without reading the run again. (Read
 * again from each hit, text like `tok_tok_tok_…` whose prefix is made of the rule's own characters
 * cost `maxLength` steps per hit: a megabyte of it took seconds per rule.)
 */
export function matchUserRules(text: string, rules: readonly CompiledUserRule[], work?: MatchWork): UserRuleMatch[] {
  const out: UserRuleMatch[] = [];
  let steps = 0;
  for (const rule of rules) {
    let from = 0;
    // The end of the run of rule characters measured last (a unit not in the set, or the text's
    // end). Hits come in order, so a body that starts before it lies inside that run.
    let runEnd = 0;
    for (let at = text.indexOf(rule.prefix, from); at !== -1; at = text.indexOf(rule.prefix, from)) {
      from = at + 1;
      if (at > 0 && isWordUnit(text.charCodeAt(at - 1))) continue;
      const bodyStart = at + rule.prefix.length;
      if (bodyStart >= runEnd) {
        let end = bodyStart;
        while (end < text.length && rule.allowed[text.charCodeAt(end)]) end++;
        steps += end - bodyStart + 1;
        runEnd = end;
      }
      const n = runEnd - bodyStart;
      if (n < rule.minLength || n > rule.maxLength) continue;
      out.push({ rule, start: at, end: bodyStart + n });
      from = bodyStart + n;
    }
  }
  if (work) work.steps += steps;
  return out;
}
