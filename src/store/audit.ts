import { expectArray, expectObject, expectOptions } from '../args.ts';
import { invalidParams } from '../errors.ts';
import type { ContextLimits } from './limits.ts';
import { ContextSizeChecker } from './limits.ts';
import type { AgentContext, AgentRun, ContextDiff } from './model.ts';
import { validateField } from './model.ts';
import { writeMember } from './write-member.ts';

/** Options of {@link AuditTrail}. */
export interface AuditTrailOptions {
  /** Most agent runs kept; older ones are dropped first. Default 100 (the spec's advice). */
  maxRuns?: number;
  /** Most diffs kept; older ones are dropped first. Default 100. */
  maxDiffs?: number;
  /** Size limits checked before each append; defaults to the spec's. */
  limits?: Partial<ContextLimits>;
}

/** Default cap of each audit list: the spec's "keep only recent 100 diffs". */
export const DEFAULT_AUDIT_HISTORY = 100;

/**
 * Appends agent runs and diffs to `audit` (the spec's "audit system", through which every agent
 * may write), keeping bounded history so a long session never runs into the array or size limits.
 * Entries are validated and the size is checked before the context is touched.
 */
export class AuditTrail {
  /** Cap of `audit.agentRuns`. */
  readonly maxRuns: number;
  /** Cap of `audit.diffs`. */
  readonly maxDiffs: number;
  private readonly checker: ContextSizeChecker;

  /** Creates an audit trail with the given caps and limits. INVALID_PARAMS (`options`) unless `options` is an object or undefined. */
  constructor(options: AuditTrailOptions = {}) {
    expectOptions(options);
    this.checker = new ContextSizeChecker(options.limits);
    this.maxRuns = cap('maxRuns', options.maxRuns, this.checker.limits.maxArrayItems);
    this.maxDiffs = cap('maxDiffs', options.maxDiffs, this.checker.limits.maxArrayItems);
  }

  /**
   * Appends an agent run, dropping the oldest beyond {@link maxRuns}. INVALID_PARAMS unless
   * `context` is an object whose `audit.agentRuns` is an array (`context`, `context.audit`,
   * `context.audit.agentRuns`) and `run` is a valid {@link AgentRun} (`run`, or the bad field, e.g.
   * `audit.agentRuns[0].durationMs`); CONTEXT_SIZE if the append would break a limit. A refused
   * call leaves the context as it was.
   */
  recordRun(context: AgentContext, run: AgentRun): void {
    const audit = auditOf(context, 'agentRuns');
    expectObject(run, 'run');
    append(this.checker, context, audit, 'agentRuns', run, this.maxRuns);
  }

  /**
   * Appends a diff (a {@link CapturedDiff} or its plain form), dropping the oldest beyond
   * {@link maxDiffs}. INVALID_PARAMS unless `context` is an object whose `audit.diffs` is an array
   * (`context`, `context.audit`, `context.audit.diffs`) and `diff` is a valid {@link ContextDiff}
   * (`diff`, or the bad field, e.g. `audit.diffs[0].agentId`); CONTEXT_SIZE if the append would
   * break a limit. A refused call leaves the context as it was.
   */
  recordDiff(context: AgentContext, diff: ContextDiff): void {
    const audit = auditOf(context, 'diffs');
    expectObject(diff, 'diff');
    const plain: ContextDiff = { timestamp: diff.timestamp, agentId: diff.agentId, changes: diff.changes };
    append(this.checker, context, audit, 'diffs', plain, this.maxDiffs);
  }
}

type AuditKey = 'agentRuns' | 'diffs';

/** `context.audit`, once `context` is checked to be an object whose `audit[key]` is an array. */
function auditOf(context: AgentContext, key: AuditKey): Record<AuditKey, unknown[]> {
  expectObject(context, 'context');
  const audit: unknown = context.audit;
  expectObject(audit, 'context.audit');
  expectArray(audit[key], `context.audit.${key}`);
  return audit as Record<AuditKey, unknown[]>;
}

/**
 * Appends `entry` to `audit[key]` (`audit` is `context.audit`), keeping the newest `max`. The entry
 * is validated and the size checked before anything is written, so a refusal changes nothing. A
 * module function, not a method: the only ways in are the checked methods above.
 */
function append(checker: ContextSizeChecker, context: AgentContext, audit: Record<AuditKey, unknown[]>, key: AuditKey, entry: AgentRun | ContextDiff, max: number): void {
  // Validated first: the copy below is then of plain JSON data, which structuredClone cannot refuse.
  validateField('audit', key, [entry]);
  const next = [...audit[key], structuredClone(entry)];
  const trimmed = next.length > max ? next.slice(next.length - max) : next;
  checker.checkWrite(context, 'audit', key, trimmed);
  writeMember(audit, key, trimmed, `context.audit.${key}`);
}

function cap(field: string, value: number | undefined, maxArrayItems: number): number {
  const v = value ?? Math.min(DEFAULT_AUDIT_HISTORY, maxArrayItems);
  if (!Number.isSafeInteger(v) || v < 1 || v > maxArrayItems) {
    throw invalidParams(field, `must be an integer from 1 to maxArrayItems (${maxArrayItems})`);
  }
  return v;
}
