import { invalidParams } from '../errors.ts';
import type { ContextLimits } from './limits.ts';
import { ContextSizeChecker } from './limits.ts';
import type { AgentContext, AgentRun, ContextDiff } from './model.ts';
import { validateField } from './model.ts';

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

  /** Creates an audit trail with the given caps and limits. */
  constructor(options: AuditTrailOptions = {}) {
    this.checker = new ContextSizeChecker(options.limits);
    this.maxRuns = cap('maxRuns', options.maxRuns, this.checker.limits.maxArrayItems);
    this.maxDiffs = cap('maxDiffs', options.maxDiffs, this.checker.limits.maxArrayItems);
  }

  /** Appends an agent run, dropping the oldest beyond {@link maxRuns}. */
  recordRun(context: AgentContext, run: AgentRun): void {
    this.append(context, 'agentRuns', run, this.maxRuns);
  }

  /** Appends a diff (a {@link CapturedDiff} or its plain form), dropping the oldest beyond {@link maxDiffs}. */
  recordDiff(context: AgentContext, diff: ContextDiff): void {
    const plain: ContextDiff = { timestamp: diff.timestamp, agentId: diff.agentId, changes: diff.changes };
    this.append(context, 'diffs', plain, this.maxDiffs);
  }

  private append(context: AgentContext, key: 'agentRuns' | 'diffs', entry: AgentRun | ContextDiff, max: number): void {
    const current = context.audit[key] as unknown[];
    const next = [...current, structuredClone(entry)];
    const trimmed = next.length > max ? next.slice(next.length - max) : next;
    validateField('audit', key, [entry]);
    this.checker.checkWrite(context, 'audit', key, trimmed);
    (context.audit as unknown as Record<string, unknown>)[key] = trimmed;
  }
}

function cap(field: string, value: number | undefined, maxArrayItems: number): number {
  const v = value ?? Math.min(DEFAULT_AUDIT_HISTORY, maxArrayItems);
  if (!Number.isSafeInteger(v) || v < 1 || v > maxArrayItems) {
    throw invalidParams(field, `must be an integer from 1 to maxArrayItems (${maxArrayItems})`);
  }
  return v;
}
