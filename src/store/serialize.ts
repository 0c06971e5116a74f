import { CtxgateError, invalidParams, isCtxgateError } from '../errors.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { copyJson } from './json-data.ts';
import { isPlainObject, parseSafeJson, assertSafeJson } from './json-safety.ts';
import { MigrationRegistry } from './migrations.ts';
import type { AgentContext } from './model.ts';
import { CONTEXT_SCHEMA_VERSION, validateAgentContext, validateAgentContextSchema } from './model.ts';

/** Options of {@link deserializeContext}. */
export interface DeserializeOptions {
  /** Migrations for older schema versions; without one, only the current version loads. */
  migrations?: MigrationRegistry;
}

/**
 * Validates a context and writes it as RFC 8785 canonical JSON (the same canonicaliser the
 * fingerprints use), version included, so the same context always yields the same text and
 * checksums over it are stable.
 */
export function serializeContext(context: AgentContext): string {
  validateAgentContext(context);
  return canonicalContextText(context);
}

/**
 * RFC 8785 text of data that already passed validation. The one thing validation lets through
 * that JCS refuses is a string with a lone surrogate (not valid Unicode); it is reported as
 * INVALID_PARAMS on its field, like every other refusal of a context.
 */
export function canonicalContextText(context: AgentContext): string {
  try {
    return canonicalize(context);
  } catch (error) {
    if (!isCtxgateError(error, 'UNSUPPORTED_VALUE')) throw error;
    const path = typeof error.details.path === 'string' ? error.details.path : '$';
    const field = `context${path.slice(1).replace(/ \(member name\)$/, '')}`;
    throw new CtxgateError('INVALID_PARAMS', `${field}: contains a lone surrogate, which is not valid Unicode and cannot be stored; repair or drop the text`, {
      details: { field },
      cause: error,
    });
  }
}

/**
 * Reads a context from JSON text (or already-parsed data): refuses forbidden keys, migrates older
 * schema versions to {@link CONTEXT_SCHEMA_VERSION}, then validates. Throws INVALID_PARAMS naming
 * the bad field, or MIGRATION_FAILED when no migration path exists.
 */
export function deserializeContext(data: string | unknown, options: DeserializeOptions = {}): AgentContext {
  const value = typeof data === 'string' ? parseSafeJson(data, 'context') : data;
  if (typeof data !== 'string') assertSafeJson(value, 'context');
  if (!isPlainObject(value) || typeof value.version !== 'string') {
    throw invalidParams('context.version', 'must be a string; this does not look like a serialised AgentContext');
  }
  // Already walked for forbidden keys and non-JSON values above; only the schema is left to check.
  if (value.version === CONTEXT_SCHEMA_VERSION) return validateAgentContextSchema(typeof data === 'string' ? value : copyJson(value));
  const registry = options.migrations ?? new MigrationRegistry();
  return validateAgentContext(registry.migrate(value, CONTEXT_SCHEMA_VERSION));
}

/** A deep copy that shares nothing with the original (spec `Clone`). */
export function cloneContext(context: AgentContext): AgentContext {
  return copyJson(context);
}
