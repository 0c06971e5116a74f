import { invalidParams } from '../errors.ts';
import { canonicalJson } from './hash.ts';
import { isPlainObject, parseSafeJson, assertSafeJson } from './json-safety.ts';
import { MigrationRegistry } from './migrations.ts';
import type { AgentContext } from './model.ts';
import { CONTEXT_SCHEMA_VERSION, validateAgentContext } from './model.ts';

/** Options of {@link deserializeContext}. */
export interface DeserializeOptions {
  /** Migrations for older schema versions; without one, only the current version loads. */
  migrations?: MigrationRegistry;
}

/**
 * Validates a context and writes it as canonical JSON (sorted keys), version included, so the
 * same context always yields the same text and checksums over it are stable.
 */
export function serializeContext(context: AgentContext): string {
  validateAgentContext(context);
  return canonicalJson(context);
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
  if (value.version === CONTEXT_SCHEMA_VERSION) return validateAgentContext(typeof data === 'string' ? value : structuredClone(value));
  const registry = options.migrations ?? new MigrationRegistry();
  return validateAgentContext(registry.migrate(value, CONTEXT_SCHEMA_VERSION));
}

/** A deep copy that shares nothing with the original (spec `Clone`). */
export function cloneContext(context: AgentContext): AgentContext {
  return structuredClone(context);
}
