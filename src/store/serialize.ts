import { CtxgateError, invalidParams, isCtxgateError } from '../errors.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { copyJson } from './json-data.ts';
import { namespaceMemos } from './context-memo.ts';
import { assertSafeJsonMember, isPlainObject, parseSafeJson, assertSafeJson } from './json-safety.ts';
import { MigrationRegistry } from './migrations.ts';
import type { AgentContext, Namespace } from './model.ts';
import { CONTEXT_SCHEMA_VERSION, NAMESPACES, namespaceSchemaAccepts, validateAgentContext, validateAgentContextSchema } from './model.ts';

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
  const memos = isContextShaped(context) ? namespaceMemos(context) : undefined;
  if (memos === undefined) {
    validateAgentContext(context);
    return canonicalContextText(context);
  }
  // Only namespaces that changed since they last passed are checked again; a namespace that does
  // not pass (or a text that cannot be written) sends the whole context down the full path, which
  // reports exactly the error a whole-context check always reported.
  try {
    for (let i = 0; i < NAMESPACES.length; i++) {
      const memo = memos[i]!;
      if (memo.valid) continue;
      const ns = NAMESPACES[i]!;
      assertSafeJsonMember(context, context[ns], `context.${ns}`);
      if (!namespaceSchemaAccepts(ns, context[ns])) throw new CtxgateError('INVALID_PARAMS', 'rechecked below');
      memo.valid = true;
    }
    let text = '{';
    for (const name of TOP_LEVEL_ORDER) {
      const i = NAMESPACES.indexOf(name as Namespace);
      const memberText = i < 0 ? canonicalize(context.version) : (memos[i]!.canonical ??= canonicalize(context[NAMESPACES[i]!]));
      text += `${text.length === 1 ? '' : ','}"${name}":${memberText}`;
    }
    return `${text}}`;
  } catch (error) {
    if (!isCtxgateError(error)) throw error;
    validateAgentContext(context);
    return canonicalContextText(context);
  }
}

/** The context's member names in RFC 8785 order (none of them needs escaping). */
const TOP_LEVEL_ORDER: readonly string[] = ['version', ...NAMESPACES].sort();

/**
 * True if `context` is a plain object with exactly the eight members of a context and a string
 * version: then the whole-context checks are the namespace checks plus nothing, and its RFC 8785
 * text is the namespaces' texts in sorted member order.
 */
function isContextShaped(context: unknown): context is AgentContext {
  if (!isPlainObject(context) || typeof context.version !== 'string') return false;
  const keys = Object.keys(context);
  if (keys.length !== TOP_LEVEL_ORDER.length) return false;
  for (const key of keys) if (!TOP_LEVEL_ORDER.includes(key) || context[key] === undefined) return false;
  return true;
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
