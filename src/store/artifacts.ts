import { expectArray, expectBytes, expectMethods, expectObject, expectString, kindOf } from '../args.ts';
import { CtxgateError, invalidParams, isCtxgateError } from '../errors.ts';
import type { ArtifactStore } from './context-store.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { isSha256Hex, sha256Hex, utf8Encode } from './hash.ts';
import { cloneOrRefuse } from './json-data.ts';
import { parseSafeJson } from './json-safety.ts';
import type { ContextLimits } from './limits.ts';
import { resolveLimits } from './limits.ts';
import type { AgentContext, Artifact, ArtifactRef } from './model.ts';
import { readOnlyContext, writeMember } from './write-member.ts';

/** Throws INVALID_PARAMS unless `key` is a lowercase hex SHA-256. */
export function assertArtifactKey(key: unknown): asserts key is string {
  if (!isSha256Hex(key)) throw invalidParams('key', 'must be a lowercase hex SHA-256 (64 characters), as returned by putArtifact');
}

/**
 * The key under which `putArtifact` stores `data`: its lowercase hex SHA-256. Every backend's
 * `putArtifact` starts here, so all of them refuse alike, before anything is written:
 * INVALID_PARAMS (`data`) unless `data` is a Uint8Array (a Buffer is one).
 */
export async function artifactKey(data: unknown): Promise<string> {
  expectBytes(data, 'data');
  return sha256Hex(data);
}

/** Verifies that `data` hashes to `key`; CORRUPT_RECORD otherwise. */
export async function verifyArtifact(key: string, data: Uint8Array): Promise<Uint8Array> {
  if ((await sha256Hex(data)) !== key) {
    throw new CtxgateError('CORRUPT_RECORD', `artifact ${key} is damaged (its bytes no longer match its hash); store it again`, {
      details: { key, reason: 'checksum mismatch' },
    });
  }
  return data;
}

/** Bytes stored for an artifact's content: its RFC 8785 canonical JSON, UTF-8. */
export function artifactBytes(content: unknown): Uint8Array<ArrayBuffer> {
  return utf8Encode(canonicalize(content));
}

/**
 * Checks what the artifact functions read of a context: an object whose `retrieval.artifacts` is
 * an array of objects. INVALID_PARAMS naming the first part that is not (`context.retrieval`, …).
 * The rest of the context is not looked at here; validateAgentContext checks all of it.
 */
function checkArtifactsOf(context: unknown, field: string): asserts context is AgentContext {
  expectObject(context, field);
  const retrieval = context.retrieval;
  expectObject(retrieval, `${field}.retrieval`);
  const artifacts = retrieval.artifacts;
  expectArray(artifacts, `${field}.retrieval.artifacts`);
  for (let i = 0; i < artifacts.length; i++) expectObject(artifacts[i], `${field}.retrieval.artifacts[${i}]`);
}

/** INVALID_PARAMS unless `store` has the artifact store method `method`. */
function checkStore(store: unknown, method: keyof ArtifactStore): asserts store is ArtifactStore {
  expectMethods(store, 'store', [method], 'an ArtifactStore');
}

/** Result of {@link externalizeArtifacts}. */
export interface ExternalizeResult {
  /** Ids of the artifacts moved to the store, in context order. */
  externalized: string[];
  /** Bytes removed from the context. */
  bytesMoved: number;
}

/**
 * Moves large artifact contents from `retrieval.artifacts` into `store`, leaving a {@link ArtifactRef}
 * inline (spec `ExternalizeArtifacts`). Every artifact above `maxInlineArtifactSize` moves; then, while
 * inline artifacts together exceed `artifactExternalizationThreshold`, the largest remaining one
 * moves. An artifact with neither content nor ref (the spec's nil Content) has nothing to move and
 * is left as it is.
 *
 * The context is changed only after every put succeeded, so a failure leaves it as it was:
 * INVALID_PARAMS (`context.retrieval`) before anything is stored if the context is read-only
 * (frozen, as Immer leaves it); STORAGE_FAILURE naming the artifact if `store.putArtifact` throws
 * an error of its own (kept as the cause; a ctxgate error such as QUOTA_EXCEEDED passes through) or
 * returns anything but the artifact's key, the lowercase hex SHA-256 of its bytes, which the
 * reference must hold to prove its content.
 */
export async function externalizeArtifacts(
  context: AgentContext,
  store: ArtifactStore,
  limits: Partial<ContextLimits> = {},
): Promise<ExternalizeResult> {
  checkArtifactsOf(context, 'context');
  checkStore(store, 'putArtifact');
  const { maxInlineArtifactSize, artifactExternalizationThreshold } = resolveLimits(limits);
  const candidates = context.retrieval.artifacts.map((artifact, index) => {
    const bytes = artifact.ref === undefined && artifact.content !== undefined ? artifactBytes(artifact.content) : undefined;
    return { artifact, index, bytes, move: false };
  });
  let inline = 0;
  for (const c of candidates) {
    if (c.bytes === undefined) continue;
    if (c.bytes.length > maxInlineArtifactSize) c.move = true;
    else inline += c.bytes.length;
  }
  const rest = candidates.filter((c) => c.bytes !== undefined && !c.move).sort((a, b) => (b.bytes?.length ?? 0) - (a.bytes?.length ?? 0) || a.index - b.index);
  for (const c of rest) {
    if (inline <= artifactExternalizationThreshold) break;
    c.move = true;
    inline -= c.bytes?.length ?? 0;
  }
  if (!candidates.some((c) => c.move)) return { externalized: [], bytesMoved: 0 };
  // Refused before any bytes are stored: the write at the end would fail anyway.
  if (!assignable(context.retrieval, 'artifacts')) throw readOnlyContext('context.retrieval');
  const refs = new Map<number, ArtifactRef>();
  let bytesMoved = 0;
  for (const c of candidates) {
    if (!c.move || c.bytes === undefined) continue;
    const sha256 = await putChecked(store, c.bytes, c.artifact.id);
    refs.set(c.index, { sha256, size: c.bytes.length });
    bytesMoved += c.bytes.length;
  }
  const artifacts = context.retrieval.artifacts.map((artifact, index) => {
    const ref = refs.get(index);
    if (ref === undefined) return artifact;
    const { content: _content, ...rest } = artifact;
    return { ...rest, ref };
  });
  writeMember(context.retrieval as unknown as Record<string, unknown>, 'artifacts', artifacts, 'context.retrieval');
  return { externalized: [...refs.keys()].map((i) => artifacts[i]?.id as string), bytesMoved };
}

/**
 * True unless assigning `target[key]` certainly fails: an own data member that is not writable, an
 * own accessor without a setter, or no own member on an object that cannot be extended
 * (Object.freeze does the first). writeMember stays the judge of the write itself; this only
 * saves storing bytes for a context that cannot take the references.
 */
function assignable(target: object, key: string): boolean {
  const own = Object.getOwnPropertyDescriptor(target, key);
  if (own === undefined) return Object.isExtensible(target);
  return 'value' in own ? own.writable === true : own.set !== undefined;
}

/**
 * `store.putArtifact(bytes)` for artifact `id`, checked: its key must be the bytes' own lowercase
 * hex SHA-256, since that is what the reference written into the context claims, and a reference
 * to anything else would lose the content it replaces. Otherwise STORAGE_FAILURE naming the
 * artifact (and only the kind of what came back, never the value); an error the store throws is
 * STORAGE_FAILURE with it as the cause unless it already is a ctxgate error.
 */
async function putChecked(store: ArtifactStore, bytes: Uint8Array, id: unknown): Promise<string> {
  const name = typeof id === 'string' ? `"${id}"` : 'without an id';
  let key: unknown;
  try {
    key = await store.putArtifact(bytes);
  } catch (error) {
    if (isCtxgateError(error)) throw error;
    throw new CtxgateError('STORAGE_FAILURE', `the artifact store failed to store artifact ${name}; the context is unchanged. Retry, and check the artifact store if it persists`, {
      details: { id, operation: 'putArtifact' },
      cause: error,
    });
  }
  if (!isSha256Hex(key) || key !== (await sha256Hex(bytes))) {
    const got = isSha256Hex(key) ? 'the key of other bytes' : typeof key === 'string' ? 'a string that is not a lowercase hex SHA-256' : kindOf(key);
    throw new CtxgateError(
      'STORAGE_FAILURE',
      `the artifact store returned ${got} for artifact ${name} instead of its key (the lowercase hex SHA-256 of the bytes); the context is unchanged. Fix the store's putArtifact`,
      { details: { id, operation: 'putArtifact', got } },
    );
  }
  return key;
}

/**
 * The content of an artifact, inline or fetched from `store` by its reference (transparent
 * retrieval). NOT_FOUND if the store lacks it; CORRUPT_RECORD if the bytes do not match;
 * INVALID_PARAMS if `artifact` is not an object, its `ref` is not an object with a SHA-256 key, or
 * `store` has no `getArtifact` (checked only when the content is in the store).
 */
export async function loadArtifactContent(artifact: Artifact, store: ArtifactStore): Promise<unknown> {
  expectObject(artifact, 'artifact');
  if (artifact.ref === undefined) return artifact.content;
  expectObject(artifact.ref, 'artifact.ref');
  expectString(artifact.id, 'artifact.id');
  checkStore(store, 'getArtifact');
  const { sha256, size } = artifact.ref;
  assertArtifactKey(sha256);
  const bytes = await store.getArtifact(sha256);
  if (bytes !== undefined && !(bytes instanceof Uint8Array)) {
    throw new CtxgateError('STORAGE_FAILURE', `the artifact store returned ${kindOf(bytes)} for artifact "${artifact.id}" instead of bytes`, {
      details: { id: artifact.id, key: sha256, got: kindOf(bytes) },
    });
  }
  if (bytes === undefined) {
    throw new CtxgateError('NOT_FOUND', `artifact "${artifact.id}" (${sha256}) is not in the artifact store; store it again or drop the artifact`, {
      details: { id: artifact.id, key: sha256 },
    });
  }
  await verifyArtifact(sha256, bytes);
  if (bytes.length !== size) {
    throw new CtxgateError('CORRUPT_RECORD', `artifact "${artifact.id}" has ${bytes.length} bytes but its reference says ${size}`, {
      details: { id: artifact.id, key: sha256, reason: 'size mismatch' },
    });
  }
  return parseSafeJson(new TextDecoder().decode(bytes), `retrieval.artifacts[${artifact.id}].content`);
}

/**
 * A deep copy of `context` with every externalised artifact's content loaded back inline.
 * INVALID_PARAMS if `context.retrieval.artifacts` is not a list of objects, if the context holds a
 * value that cannot be copied (a function, a symbol), or if `store` has no `getArtifact`.
 */
export async function resolveArtifacts(context: AgentContext, store: ArtifactStore): Promise<AgentContext> {
  checkArtifactsOf(context, 'context');
  checkStore(store, 'getArtifact');
  const copy = copyOf(context, 'context');
  copy.retrieval.artifacts = await Promise.all(
    copy.retrieval.artifacts.map(async (artifact) => {
      if (artifact.ref === undefined) return artifact;
      const content = await loadArtifactContent(artifact, store);
      const { ref: _ref, ...rest } = artifact;
      return { ...rest, content };
    }),
  );
  return copy;
}

/** `structuredClone(value)`, with a value that cannot be cloned reported as INVALID_PARAMS on `field`. */
function copyOf<T>(value: T, field: string): T {
  return cloneOrRefuse(value, field, 'copied', 'a context is plain JSON data');
}
