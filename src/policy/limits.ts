/**
 * Centralised output limits (spec 000 §2, §3 "Centralized Limits"). Tools never hard-code their
 * bounds: they read them from frozen, typed limit objects so a reviewer can see every bound in one
 * place, and validation messages quote the same numbers the wrappers enforce.
 */
import { z } from 'zod';
import { expectNumberNotNaN, expectObject, expectString } from '../args.ts';
import { CtxgateError, invalidParams } from '../errors.ts';
import { KB } from './bytes.ts';
import { clonePlainData, findTooDeep, MAX_DATA_DEPTH, tooDeep } from './checks.ts';

/**
 * How a list is cut when it has more items than its tool allows.
 *
 * - `head`: keep the first items (the producer already ordered them by importance).
 * - `topN`: rank by the numeric field `by` (`desc`: biggest first, `asc`: smallest first), keep the
 *   best, in rank order. The spec's "Top-N by relevance", "Top by distance", "Top by margin".
 * - `summarizeMiddle`: above `threshold` items keep `head` and `tail` and summarise the middle
 *   (see `summarizeSequence`); the item limit still applies to what is kept.
 * - `bounded`: the algorithm already bounds its output ("N/A (algorithm-bounded)"); the limit is
 *   still enforced as a safety net, from the head.
 */
export type TruncationStrategy =
  | { readonly kind: 'head' }
  | { readonly kind: 'topN'; readonly by: string; readonly order: 'asc' | 'desc' }
  | {
      readonly kind: 'summarizeMiddle';
      readonly threshold: number;
      readonly head: number;
      readonly tail: number;
      /**
       * Names the stats of the omitted middle that the summary object carries, for limits (plain,
       * frozen data that cannot hold a callback). `route`: the security breakdown and lowest-security
       * system of spec 000 §4, exactly as `summarizeRoute` gives them. Without it the summary has only
       * the counts, unless the wrapper is given a `summarize` callback (which wins).
       */
      readonly summarize?: SequenceSummaryName;
    }
  | { readonly kind: 'bounded' };

/** Built-in stats a `summarizeMiddle` strategy can name (see {@link TruncationStrategy}). */
export type SequenceSummaryName = 'route';

/** The bounds of one tool's output. */
export interface ToolLimits {
  /** Most items kept in each list of the output. */
  readonly maxItems: number;
  /** Most UTF-8 bytes of the whole serialised output, `_meta` included. */
  readonly maxBytes: number;
  /** How lists longer than `maxItems` are cut. */
  readonly truncation: TruncationStrategy;
  /**
   * Top-level keys of the output that hold the bounded lists. When absent, every top-level array
   * is bounded.
   */
  readonly listKeys?: readonly string[];
  /** Human description for docs and reviews, e.g. "100 jumps, summarize middle hops". */
  readonly description?: string;
}

/** Cross-domain limits of spec 000 (the `GLOBAL` class). */
export const GLOBAL_LIMITS = Object.freeze({
  /** "Tool Results: 10 KB per call" (§1). */
  toolResultMaxBytes: 10 * KB,
  /** "Error messages are truncated at 500 characters" (§7). */
  errorMessageMaxChars: 500,
  /** "List > 30 items: truncate with count" (§4). */
  listTruncateThreshold: 30,
  /** "History > 30 days: aggregate to daily stats" (§4). */
  historyAggregateDays: 30,
  /** "Skill tree > 20 skills: group by category" (§4). */
  treeGroupThreshold: 20,
  /** "Route > 20 jumps: summarize middle segment" (§4). */
  sequenceSummarizeThreshold: 20,
  /** "Show first 5 systems with full detail" (§4). */
  sequenceShowHead: 5,
  /** "Show last 5 systems with full detail" (§4). */
  sequenceShowTail: 5,
  /** Soft session budget, 50 KB of tool output (§2). */
  budgetSoftBytes: 50 * KB,
  /** Hard session budget, 100 KB of tool output (§2). */
  budgetHardBytes: 100 * KB,
  /**
   * Bytes a wrapper leaves free under `maxBytes` for a budget warning, so adding the warning never
   * pushes an output over its tool's limit.
   */
  budgetWarningReserveBytes: 384,
});

/** Limits used for a tool nobody declared: 30 items per list, 10 KB, keep the head. */
export const DEFAULT_TOOL_LIMITS: ToolLimits = Object.freeze({
  maxItems: GLOBAL_LIMITS.listTruncateThreshold,
  maxBytes: GLOBAL_LIMITS.toolResultMaxBytes,
  truncation: Object.freeze({ kind: 'head' as const }),
  description: 'Default: 30 items per list, 10 KB',
});

/** Smallest byte limit accepted: below this not even an error envelope fits. */
export const MIN_MAX_BYTES = 256;

const positiveInt = z.number().int().positive();

const strategySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('head') }).strict(),
  z.object({ kind: z.literal('topN'), by: z.string().min(1), order: z.enum(['asc', 'desc']) }).strict(),
  z
    .object({
      kind: z.literal('summarizeMiddle'),
      threshold: positiveInt,
      head: z.number().int().nonnegative(),
      tail: z.number().int().nonnegative(),
      summarize: z.enum(['route']).optional(),
    })
    .strict()
    .refine((s) => s.head + s.tail < s.threshold, { message: 'head + tail must be below threshold', path: ['head'] }),
  z.object({ kind: z.literal('bounded') }).strict(),
]);

const toolLimitsSchema = z
  .object({
    maxItems: positiveInt,
    maxBytes: z.number().int().min(MIN_MAX_BYTES),
    truncation: strategySchema,
    listKeys: z.array(z.string().min(1)).optional(),
    description: z.string().optional(),
  })
  .strict();

/**
 * Freezes a value and everything reachable from it (through own enumerable keys), so shared limit
 * objects cannot drift. Objects already frozen are not descended into. Refused with
 * UNSUPPORTED_VALUE, before anything is frozen: data nested deeper than 100 levels
 * (`MAX_DATA_DEPTH`), and byte arrays (a Buffer, a Uint8Array, any typed array or DataView), whose
 * bytes no freeze can make read-only; store such data as an array of numbers or a string.
 */
export function deepFreeze<T>(value: T): T {
  const pending: object[] = [];
  const seen = new Set<object>();
  const visit = (v: unknown, path: string, depth: number): void => {
    if (v === null || typeof v !== 'object' || Object.isFrozen(v) || seen.has(v)) return;
    if (depth >= MAX_DATA_DEPTH) throw tooDeep('The value to freeze', path);
    if (ArrayBuffer.isView(v)) {
      throw new CtxgateError('UNSUPPORTED_VALUE', `Cannot freeze the byte array at ${path}: its bytes stay writable; keep bytes out of limits, or store them as an array of numbers or a string.`, {
        details: { path, what: 'a byte array' },
      });
    }
    seen.add(v);
    pending.push(v);
    for (const key of Object.keys(v)) visit((v as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
  };
  visit(value, '$', 0);
  // Only once everything passed: a refused value is left exactly as it was, not half frozen.
  for (const o of pending) Object.freeze(o);
  return value;
}

/**
 * Declares the limits of your own tools, keyed by tool name. Each entry is validated (positive
 * integer `maxItems`, `maxBytes` of at least {@link MIN_MAX_BYTES}, a known strategy) and the
 * whole table is deep-frozen. Throws INVALID_PARAMS naming the tool and field (or `table` when it
 * is not an object).
 *
 * @example
 * const LIMITS = defineToolLimits({
 *   'repo.search': { maxItems: 20, maxBytes: 3 * KB, truncation: { kind: 'topN', by: 'score', order: 'desc' } },
 * });
 */
export function defineToolLimits<const T extends Record<string, ToolLimits>>(table: T): Readonly<T> {
  expectObject(table, 'table');
  const copy: Record<string, ToolLimits> = {};
  for (const [name, limits] of Object.entries(table)) {
    checkToolLimits(limits, `limits["${name}"]`);
    copy[name] = structuredClone(limits);
  }
  deepFreeze(copy);
  // The frozen copies are what callers pass on: checked above, so never parsed again.
  for (const limits of Object.values(copy)) checkedLimits.add(limits);
  return copy as Readonly<T>;
}

const LIMITS_HINT = `Give maxItems (positive integer), maxBytes (integer >= ${MIN_MAX_BYTES}) and a truncation strategy (head, topN, summarizeMiddle or bounded)`;
const STRATEGY_HINT =
  "Give { kind: 'head' }, { kind: 'topN', by, order: 'asc' | 'desc' }, { kind: 'summarizeMiddle', threshold, head, tail } with head + tail below threshold, or { kind: 'bounded' }";

/** INVALID_PARAMS for the first problem zod found, naming `field` and the path inside it. */
function schemaFailure(field: string, error: z.ZodError, hint: string): CtxgateError {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
  return invalidParams(`${field}${where}`, `${issue?.message ?? 'is invalid'}. ${hint}`);
}

/**
 * Frozen objects already checked: limits cannot change once frozen, so a table from
 * `defineToolLimits` is validated once, not on every tool call.
 */
const checkedLimits = new WeakSet<object>();

/**
 * Throws INVALID_PARAMS (naming `field` and the path inside it) unless `limits` is a valid
 * {@link ToolLimits}: the same rules as {@link defineToolLimits}, for limits given without it.
 */
export function checkToolLimits(limits: unknown, field: string): asserts limits is ToolLimits {
  if (limits !== null && typeof limits === 'object' && checkedLimits.has(limits)) return;
  const parsed = toolLimitsSchema.safeParse(limits);
  if (!parsed.success) throw schemaFailure(field, parsed.error, LIMITS_HINT);
  const l = limits as ToolLimits;
  if (Object.isFrozen(l) && Object.isFrozen(l.truncation) && (l.listKeys === undefined || Object.isFrozen(l.listKeys))) checkedLimits.add(l);
}

/**
 * Throws INVALID_PARAMS (naming `field` and the path inside it, e.g. `truncation.head`) unless
 * `strategy` is a valid {@link TruncationStrategy}. The one schema behind `defineToolLimits` and
 * the wrappers, so a strategy refused in a limits table is refused when passed directly too.
 */
export function checkStrategy(strategy: unknown, field: string): asserts strategy is TruncationStrategy {
  expectObject(strategy, field);
  const parsed = strategySchema.safeParse(strategy);
  if (!parsed.success) throw schemaFailure(field, parsed.error, STRATEGY_HINT);
}

/**
 * Declares a domain's named constants (the spec's `UNIVERSE`, `MARKET`, ... classes) as one
 * deep-frozen object with literal types, so `UNIVERSE.searchMaxLimit` is both a value and a type.
 * `values` must be an object (else INVALID_PARAMS) of plain data: a function or symbol inside it
 * is UNSUPPORTED_VALUE, since the table is copied, and so are nesting deeper than 100 levels and
 * byte arrays (see {@link deepFreeze}).
 */
export function defineLimits<const T extends Record<string, unknown>>(values: T): Readonly<T> {
  expectObject(values, 'values');
  // Before the copy: how deep structured clone can go depends on the runtime's stack.
  const deep = findTooDeep(values);
  if (deep !== undefined) throw tooDeep('values', deep);
  return deepFreeze(clonePlainData(values, 'values'));
}

/** The limits declared for `tool` in `table`, or `fallback` (default {@link DEFAULT_TOOL_LIMITS}). */
export function toolLimitsFor(
  table: Readonly<Record<string, ToolLimits>>,
  tool: string,
  fallback: ToolLimits = DEFAULT_TOOL_LIMITS,
): ToolLimits {
  expectObject(table, 'table');
  expectString(tool, 'tool');
  expectObject(fallback, 'fallback');
  return Object.prototype.hasOwnProperty.call(table, tool) ? (table[tool] as ToolLimits) : fallback;
}

/**
 * Throws INVALID_PARAMS unless `value` is an integer in `[min, max]`. The message quotes the limit
 * so the caller (often a model) can retry with a valid value.
 *
 * @example assertWithinLimit('limit', args.limit, UNIVERSE.searchMaxLimit)
 */
export function assertWithinLimit(field: string, value: unknown, max: number, min = 1): number {
  expectString(field, 'field');
  expectNumberNotNaN(max, 'max');
  expectNumberNotNaN(min, 'min');
  // Bounds the wrong way round would make every value fail with advice that cannot be followed
  // ("ask for 3 or fewer" when 10 is the least allowed): that is the caller's bug, so name it.
  if (min > max) throw invalidParams('min', `the minimum ${min} is above the maximum ${max} for ${field}; swap them`, { min, max });
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw invalidParams(field, `must be an integer between ${min} and ${max}; got ${describe(value)}`, { min, max });
  }
  if (value > max) {
    throw invalidParams(field, `${value} is above the maximum of ${max}; ask for ${max} or fewer`, { value, min, max });
  }
  if (value < min) {
    throw invalidParams(field, `${value} is below the minimum of ${min}; ask for at least ${min}`, { value, min, max });
  }
  return value;
}

/**
 * A tool parameter with a default and a ceiling: `undefined` gives `fallback`, anything else must
 * pass {@link assertWithinLimit}. The default must itself be an integer within `[min, max]` (`min`
 * defaults to 1), checked on every call: a default of 500 under a maximum of 50 would hand out
 * what the limit forbids whenever the caller leaves the parameter out, so it is INVALID_PARAMS
 * naming `options.fallback` rather than returned. Bounds the wrong way round are INVALID_PARAMS
 * naming `options.min`.
 */
export function resolveLimit(field: string, value: unknown, options: { fallback: number; max: number; min?: number }): number {
  expectString(field, 'field');
  expectObject(options, 'options');
  expectNumberNotNaN(options.fallback, 'options.fallback');
  expectNumberNotNaN(options.max, 'options.max');
  if (options.min !== undefined) expectNumberNotNaN(options.min, 'options.min');
  const { fallback, max } = options;
  const min = options.min ?? 1;
  if (min > max) throw invalidParams('options.min', `the minimum ${min} is above the maximum ${max} for ${field}; swap them`, { min, max });
  if (!Number.isInteger(fallback) || fallback < min || fallback > max) {
    throw invalidParams('options.fallback', `the default ${fallback} for ${field} must be an integer between ${min} and ${max}, the bounds it stands in for; fix the declared default`, {
      fallback,
      min,
      max,
    });
  }
  if (value === undefined) return fallback;
  return assertWithinLimit(field, value, max, min);
}

/**
 * What a wrong limit value was, for a model to correct itself. A short number written as a string
 * (`"7"`) is shown; any other string only by its length: it is the model's or a user's text, and
 * even its first characters may be most of a token (a cut token is also past the scanner's rules).
 */
function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return /^-?\d{1,9}(?:\.\d{1,3})?$/.test(value) ? `the string "${value}"` : `a string of ${value.length} character${value.length === 1 ? '' : 's'}`;
  return value === null ? 'null' : `a ${typeof value}`;
}
