import { ContextSizeError, invalidParams } from '../errors.ts';
import { measuredMemos } from './context-memo.ts';
import { jsonByteLength } from './json-size.ts';
import type { AgentContext, Namespace } from './model.ts';
import { NAMESPACES } from './model.ts';

/** Size limits of one context, in bytes of UTF-8 JSON unless stated otherwise. */
export interface ContextLimits {
  /** Whole context. */
  maxTotalSize: number;
  /** Any one namespace. */
  maxNamespaceSize: number;
  /** Items in any array field of a namespace (e.g. `reasoning.intents`). */
  maxArrayItems: number;
  /** Inline artifact bytes in `retrieval.artifacts` above which artifacts should be externalised. */
  artifactExternalizationThreshold: number;
  /** An inline artifact larger than this is always externalised. */
  maxInlineArtifactSize: number;
}

/** The spec's defaults: 10 MB total, 2 MB per namespace, 1,000 array items, 100 KB and 50 KB for artifacts. */
export const DEFAULT_CONTEXT_LIMITS: Readonly<ContextLimits> = Object.freeze({
  maxTotalSize: 10 * 1024 * 1024,
  maxNamespaceSize: 2 * 1024 * 1024,
  maxArrayItems: 1000,
  artifactExternalizationThreshold: 100 * 1024,
  maxInlineArtifactSize: 50 * 1024,
});

/** Merges partial limits over the defaults, refusing non-positive or non-integer values. */
export function resolveLimits(limits: Partial<ContextLimits> = {}): ContextLimits {
  const out = { ...DEFAULT_CONTEXT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(out)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw invalidParams(`limits.${name}`, 'must be a positive integer');
  }
  return out;
}

export { jsonByteLength, utf8ByteLength } from './json-size.ts';

/** Sizes and counts of one context (spec `GetStats`). */
export interface ContextStats {
  /** Bytes of the whole context as UTF-8 JSON. */
  totalSize: number;
  /** Bytes of each namespace as UTF-8 JSON. */
  namespaceSizes: Record<Namespace, number>;
  /** Items in each array field of a namespace, by field name (e.g. `intents`). */
  arrayCounts: Record<string, number>;
  /** Artifacts whose content lives in the artifact store. */
  externalizedCount: number;
  /** Bytes of all inline artifact contents. */
  inlineArtifactSize: number;
}

/** Measures the namespaces and the whole context in one pass over each namespace. */
function measure(ctx: AgentContext): { total: number; namespaces: Record<Namespace, number> } {
  const namespaces = {} as Record<Namespace, number>;
  // The wrapper holds the version and the keys; each namespace is stood in for by `0` (1 byte).
  const wrapper: Record<string, unknown> = { ...ctx };
  let sum = 0;
  // A namespace proven unchanged since it was last measured keeps its size (see context-memo.ts):
  // proving that walks the data once without writing text, several times cheaper than stringifying.
  // One never measured is measured in the walk that records it (json-size.ts), without its text.
  const memos = typeof ctx === 'object' && ctx !== null ? measuredMemos(ctx) : undefined;
  for (let i = 0; i < NAMESPACES.length; i++) {
    const ns = NAMESPACES[i]!;
    const memo = memos?.[i];
    const size = memo === undefined ? jsonByteLength(ctx[ns]) : (memo.jsonBytes ??= jsonByteLength(ctx[ns]));
    namespaces[ns] = size;
    sum += size;
    if (ctx[ns] !== undefined) wrapper[ns] = 0;
  }
  const present = NAMESPACES.filter((ns) => ctx[ns] !== undefined).length;
  return { total: jsonByteLength(wrapper) - present + sum, namespaces };
}

/** Sizes and counts of a context: total, per namespace, array items, externalised artifacts. */
export function getStats(ctx: AgentContext): ContextStats {
  const { total, namespaces } = measure(ctx);
  const arrayCounts: Record<string, number> = {};
  for (const ns of NAMESPACES) {
    const fields = (ctx[ns] ?? {}) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(fields)) if (Array.isArray(value)) arrayCounts[key] = value.length;
  }
  let externalizedCount = 0;
  let inlineArtifactSize = 0;
  for (const artifact of ctx.retrieval?.artifacts ?? []) {
    if (artifact.ref !== undefined) externalizedCount++;
    else inlineArtifactSize += jsonByteLength(artifact.content);
  }
  return { totalSize: total, namespaceSizes: namespaces, arrayCounts, externalizedCount, inlineArtifactSize };
}

function sizeError(limit: keyof ContextLimits, current: number, maximum: number, where: string, extra: Record<string, unknown>): ContextSizeError {
  return new ContextSizeError(
    `${where} would be ${current} (limit ${limit} is ${maximum}); externalise artifacts, trim old entries or raise the limit`,
    { details: { limit, current, maximum, ...extra } },
  );
}

/**
 * Enforces {@link ContextLimits} (spec `ContextSizeChecker`). {@link checkWrite} measures the
 * context as it would be after a write, so callers refuse before touching anything.
 */
export class ContextSizeChecker {
  /** The limits in force. */
  readonly limits: Readonly<ContextLimits>;

  /** Creates a checker; missing limits take the spec's defaults. */
  constructor(limits: Partial<ContextLimits> = {}) {
    this.limits = Object.freeze(resolveLimits(limits));
  }

  /** Throws {@link ContextSizeError} if the context as it stands breaks a limit. */
  check(ctx: AgentContext): void {
    const { total, namespaces } = measure(ctx);
    for (const ns of NAMESPACES) {
      this.checkArrays(ns, (ctx[ns] ?? {}) as unknown as Record<string, unknown>);
      if (namespaces[ns] > this.limits.maxNamespaceSize) {
        throw sizeError('maxNamespaceSize', namespaces[ns], this.limits.maxNamespaceSize, `namespace ${ns}`, { namespace: ns });
      }
    }
    if (total > this.limits.maxTotalSize) throw sizeError('maxTotalSize', total, this.limits.maxTotalSize, 'the context', {});
  }

  /**
   * Throws {@link ContextSizeError} if setting `namespace.key` to `value` would break a limit.
   * Nothing is modified.
   */
  checkWrite(ctx: AgentContext, namespace: Namespace, key: string, value: unknown): void {
    const next: Record<string, unknown> = { ...(ctx[namespace] as unknown as Record<string, unknown>) };
    if (value === undefined) delete next[key];
    else next[key] = value;
    this.checkArrays(namespace, next);
    const { total, namespaces } = measure(ctx);
    const nsSize = jsonByteLength(next);
    if (nsSize > this.limits.maxNamespaceSize) {
      throw sizeError('maxNamespaceSize', nsSize, this.limits.maxNamespaceSize, `namespace ${namespace}`, { namespace, key });
    }
    const newTotal = total - namespaces[namespace] + nsSize;
    if (newTotal > this.limits.maxTotalSize) {
      throw sizeError('maxTotalSize', newTotal, this.limits.maxTotalSize, 'the context', { namespace, key });
    }
  }

  /** True if any inline artifact exceeds `maxInlineArtifactSize` or all together exceed the threshold. */
  shouldExternalizeArtifacts(ctx: AgentContext): boolean {
    let total = 0;
    for (const artifact of ctx.retrieval.artifacts) {
      if (artifact.ref !== undefined) continue;
      const size = jsonByteLength(artifact.content);
      if (size > this.limits.maxInlineArtifactSize) return true;
      total += size;
    }
    return total > this.limits.artifactExternalizationThreshold;
  }

  private checkArrays(namespace: Namespace, fields: Record<string, unknown>): void {
    for (const [key, value] of Object.entries(fields)) {
      if (Array.isArray(value) && value.length > this.limits.maxArrayItems) {
        throw sizeError('maxArrayItems', value.length, this.limits.maxArrayItems, `${namespace}.${key}`, { namespace, key });
      }
    }
  }
}
