import { expectObject, expectOptions, expectString, wrongKind } from '../args.ts';
import { ConflictError, CtxgateError, invalidParams } from '../errors.ts';
import { isCtxgateError } from '../errors.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { isSha256Hex, sha256Hex } from './hash.ts';
import { cloneOrRefuse } from './json-data.ts';
import { isPlainObject } from './json-safety.ts';
import type { MigrationRegistry } from './migrations.ts';
import type { ContextLimits } from './limits.ts';
import { DEFAULT_CONTEXT_LIMITS, checkSerializedSize } from './limits.ts';
import type { AgentContext } from './model.ts';
import { CONTEXT_SCHEMA_VERSION } from './model.ts';
import { deserializeContext, serializeContextWithMemos } from './serialize.ts';
import type { LoadedContext } from './context-store.ts';

/**
 * One stored context, the same in every backend. `context` is the canonical JSON text of the
 * context (see `serializeContext`); `checksum` is the SHA-256 of the canonical JSON of
 * `{ context, id, version }`.
 */
export interface StoredRecord {
  /** Context id. */
  id: string;
  /** Store version, 1 after the first save. */
  version: number;
  /** Canonical JSON text of the context. */
  context: string;
  /** Lowercase hex SHA-256 of the canonical record body. */
  checksum: string;
}

/** Longest accepted context id; keeps keys within every backend's key limit (2 KiB in Deno KV and DOs). */
export const MAX_ID_LENGTH = 512;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Throws INVALID_PARAMS unless `id` is a usable context id. */
export function assertContextId(id: unknown, field = 'id'): asserts id is string {
  if (typeof id !== 'string' || id === '' || id.length > MAX_ID_LENGTH) {
    throw invalidParams(field, `must be a non-empty string of at most ${MAX_ID_LENGTH} characters`);
  }
  // The id is part of the RFC 8785 checksum body, and JCS has no form for broken UTF-16.
  if (LONE_SURROGATE.test(id)) throw invalidParams(field, 'contains a lone surrogate, which is not valid Unicode; use well-formed text');
}

/** Throws INVALID_PARAMS unless `version` is a store version (a non-negative safe integer). */
export function assertVersion(version: unknown, field: string): asserts version is number {
  if (!Number.isSafeInteger(version) || (version as number) < 0) {
    throw invalidParams(field, 'must be a non-negative integer: the version from load, or 0 for a new context');
  }
}

/**
 * `save`'s options, each read once. INVALID_PARAMS unless `options` is an object (`options`) whose
 * `expectedVersion` is a store version (`options.expectedVersion`) and whose `signal`, if given, is
 * an AbortSignal (`options.signal`).
 */
export function saveOptions(options: unknown): { expectedVersion: number; signal: AbortSignal | undefined } {
  expectObject(options, 'options');
  const expectedVersion = options.expectedVersion;
  assertVersion(expectedVersion, 'options.expectedVersion');
  const signal = options.signal;
  // By its members, not instanceof, so a signal from another realm (an iframe, a vm context) passes.
  if (signal !== undefined && (signal === null || typeof signal !== 'object' || typeof (signal as { aborted?: unknown }).aborted !== 'boolean')) {
    throw wrongKind('options.signal', 'an AbortSignal', signal);
  }
  return { expectedVersion, signal: signal as AbortSignal | undefined };
}

/**
 * The version a save or delete compares `expectedVersion` with: the stored record's, or 0 if there
 * is none or its version is not a store version (a damaged record restored by importRecord), as
 * the key-value backends count a malformed head, so such a record can be overwritten by a save
 * with expectedVersion 0 or deleted, instead of refusing every write ("at version NaN").
 */
export function storedVersion(record: { version?: unknown } | undefined): number {
  const version = record?.version;
  return Number.isSafeInteger(version) && (version as number) >= 0 ? (version as number) : 0;
}

/**
 * Checks a record handed to `importRecord` before anything is written, and returns it. The record
 * is written verbatim and verified when loaded (a damaged version or checksum is CORRUPT_RECORD
 * then, so a backup can be restored as it is), but what cannot be a stored record at all is refused
 * with INVALID_PARAMS: `record` not an object, `record.id` not a context id, `record.context` or
 * `record.checksum` not a string.
 */
export function importedRecord(record: unknown): StoredRecord {
  expectObject(record, 'record');
  assertContextId(record.id, 'record.id');
  expectString(record.context, 'record.context');
  expectString(record.checksum, 'record.checksum');
  return record as unknown as StoredRecord;
}

/**
 * `structuredClone(record)` for a record to import; a record holding a function or a symbol is
 * INVALID_PARAMS (`record`), without the DataCloneError's message, which quotes the value.
 */
export function cloneImportedRecord(record: StoredRecord): StoredRecord {
  return cloneOrRefuse(record, 'record', 'stored', 'pass a record from exportRecord');
}

/**
 * The `expectedVersion` of `delete`'s options, read once; undefined if there is none (delete
 * whatever version is stored). INVALID_PARAMS unless `options` is an object or undefined
 * (`options`) and `expectedVersion`, if given, is a store version (`options.expectedVersion`).
 */
export function deleteOptions(options: unknown): number | undefined {
  expectOptions(options);
  const expectedVersion = options?.expectedVersion;
  if (expectedVersion !== undefined) assertVersion(expectedVersion, 'options.expectedVersion');
  return expectedVersion;
}

/**
 * The checksum of a record body: SHA-256 of the RFC 8785 text of `{ context, id, version }`.
 * `contextText` is already RFC 8785 output (see `serializeContext`) and the body's member names
 * are already in sorted order, so splicing it between the canonical id and version gives exactly
 * that text without re-parsing a context of up to 10 MB on every save and load. Rejects with
 * INVALID_PARAMS unless `id` and `contextText` are strings; a `version` canonicalize cannot write
 * (NaN) is its UNSUPPORTED_VALUE.
 */
export async function recordChecksum(id: string, version: number, contextText: string): Promise<string> {
  // Checked, since a non-string would be written into the body by its toString (an array's
  // recursing without limit) instead of refused.
  expectString(id, 'id');
  expectString(contextText, 'contextText');
  return sha256Hex(`{"context":${contextText},"id":${canonicalize(id)},"version":${canonicalize(version)}}`);
}

/** What a store checks every context it saves against, from the options it was created with. */
export interface SealRules {
  /** Size limits (spec "Size Management"); the spec's defaults if not given. */
  limits?: Readonly<ContextLimits>;
  /** The store's migrations: a context at a schema version they lead from can be saved. */
  migrations?: MigrationRegistry;
}

/**
 * Validates and serialises `context` into a sealed record for `id` at `version`, refusing, before
 * anything is hashed or written, what the store could not load back or must not hold:
 * INVALID_PARAMS naming the first invalid field; INVALID_PARAMS (`context.version`) for a schema
 * version that is neither the current one nor one `rules.migrations` has a path from (load would
 * refuse it with MIGRATION_FAILED); ContextSizeError if the context breaks one of `rules.limits`
 * (spec: 10 MB total is a hard limit). Sizes come from the serialised text's own record of the
 * context, so the check does not walk or serialise it a second time.
 */
export async function sealRecord(id: string, version: number, context: AgentContext, rules: SealRules = {}): Promise<StoredRecord> {
  const { text, memos } = serializeContextWithMemos(context);
  // Serialising validated the context: its version is a string.
  assertLoadableVersion(context.version, rules.migrations);
  // In the same synchronous step as serialising: the memos describe the context as it is now.
  checkSerializedSize(rules.limits ?? DEFAULT_CONTEXT_LIMITS, context, memos);
  return { id, version, context: text, checksum: await recordChecksum(id, version, text) };
}

/**
 * A schema version quoted in a message: short, of the characters versions are written with. Any
 * other (a long text, quotes, line breaks: not a version but something pasted in its place) is
 * described by its length only.
 */
const QUOTABLE_VERSION = /^[0-9A-Za-z.+_-]{0,40}$/;

/**
 * INVALID_PARAMS (`context.version`) unless a context at schema version `version` can be loaded
 * back: the current version, or one `migrations` has a path from to it. Saving any other would
 * leave a record that every later load refuses.
 */
function assertLoadableVersion(version: string, migrations: MigrationRegistry | undefined): void {
  if (version === CONTEXT_SCHEMA_VERSION) return;
  // A duck-typed registry without path() (not one from any copy of this package) cannot say.
  if (migrations !== undefined && typeof migrations.path !== 'function') return;
  let cause: unknown;
  if (migrations !== undefined) {
    try {
      migrations.path(version, CONTEXT_SCHEMA_VERSION);
      return;
    } catch (error) {
      if (!isCtxgateError(error, 'MIGRATION_FAILED')) throw error;
      cause = error;
    }
  }
  const shown = QUOTABLE_VERSION.test(version) ? `"${version}"` : `of ${version.length} characters`;
  throw new CtxgateError(
    'INVALID_PARAMS',
    `context.version: schema version ${shown} cannot be loaded back by this store, which reads ${CONTEXT_SCHEMA_VERSION}${migrations === undefined ? '' : ' and the versions its migrations lead from'}; set version to "${CONTEXT_SCHEMA_VERSION}" (as createAgentContext does), or create the store with a migration out of this version in options.migrations`,
    { details: { field: 'context.version', expected: CONTEXT_SCHEMA_VERSION }, cause },
  );
}

/** CORRUPT_RECORD for `id`, with the reason in details (never the data). */
export function corruptRecord(id: string, reason: string, cause?: unknown): CtxgateError {
  return new CtxgateError(
    'CORRUPT_RECORD',
    `stored context "${id}" is damaged (${reason}) and was not loaded; restore it from a backup or delete it`,
    { details: { id, reason }, cause },
  );
}

/** ConflictError for a version mismatch. */
export function versionConflict(id: string, expected: number, actual: number): ConflictError {
  return new ConflictError(
    `context "${id}" is at version ${actual}, not the expected ${expected}; another writer saved first. Load it again, reapply your changes and save`,
    { details: { id, expected, actual } },
  );
}

/** True if `value` has the shape of a {@link StoredRecord}. */
export function isStoredRecord(value: unknown): value is StoredRecord {
  return (
    isPlainObject(value) &&
    typeof value.id === 'string' &&
    Number.isSafeInteger(value.version) &&
    (value.version as number) > 0 &&
    typeof value.context === 'string' &&
    isSha256Hex(value.checksum)
  );
}

/**
 * Verifies a stored record (shape, id, checksum) and returns its context, migrated and validated.
 * Damage of any kind is CORRUPT_RECORD; a migration that is missing, throws or returns an invalid
 * context stays MIGRATION_FAILED, since the record itself is intact.
 */
export async function openRecord(raw: unknown, id: string, migrations?: MigrationRegistry): Promise<LoadedContext> {
  if (!isStoredRecord(raw)) throw corruptRecord(id, 'malformed record');
  if (raw.id !== id) throw corruptRecord(id, 'record belongs to another id');
  if ((await recordChecksum(raw.id, raw.version, raw.context)) !== raw.checksum) throw corruptRecord(id, 'checksum mismatch');
  try {
    const context = deserializeContext(raw.context, migrations === undefined ? {} : { migrations });
    return { context, version: raw.version };
  } catch (error) {
    if (isCtxgateError(error, 'MIGRATION_FAILED')) throw error;
    throw corruptRecord(id, 'not a valid AgentContext', error);
  }
}

/** Rejects with the signal's reason if it is aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw signal.reason ?? new DOMException('The save was aborted', 'AbortError');
}
