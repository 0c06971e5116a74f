/**
 * The `_meta` block every tool output carries (spec 000 §3), in camelCase. `truncated` and
 * `truncatedFrom` are present only when something was dropped, so their absence is a promise that
 * the output is complete.
 */

/** Per-list counts of a multi-list output. */
export interface ListMeta {
  /** Items kept in this list. */
  readonly count: number;
  /** Present (and true) only when this list lost items. */
  readonly truncated?: true;
  /** Items before truncation, only when truncated. */
  readonly truncatedFrom?: number;
}

/** The `_meta` of a tool output. */
export interface OutputMeta {
  /** Number of items in the output (for a scalar output, 1). */
  readonly count: number;
  /** Present (and true) only when the output lost items or text. */
  readonly truncated?: true;
  /** Item count before truncation; only when `truncated`. */
  readonly truncatedFrom?: number;
  /** ISO-8601 time the output was generated. */
  readonly timestamp: string;
  /** True when a middle segment was replaced by a summary. */
  readonly summarized?: true;
  /** Item count before summarisation; only when `summarized`. */
  readonly originalCount?: number;
  /** Per-list counts, for outputs with several lists. */
  readonly lists?: Readonly<Record<string, ListMeta>>;
  /** JSON paths of string fields shortened to fit the byte limit. */
  readonly shortenedFields?: readonly string[];
  /** Advisory session budget warning (spec 000 §10). */
  readonly budgetWarning?: string;
  /** Tool-specific extra fields. */
  readonly [key: string]: unknown;
}

/** An output with its `_meta` block. */
export type WithMeta<T> = Omit<T, '_meta'> & { readonly _meta: OutputMeta };

/** Keys of `_meta` the wrappers own; a producer's own `_meta` may not set them. */
export const RESERVED_META_KEYS: ReadonlySet<string> = new Set([
  'count',
  'truncated',
  'truncatedFrom',
  'timestamp',
  'summarized',
  'originalCount',
  'lists',
  'shortenedFields',
]);

/** The producer's own `_meta` fields that may be kept alongside the wrapper's. */
export function extraMeta(existing: unknown): Record<string, unknown> {
  if (existing === null || typeof existing !== 'object' || Array.isArray(existing)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(existing)) if (!RESERVED_META_KEYS.has(k)) out[k] = v;
  return out;
}
