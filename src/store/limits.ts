import { expectArray, expectObject, expectOptions, expectString, kindOf } from '../args.ts';
import { ContextSizeError, invalidParams } from '../errors.ts';
import type { NamespaceMemo } from './context-memo.ts';
import { currentMemos } from './context-memo.ts';
import { memberNameBytes } from './json-exact.ts';
import { measureFailure } from './json-fault.ts';
import { assertWalkDepth, isPlainObject } from './json-safety.ts';
import { jsonByteLength, tapeJsonBytes, tapeMaxJsonBytes } from './json-size.ts';
import type { AgentContext, Artifact, Namespace } from './model.ts';
import { NAMESPACES, expectNamespace } from './model.ts';
import { canonicalBytes } from './namespace-pass.ts';

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

/**
 * Merges partial limits over the defaults, refusing non-positive or non-integer values with
 * INVALID_PARAMS naming the limit under `field` (`limits.maxArrayItems`).
 */
export function resolveLimits(limits: Partial<ContextLimits> = {}, field = 'limits'): ContextLimits {
  const out = { ...DEFAULT_CONTEXT_LIMITS, ...limits };
  for (const [name, value] of Object.entries(out)) {
    if (!Number.isSafeInteger(value) || value <= 0) throw invalidParams(`${field}.${name}`, 'must be a positive integer');
  }
  return out;
}

/**
 * The `limits` of a store's options, read once and merged over the spec's defaults (as
 * {@link ContextSizeChecker} takes them): INVALID_PARAMS unless `options` is an object or undefined
 * (`options`), `limits` an object or undefined (`options.limits`; a number would otherwise be spread
 * as nothing and silently leave the defaults) and each limit given a positive integer
 * (`options.limits.maxTotalSize`, …).
 */
export function storeLimits(options: unknown): Readonly<ContextLimits> {
  expectOptions(options);
  const limits: unknown = options?.limits;
  expectOptions(limits, 'options.limits');
  return Object.freeze(resolveLimits(limits as Partial<ContextLimits> | undefined, 'options.limits'));
}

export { jsonByteLength } from './json-size.ts';

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

/** Sizes of a context's namespaces and of the whole context, in bytes of UTF-8 JSON. */
interface Sizes {
  total: number;
  namespaces: Record<Namespace, number>;
}

/**
 * The memos of `ctx`'s namespaces (see context-memo.ts): a namespace proven unchanged since it was
 * last recorded keeps what is known about it (its size among them); proving that walks the data
 * once without writing text, several times cheaper than stringifying. A namespace recorded now
 * comes with the upper bound of its size, and with its exact size too if `exact` (counted in
 * the recording walk). Anything but an object has no memos to keep.
 */
function memosOf(ctx: AgentContext, exact: boolean): NamespaceMemo[] {
  return typeof ctx === 'object' && ctx !== null ? currentMemos(ctx, exact) : NAMESPACES.map(() => ({ tape: undefined }));
}

/**
 * Bytes of the context's JSON outside its namespaces: the version, the ids and the keys, with each
 * namespace present stood in for by nothing (its size is added from its memo).
 */
function wrapperBytes(ctx: AgentContext): number {
  // Each namespace present is stood in for by `0` (1 byte), which is taken off again.
  const wrapper: Record<string, unknown> = { ...ctx };
  let present = 0;
  for (const ns of NAMESPACES) {
    if (ctx[ns] === undefined) continue;
    wrapper[ns] = 0;
    present++;
  }
  return jsonByteLength(wrapper, 'ctx') - present;
}

/**
 * The sizes of `ctx`'s namespaces, whose memos are `memos`, and their sum. Exact if `exact`;
 * otherwise a namespace whose exact size is not known yet counts at its upper bound (json-size.ts),
 * which reads none of its strings' characters: enough to show that no limit is reached.
 */
function measure(ctx: AgentContext, memos: readonly NamespaceMemo[], exact: boolean): { sum: number; namespaces: Record<Namespace, number> } {
  const namespaces = {} as Record<Namespace, number>;
  let sum = 0;
  for (let i = 0; i < NAMESPACES.length; i++) {
    const ns = NAMESPACES[i]!;
    const size = namespaceBytes(memos[i]!, ctx[ns], exact, ns);
    namespaces[ns] = size;
    sum += size;
  }
  return { sum, namespaces };
}

/** The exact sizes of `ctx`: each namespace and the whole context, and the memos they came from. */
function exactSizes(ctx: AgentContext): Sizes & { memos: NamespaceMemo[] } {
  const memos = memosOf(ctx, true);
  const { sum, namespaces } = measure(ctx, memos, true);
  return { total: wrapperBytes(ctx) + sum, namespaces, memos };
}

/**
 * Bytes of the JSON of `ns`, a plain object of plain JSON data whose JSON is `nsBytes` bytes, once
 * member `key` is set to `value` (or removed, if undefined): the old member's bytes taken out and the
 * new member's put in, so only that member is counted, not the whole namespace again.
 */
function bytesWithMember(ns: Record<string, unknown>, nsBytes: number, key: string, value: unknown, field: string): number {
  // Members JSON writes: own enumerable ones not set to undefined (plain data holds nothing else JSON leaves out).
  let written = 0;
  for (const name in ns) if (Object.hasOwn(ns, name) && ns[name] !== undefined) written++;
  let bytes = nsBytes;
  // A member JSON writes now: own and enumerable (a non-enumerable one is not in the JSON).
  const old = Object.prototype.propertyIsEnumerable.call(ns, key) ? ns[key] : undefined;
  if (old !== undefined) {
    // The name, its colon, the value, and a comma if it had a neighbour.
    bytes -= memberNameBytes(key) + 1 + jsonByteLength(old, `${field}.${key}`, 2) + (written > 1 ? 1 : 0);
    written--;
  }
  // The new member as JSON writes it, name and colon included, less the braces: stringified under
  // its own key, as a toJSON(key) would be called inside the namespace; nothing if JSON leaves it
  // out (undefined, a function).
  const member = jsonByteLength({ [key]: value }, field, 1) - 2;
  if (member > 0) bytes += member + (written > 0 ? 1 : 0);
  return bytes;
}

/** Bytes of namespace `ns`, `value`, as UTF-8 JSON (or its upper bound, unless `exact`), kept in its memo. */
function namespaceBytes(memo: NamespaceMemo, value: unknown, exact: boolean, ns: Namespace): number {
  if (memo.jsonBytes !== undefined) return memo.jsonBytes;
  // Not plain JSON data (no tape): JSON.stringify's own answer (or its error).
  if (memo.tape === undefined) return (memo.jsonBytes = jsonByteLength(value, `ctx.${ns}`, 1));
  if (!exact) return (memo.maxJsonBytes ??= tapeMaxJsonBytes(memo.tape));
  // A namespace serialised before: its JSON size is its canonical text's.
  return (memo.jsonBytes = memo.canonicalParts !== undefined ? canonicalBytes(memo.canonicalParts) : tapeJsonBytes(memo.tape));
}

/**
 * Sizes and counts of a context: total, per namespace, array items, externalised artifacts.
 * INVALID_PARAMS (`ctx`) unless `ctx` is an object, and naming the place if it is nested deeper than
 * MAX_WALK_DEPTH (200) levels (json-safety.ts); UNSUPPORTED_VALUE if it holds a value JSON cannot
 * write (a BigInt, a cycle), whose size is therefore not defined.
 */
export function getStats(ctx: AgentContext): ContextStats {
  expectObject(ctx, 'ctx');
  try {
    return stats(ctx);
  } catch (error) {
    // JSON.stringify's refusals (BigInt, cycles) are TypeErrors; nothing else here throws one.
    throw measureFailure(error, { ctx });
  }
}

/**
 * The inline artifacts of `ctx` (an object), checked as leniently as the rest of the context is
 * measured: a missing `retrieval` or `artifacts` is none; INVALID_PARAMS unless `artifacts` is an
 * array, and for an item with no members at all (null, undefined).
 */
function artifactsOf(ctx: AgentContext): readonly (Partial<Artifact> | null | undefined)[] {
  const artifacts: unknown = ctx.retrieval?.artifacts ?? [];
  expectArray(artifacts, 'ctx.retrieval.artifacts');
  return artifacts as (Partial<Artifact> | null | undefined)[];
}

/** INVALID_PARAMS naming item `i` of the artifacts, unless it has members (it is not null or undefined). */
function checkArtifactItem(artifact: Partial<Artifact> | null | undefined, i: number): asserts artifact is Partial<Artifact> {
  if (artifact === null || artifact === undefined) {
    throw invalidParams(`ctx.retrieval.artifacts[${i}]`, `must be an artifact (got ${kindOf(artifact)}).`, { expected: 'an object', got: kindOf(artifact) });
  }
}

function stats(ctx: AgentContext): ContextStats {
  const { total, namespaces } = exactSizes(ctx);
  const arrayCounts: Record<string, number> = {};
  for (const ns of NAMESPACES) {
    const fields = (ctx[ns] ?? {}) as unknown as Record<string, unknown>;
    for (const [key, value] of Object.entries(fields)) if (Array.isArray(value)) arrayCounts[key] = value.length;
  }
  let externalizedCount = 0;
  let inlineArtifactSize = 0;
  const artifacts = artifactsOf(ctx);
  for (let i = 0; i < artifacts.length; i++) {
    // Measured leniently, as the rest of the context: only an item with no members at all fails.
    const artifact = artifacts[i];
    checkArtifactItem(artifact, i);
    if (artifact.ref !== undefined) externalizedCount++;
    else inlineArtifactSize += jsonByteLength(artifact.content, `ctx.retrieval.artifacts[${i}].content`, 4);
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
 *
 * Arguments of the wrong kind are INVALID_PARAMS naming the parameter (`ctx`, `namespace`, `key`),
 * checked at entry in constant time; a context that is an object but not a valid context is still
 * measured as it is. A context (or a written value) holding what JSON cannot write (a BigInt, a
 * cycle) has no size: UNSUPPORTED_VALUE, diagnosed only after the count failed. One nested deeper
 * than MAX_WALK_DEPTH (200) levels from the context's root (json-safety.ts) is INVALID_PARAMS naming
 * the place (`ctx…`, or `value…` for a written value), the same in every runtime. Nothing is modified.
 */
export class ContextSizeChecker {
  /** The limits in force. */
  readonly limits: Readonly<ContextLimits>;

  /** Creates a checker; missing limits take the spec's defaults. */
  constructor(limits: Partial<ContextLimits> = {}) {
    this.limits = Object.freeze(resolveLimits(limits));
  }

  /**
   * Throws {@link ContextSizeError} if the context as it stands breaks a limit. INVALID_PARAMS
   * (`ctx`) unless `ctx` is an object; UNSUPPORTED_VALUE if it holds a BigInt or a cycle.
   */
  check(ctx: AgentContext): void {
    expectObject(ctx, 'ctx');
    checkSerializedSize(this.limits, ctx, undefined);
  }

  /**
   * Throws {@link ContextSizeError} if setting `namespace.key` to `value` would break a limit
   * (`undefined` removes the member). Nothing is modified. INVALID_PARAMS unless `ctx` is an
   * object, `namespace` one of the seven namespaces and `key` a string; UNSUPPORTED_VALUE if the
   * context or `value` holds a BigInt or a cycle.
   */
  checkWrite(ctx: AgentContext, namespace: Namespace, key: string, value: unknown): void {
    expectObject(ctx, 'ctx');
    expectNamespace(namespace);
    expectString(key, 'key');
    try {
      checkContextWrite(this.limits, ctx, namespace, key, value);
    } catch (error) {
      // The value goes `namespace.key`, two levels below the context's root: walked for depth only
      // once measuring failed, and named before the context.
      assertWalkDepth(value, 'value', 2);
      throw measureFailure(error, { value, ctx });
    }
  }

  /**
   * True if any inline artifact exceeds `maxInlineArtifactSize` or all together exceed the
   * threshold. INVALID_PARAMS unless `ctx` is an object whose `retrieval.artifacts`, if present, is
   * an array without null or undefined items (named `ctx.retrieval.artifacts[i]`); UNSUPPORTED_VALUE
   * if an artifact's content holds a BigInt or a cycle.
   */
  shouldExternalizeArtifacts(ctx: AgentContext): boolean {
    expectObject(ctx, 'ctx');
    const artifacts = artifactsOf(ctx);
    let total = 0;
    for (let i = 0; i < artifacts.length; i++) {
      const artifact = artifacts[i];
      checkArtifactItem(artifact, i);
      if (artifact.ref !== undefined) continue;
      let size: number;
      try {
        size = jsonByteLength(artifact.content, `ctx.retrieval.artifacts[${i}].content`, 4);
      } catch (error) {
        throw measureFailure(error, { [`ctx.retrieval.artifacts[${i}].content`]: artifact.content });
      }
      if (size > this.limits.maxInlineArtifactSize) return true;
      total += size;
    }
    return total > this.limits.artifactExternalizationThreshold;
  }
}

/**
 * {@link ContextSizeChecker.check} of a context a store is saving, right after `serializeContext`
 * wrote it, with the same errors: ContextSizeError if it breaks one of `limits`. `memos` are the
 * memos serialising left for each namespace, in NAMESPACES order, when it took the per-namespace
 * path (see serializeContextWithMemos): they hold each namespace's tape and canonical text, so
 * the sizes are counted from what serialising recorded, with no further walk of the context (the
 * exact size of a namespace is its canonical text's). They must describe the context as it is now:
 * pass them in the same synchronous step as the serialising, before any await. Without them (the
 * context took the whole-context path), the context is measured as `check` measures it.
 */
export function checkSerializedSize(limits: Readonly<ContextLimits>, ctx: AgentContext, memos: readonly NamespaceMemo[] | undefined): void {
  try {
    checkContext(limits, ctx, memos);
  } catch (error) {
    throw measureFailure(error, { ctx });
  }
}

// The checks behind the methods: module functions, not methods, so the only entry points are the
// methods above, which check their arguments first (these trust them, and stay as fast as they were).

/**
 * {@link ContextSizeChecker.check} of `ctx`, an object, against `limits`. `memos`, if given, must be
 * the memos of `ctx`'s namespaces as they are now (see {@link checkSerializedSize}).
 */
function checkContext(limits: Readonly<ContextLimits>, ctx: AgentContext, memos: readonly NamespaceMemo[] = memosOf(ctx, false)): void {
  // Upper bounds first (or exact sizes where known): where no bound reaches a limit, no exact size
  // does, and counting exactly would read every character of every string. Otherwise the exact
  // sizes decide (and are reported).
  let measured = measure(ctx, memos, false);
  // The wrapper is counted once, exactly, whichever sizes decide.
  const wrapper = wrapperBytes(ctx);
  if (!within(limits, wrapper + measured.sum, measured.namespaces)) measured = measure(ctx, memos, true);
  const namespaces = measured.namespaces;
  const total = wrapper + measured.sum;
  for (const ns of NAMESPACES) {
    checkArrays(limits, ns, (ctx[ns] ?? {}) as unknown as Record<string, unknown>);
    if (namespaces[ns] > limits.maxNamespaceSize) {
      throw sizeError('maxNamespaceSize', namespaces[ns], limits.maxNamespaceSize, `namespace ${ns}`, { namespace: ns });
    }
  }
  if (total > limits.maxTotalSize) throw sizeError('maxTotalSize', total, limits.maxTotalSize, 'the context', {});
}

/** {@link ContextSizeChecker.checkWrite} of checked arguments against `limits`. */
function checkContextWrite(limits: Readonly<ContextLimits>, ctx: AgentContext, namespace: Namespace, key: string, value: unknown): void {
  const next: Record<string, unknown> = { ...(ctx[namespace] as unknown as Record<string, unknown>) };
  if (value === undefined) delete next[key];
  else next[key] = value;
  checkArrays(limits, namespace, next);
  const { total, namespaces, memos } = exactSizes(ctx);
  // A namespace of plain JSON data (it has a tape) changes by one member, counted alone; anything
  // else (a toJSON, a Date), or a key that assignment treats specially, is sized by JSON.stringify
  // of the whole namespace as it would be.
  const current: unknown = ctx[namespace];
  const plain = isPlainObject(current) && memos[NAMESPACES.indexOf(namespace)]?.tape !== undefined && key !== '__proto__';
  const nsSize = plain ? bytesWithMember(current, namespaces[namespace], key, value, `ctx.${namespace}`) : jsonByteLength(next, `ctx.${namespace}`, 1);
  if (nsSize > limits.maxNamespaceSize) {
    throw sizeError('maxNamespaceSize', nsSize, limits.maxNamespaceSize, `namespace ${namespace}`, { namespace, key });
  }
  const newTotal = total - namespaces[namespace] + nsSize;
  if (newTotal > limits.maxTotalSize) {
    throw sizeError('maxTotalSize', newTotal, limits.maxTotalSize, 'the context', { namespace, key });
  }
}

/** True if no namespace is over `maxNamespaceSize` and the total is not over `maxTotalSize`. */
function within(limits: Readonly<ContextLimits>, total: number, namespaces: Record<Namespace, number>): boolean {
  for (const ns of NAMESPACES) if (namespaces[ns] > limits.maxNamespaceSize) return false;
  return total <= limits.maxTotalSize;
}

/** Throws {@link ContextSizeError} if an array member of `fields` (namespace `namespace`) has more than `maxArrayItems` items. */
function checkArrays(limits: Readonly<ContextLimits>, namespace: Namespace, fields: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(fields)) {
    if (Array.isArray(value) && value.length > limits.maxArrayItems) {
      throw sizeError('maxArrayItems', value.length, limits.maxArrayItems, `${namespace}.${key}`, { namespace, key });
    }
  }
}
