import { expectMethods, expectOptions } from '../args.ts';
import { CtxgateError, invalidParams, isCtxgateError } from '../errors.ts';
import { canonicalize } from '../fingerprint/canonicalize.ts';
import { copyJson } from './json-data.ts';
import type { NamespaceMemo } from './context-memo.ts';
import { provenMemo, rememberMemo } from './context-memo.ts';
import { isPlainObject, parseJson, assertSafeJson } from './json-safety.ts';
import { MigrationRegistry } from './migrations.ts';
import type { AgentContext, Namespace } from './model.ts';
import { CONTEXT_SCHEMA_VERSION, NAMESPACES, namespaceSchema, validateAgentContext, validateAgentContextSchema } from './model.ts';
import { checkNamespace, passNamespace } from './namespace-pass.ts';
import { planOf } from './schema-plan.ts';

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
  return serializeContextWithMemos(context).text;
}

/**
 * {@link serializeContext}, also returning the memo of each namespace (in NAMESPACES order) when
 * the context took the per-namespace path: each holds the namespace's tape and canonical text as
 * they are at return, so a store can size-check what it is about to write from them
 * (`checkSerializedSize`) instead of walking the context again. Undefined when the context took
 * the whole-context path.
 */
export function serializeContextWithMemos(context: AgentContext): { text: string; memos: NamespaceMemo[] | undefined } {
  if (!isContextShaped(context)) {
    validateAgentContext(context);
    return { text: canonicalContextText(context), memos: undefined };
  }
  // Per namespace: the remembered text if the namespace is proven unchanged since it last passed
  // (context-memo.ts), else one walk that checks it, records it and builds its text
  // (namespace-pass.ts). A namespace that walk is not sure about sends the whole context down the
  // full path, which accepts it or reports exactly the error a whole-context check always reported.
  const memos: NamespaceMemo[] = [];
  for (let i = 0; i < NAMESPACES.length; i++) {
    const ns = NAMESPACES[i]!;
    const known = provenMemo(context, i);
    if (known?.valid === true && known.canonical !== undefined) {
      memos.push(known);
      continue;
    }
    const passed = passNamespace(planOf(namespaceSchema(ns)), context[ns]);
    if (passed === undefined) {
      validateAgentContext(context);
      return { text: canonicalContextText(context), memos: undefined };
    }
    // Facts about the namespace as it still is (its size) carry over to the new memo.
    const memo: NamespaceMemo = { tape: passed.tape, canonical: passed.canonical, canonicalParts: passed.parts, valid: true, jsonBytes: known?.jsonBytes };
    rememberMemo(context, i, memo);
    memos.push(memo);
  }
  let text = '{';
  for (let k = 0; k < TOP_LEVEL_ORDER.length; k++) {
    const i = TOP_LEVEL_INDEX[k]!;
    text += `${k === 0 ? '' : ','}"${TOP_LEVEL_ORDER[k]!}":${i < 0 ? canonicalize(context.version) : memos[i]!.canonical!}`;
  }
  return { text: `${text}}`, memos };
}

/** The context's member names in RFC 8785 order (none of them needs escaping). */
const TOP_LEVEL_ORDER: readonly string[] = ['version', ...NAMESPACES].sort();
/** For each name of {@link TOP_LEVEL_ORDER}, its index in NAMESPACES (-1 for the version). */
const TOP_LEVEL_INDEX: readonly number[] = TOP_LEVEL_ORDER.map((name) => NAMESPACES.indexOf(name as Namespace));

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
 * The `migrations` of options that may hold them (deserializeContext's, every store's), read once:
 * INVALID_PARAMS unless `options` is an object or undefined (`options`) and `migrations`, if given,
 * a MigrationRegistry (`options.migrations`). Duck-typed, as migrateContext is, so a registry from
 * another copy of the package still works.
 */
export function storeMigrations(options: unknown): MigrationRegistry | undefined {
  expectOptions(options);
  const migrations = options?.migrations;
  if (migrations !== undefined) expectMethods(migrations, 'options.migrations', ['migrate'], 'a MigrationRegistry');
  return migrations as MigrationRegistry | undefined;
}

/**
 * Reads a context from JSON text (or already-parsed data): refuses forbidden keys, migrates older
 * schema versions to {@link CONTEXT_SCHEMA_VERSION}, then validates. Throws INVALID_PARAMS naming
 * the bad field, or MIGRATION_FAILED when no migration path exists; INVALID_PARAMS, before the
 * data is read, unless `options` is an object or undefined (`options`) whose `migrations`, if
 * given, is a MigrationRegistry (`options.migrations`).
 */
export function deserializeContext(data: string | unknown, options: DeserializeOptions = {}): AgentContext {
  const migrations = storeMigrations(options);
  const value = typeof data === 'string' ? parseJson(data, 'context') : data;
  // Parsed from text, the data is fresh and nobody else holds it; the one-walk check may keep it.
  if (typeof data === 'string' && checkedCurrent(value)) return value;
  assertSafeJson(value, 'context');
  if (!isPlainObject(value) || typeof value.version !== 'string') {
    throw invalidParams('context.version', 'must be a string; this does not look like a serialised AgentContext');
  }
  // Already walked for forbidden keys and non-JSON values above; only the schema is left to check.
  if (value.version === CONTEXT_SCHEMA_VERSION) return validateAgentContextSchema(typeof data === 'string' ? value : copyJson(value));
  const registry = migrations ?? new MigrationRegistry();
  const migrated = registry.migrate(value, CONTEXT_SCHEMA_VERSION);
  try {
    return validateAgentContext(migrated);
  } catch (error) {
    if (!isCtxgateError(error, 'INVALID_PARAMS')) throw error;
    throw invalidMigrationResult(registry, value.version, error);
  }
}

/**
 * MIGRATION_FAILED for migrations from `from` whose result is not a valid context (`error`, the
 * INVALID_PARAMS validation gave it), naming the last step, whose output that is, and the first
 * invalid field. Not INVALID_PARAMS or CORRUPT_RECORD: the data given (a stored record) is as it
 * was written and still verifies; it is the migration that needs fixing, and a user told the
 * record is damaged might delete good data.
 */
function invalidMigrationResult(registry: MigrationRegistry, from: string, error: CtxgateError): CtxgateError {
  const to = CONTEXT_SCHEMA_VERSION;
  // The path migrate just took; a duck-typed registry without path() is named by its ends.
  const path = typeof registry.path === 'function' ? registry.path(from, to) : [from, to];
  const stepFrom = path[path.length - 2] ?? from;
  const field = typeof error.details.field === 'string' ? error.details.field : 'context';
  const issues = error.details.issues;
  const first = Array.isArray(issues) && typeof (issues[0] as { message?: unknown } | undefined)?.message === 'string' ? (issues[0] as { message: string }).message : 'is invalid';
  // Only the final result can be checked against the schema (an older version has none here), so
  // the last step is named, and the whole path when there was more than one step.
  const of = stepFrom === from ? '' : ` (the last step of ${from} to ${to})`;
  return new CtxgateError(
    'MIGRATION_FAILED',
    `migration from schema version ${stepFrom} to ${to}${of} returned a context that is not valid (${field}: ${first}); fix the migration and load again. The data it started from is unchanged (a stored record is intact): do not delete it`,
    { details: { from, to, stepFrom, stepTo: to, field }, cause: error },
  );
}

/**
 * A deep copy that shares nothing with the original (spec `Clone`). INVALID_PARAMS naming the
 * place if the context is nested deeper than MAX_WALK_DEPTH (200) levels (json-safety.ts); nothing
 * is copied then.
 */
export function cloneContext(context: AgentContext): AgentContext {
  return copyJson(context, 'context');
}

/**
 * True if `value` (just parsed) is a context at the current schema version that the walk of
 * namespace-pass.ts accepts one namespace at a time: the JSON-safety rules and the schema in one
 * pass, where the full path walks the data twice (the JSON-safety walk, then zod). Each
 * namespace's tape is remembered, so a save right after the load proves it unchanged instead of
 * recording it again. False when the walk is not sure, or this is not such a context: the caller
 * then takes the full path, which accepts the data or reports exactly the error it always reported.
 */
function checkedCurrent(value: unknown): value is AgentContext {
  if (!isContextShaped(value) || value.version !== CONTEXT_SCHEMA_VERSION) return false;
  const tapes = [];
  for (let i = 0; i < NAMESPACES.length; i++) {
    const ns = NAMESPACES[i]!;
    const tape = checkNamespace(planOf(namespaceSchema(ns)), value[ns]);
    if (tape === undefined) return false;
    tapes.push(tape);
  }
  for (let i = 0; i < NAMESPACES.length; i++) rememberMemo(value, i, { tape: tapes[i], valid: true });
  return true;
}
