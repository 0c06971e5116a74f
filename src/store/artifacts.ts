import { expectArray, expectBytes, expectMethods, expectObject, expectString, kindOf } from '../args.ts';
import { CtxgateError, invalidParams } from '../errors.ts';
import type { ArtifactStore } from './context-store.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { isSha256Hex, sha256Hex, utf8Encode } from './hash.ts';
import { cloneOrRefuse } from './json-data.ts';
import { parseSafeJson } from './json-safety.ts';
import type { ContextLimits } from './limits.ts';
import { resolveLimits } from './limits.ts';
import type { AgentContext, Artifact, ArtifactRef } from './model.ts';

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
 * moves. The context is changed only after every put succeeded, so a failing store leaves it as it was.
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
    const bytes = artifact.ref === undefined ? artifactBytes(artifact.content) : undefined;
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
  const refs = new Map<number, ArtifactRef>();
  let bytesMoved = 0;
  for (const c of candidates) {
    if (!c.move || c.bytes === undefined) continue;
    const sha256 = await store.putArtifact(c.bytes);
    refs.set(c.index, { sha256, size: c.bytes.length });
    bytesMoved += c.bytes.length;
  }
  if (refs.size === 0) return { externalized: [], bytesMoved: 0 };
  context.retrieval.artifacts = context.retrieval.artifacts.map((artifact, index) => {
    const ref = refs.get(index);
    if (ref === undefined) return artifact;
    const { content: _content, ...rest } = artifact;
    return { ...rest, ref };
  });
  return { externalized: [...refs.keys()].map((i) => context.retrieval.artifacts[i]?.id as string), bytesMoved };
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
