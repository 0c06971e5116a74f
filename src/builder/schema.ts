// Runtime validation of the builder's input: a malformed input is one INVALID_PARAMS error naming
// the field, before any work starts, so no partial bundle can come out of bad input.
import { z } from 'zod';
import { expectObject, expectOptionalArray } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { findNonJson } from '../json-data.ts';
import type { BuildContextInput } from './types.ts';


const encoding = z.enum(['utf-8', 'utf-16le', 'utf-16be', 'ascii', 'windows-1252', 'unknown']);
const exclusion = z.enum(['deny_rule', 'binary', 'too_large', 'token_budget', 'outside_sandbox', 'secret_risk', 'duplicate']);
const count = z.number().int().nonnegative();
const sha = z.string().regex(/^[0-9a-f]{64}$/, 'must be a lowercase hex SHA-256');

const indexedFile = z.object({
  path: z.string().min(1),
  byteSize: count,
  /** Empty only for entries the indexer excluded without reading (never-send paths). */
  hash: sha.or(z.literal('')),
  encoding,
  lineCount: count.optional(),
  role: z.enum(['source', 'config', 'test', 'doc']).optional(),
  signatures: z.string().optional(),
  summary: z.string().optional(),
  excluded: exclusion.optional(),
});

const symbol = z
  .object({
    name: z.string().min(1),
    path: z.string().min(1),
    kind: z.string().optional(),
    startLine: z.number().int().positive(),
    endLine: z.number().int().positive(),
    signature: z.string().optional(),
  })
  .refine((s) => s.endLine >= s.startLine, { message: 'endLine must be ≥ startLine', path: ['endLine'] });

const dependency = z.object({ from: z.string().min(1), to: z.string().min(1), kind: z.enum(['import', 'interface', 'base_type', 'call']) });

const strings = z.array(z.string());

const inputSchema = z.object({
  purpose: z.enum(['intent', 'plan', 'diff']),
  intent: z.object({ id: z.string().min(1), text: z.string() }).nullable(),
  planStep: z
    .object({ id: z.string().min(1), description: z.string().optional(), targetFiles: strings.optional(), targetSymbols: strings.optional() })
    .nullable()
    .optional(),
  projectIndex: z.object({
    files: z.array(indexedFile),
    symbols: z.array(symbol).optional(),
    dependencies: z.array(dependency).optional(),
    projectIndexFingerprint: sha.optional(),
  }),
  constraints: z.object({ system: strings.optional(), project: strings.optional(), session: strings.optional(), user: strings.optional() }).strict(),
  tokenBudget: z
    .object({
      provider: z.string().min(1),
      model: z.string().min(1),
      maxInputTokens: z.number().int().positive(),
      maxOutputTokens: z.number().int().positive(),
      responseTokenReserve: count,
      softLimitThresholdPct: z.number().int().min(0).max(100),
    })
    // Checked here so the error names the field as the caller wrote it, not the budget module's
    // own parameter name.
    .refine((b) => b.responseTokenReserve <= b.maxInputTokens, {
      message: 'the reserve exceeds maxInputTokens; lower the reserve or pick a larger model',
      path: ['responseTokenReserve'],
    }),
  sandbox: z.object({ deny: strings.optional(), allow: strings.optional() }).optional(),
  activeFile: z.string().nullable().optional(),
  userSelectedTargets: z
    .object({ files: strings.optional(), symbols: z.array(z.object({ name: z.string().min(1), path: z.string().min(1) })).optional() })
    .nullable()
    .optional(),
  lastError: z.object({ message: z.string(), path: z.string().optional(), line: z.number().int().positive().optional() }).nullable().optional(),
  systemRules: z.string().optional(),
  secrets: z.object({ highConfidence: z.enum(['redact', 'exclude']).optional(), mediumConfidence: z.enum(['redact', 'refuse']).optional() }).optional(),
  tokenizer: z.object({ mode: z.enum(['estimate', 'exact']), encoding: z.enum(['o200k_base', 'cl100k_base']).optional() }).optional(),
  maxHops: z.number().int().min(0).max(10).optional(),
  maxFileBytes: z.number().int().positive().optional(),
  bundleId: z.string().uuid().optional(),
  correlationId: z.string().uuid().optional(),
  createdAt: z.string().datetime({ offset: true }).optional(),
});

/**
 * Inputs this module returned: zod's parsed copies, which ctxgate never hands to other code, so
 * they cannot have changed since. An in-thread engine gets the very copy `buildContext` validated
 * and need not validate it again (a large project's input took 25-50 ms each time); anything else,
 * a caller's own object or one that crossed to a worker, is validated.
 */
const validated = new WeakSet<object>();

/** Validates a builder input; throws INVALID_PARAMS naming the first bad field. */
export function validateBuildInput(value: unknown): BuildContextInput {
  if (typeof value === 'object' && value !== null && validated.has(value)) return value as BuildContextInput;
  const result = safeParseReading(inputSchema, value);
  if (result.success) {
    validated.add(result.data);
    return result.data as BuildContextInput;
  }
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? pathSuffix(issue.path).replace(/^\./, '') : 'input';
  throw invalidParams(field, issue.message, { issues: result.error.issues.slice(0, 10).map((i) => ({ path: i.path.map(String), message: i.message })) });
}

/**
 * INVALID_PARAMS unless `value` is an indexer's symbol (`list` 'symbols') or dependency edge as
 * the builder reads it, named from `field` (`options.symbols[2].startLine`). indexProject checks
 * its options with it, so a bad entry is refused where it is given, not by a later build, and the
 * same way whichever engine runs.
 */
export function checkIndexEntry(list: 'symbols' | 'dependencies', value: unknown, field: string): void {
  const result = safeParseReading(list === 'symbols' ? symbol : dependency, value, field);
  if (result.success) return;
  const issue = result.error.issues[0]!;
  throw invalidParams(`${field}${pathSuffix(issue.path)}`, issue.message);
}

/** `schema.safeParse(value)`, read as {@link reading} reads. */
function safeParseReading<T extends z.ZodType>(schema: T, value: unknown, field?: string): z.ZodSafeParseResult<z.output<T>> {
  return reading(value, field, () => schema.safeParse(value));
}

/**
 * `read()`, which reads `value`. A getter or proxy trap that throws is INVALID_PARAMS naming the
 * field it guards (after `field`, the name of `value`, when given), not a bare TypeError.
 */
function reading<T>(value: unknown, field: string | undefined, read: () => T): T {
  try {
    return read();
  } catch (cause) {
    // Data nested too deep to walk (a RangeError) is too deep to search as well: the value is named.
    let at: string | undefined;
    try {
      at = throwingField(value);
    } catch {
      at = undefined;
    }
    // The member that threw, after the value's own name; the value itself when its keys did.
    const name = at ? (field === undefined ? at : `${field}.${at}`) : (field ?? 'input');
    throw invalidParams(name, `reading it threw (${cause instanceof Error ? cause.name : typeof cause}); pass plain data.`, { reason: 'threw on read' });
  }
}

/**
 * INVALID_PARAMS unless `extras.symbols` and `extras.dependencies` are absent or lists of entries
 * the builder accepts (see {@link checkIndexEntry}), each holding only JSON data: members it does
 * not read may be any data, but not a function, a symbol or a class instance, which an in-thread
 * engine would keep and a worker could not be sent. Named from `owner` (`options.symbols[2]`).
 * Both indexProject and the engine's indexProject check with it, so a bad entry is refused where
 * it is given, whichever way in.
 */
export function checkIndexExtras(extras: { symbols?: unknown; dependencies?: unknown }, owner: string): void {
  for (const name of ['symbols', 'dependencies'] as const) {
    const list = extras[name];
    expectOptionalArray(list, `${owner}.${name}`);
    if (!list) continue;
    for (let i = 0; i < list.length; i++) {
      const field = `${owner}.${name}[${i}]`;
      const entry: unknown = list[i];
      expectObject(entry, field);
      checkIndexEntry(name, entry, field);
      // The schema reads only the members it knows; the others are read here, as a worker would.
      const fault = reading(entry, field, () => nonJsonMember(entry, field));
      if (fault !== null) throw invalidParams(fault.path, fault.problem, { got: fault.what });
    }
  }
}

/** The first member of `entry` that is not JSON data; an optional member left undefined is none, as JSON leaves it out. */
function nonJsonMember(entry: Record<string, unknown>, field: string): ReturnType<typeof findNonJson> {
  for (const key of Object.keys(entry)) {
    const value = entry[key];
    if (value === undefined) continue;
    const fault = findNonJson(value, `${field}.${key}`, true);
    if (fault !== null) return fault;
  }
  return null;
}

/** A zod issue's path as it follows a field's name: `.files[2].path`. */
function pathSuffix(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
}

/**
 * The dotted path of the first property whose read throws (a getter, or a proxy trap), found by
 * reading `value` as the schema does: '' when listing `value`'s own keys throws, undefined if
 * nothing does (the throw came from elsewhere).
 * Only runs after validation itself threw, so valid input pays nothing for it.
 */
function throwingField(value: unknown): string | undefined {
  const seen = new Set<object>();
  const walk = (v: unknown, path: string): string | undefined => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return undefined;
    seen.add(v);
    let keys: string[];
    try {
      keys = Array.isArray(v) ? Array.from({ length: v.length }, (_, i) => String(i)) : Object.getOwnPropertyNames(v);
    } catch {
      return path;
    }
    for (const k of keys) {
      const at = Array.isArray(v) ? `${path}[${k}]` : path ? `${path}.${k}` : k;
      let child: unknown;
      try {
        child = (v as Record<string, unknown>)[k];
      } catch {
        return at;
      }
      const found = walk(child, at);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  return walk(value, '');
}
