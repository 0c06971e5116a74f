import { z } from 'zod';
import { expectOptions, expectString, isValidDate, kindOf, notOneOf } from '../args.ts';
import { CtxgateError, invalidParams } from '../errors.ts';
import { assertSafeJson, assertStorableJson, formatPath } from './json-safety.ts';

/**
 * The AgentContext model of spec 004: seven namespaces with the spec's types, in camelCase.
 * Timestamps are ISO-8601 strings (not `Date`) because the context crosses JSON, structured clone
 * and three storage engines, and only strings survive all of them unchanged.
 */

/** Schema version written by this release into every new context. */
export const CONTEXT_SCHEMA_VERSION = '1.0.0';

/** The seven namespaces, in the spec's order (also the order used in diff summaries). */
export const NAMESPACES = ['metadata', 'reasoning', 'enrichment', 'retrieval', 'llm', 'diagnostics', 'audit'] as const;

/** One of the seven namespace names. */
export type Namespace = (typeof NAMESPACES)[number];

/** True if `value` names one of the seven namespaces. */
export function isNamespace(value: unknown): value is Namespace {
  return typeof value === 'string' && (NAMESPACES as readonly string[]).includes(value);
}

/** Any JSON value stored where the spec says `interface{}`. */
export type JsonValue = unknown;

/** Session and trace information; written by the orchestrator, except `locale`. */
export interface MetadataContext {
  /** Unique session identifier. */
  sessionId: string;
  /** Distributed tracing id. */
  traceId: string;
  /** Context creation time, ISO-8601. */
  createdAt: string;
  /** User locale (writable by any registered agent). */
  locale?: string;
}

/** A detected user intent. */
export interface Intent {
  /** Intent type, e.g. `query`, `analysis`. */
  type: string;
  /** Confidence from 0 to 1. */
  confidence: number;
  /** Associated entities. */
  entities?: string[];
}

/** A reasoning hypothesis. */
export interface Hypothesis {
  /** Unique identifier. */
  id: string;
  /** What the hypothesis states. */
  description: string;
  /** Ids of hypotheses this one depends on. */
  dependencies?: string[];
}

/** A conclusion drawn from hypotheses or facts. */
export interface Conclusion {
  /** Unique identifier. */
  id: string;
  /** Conclusion text. */
  content: string;
  /** Confidence from 0 to 1. */
  confidence: number;
  /** Ids of the hypotheses or facts it rests on. */
  basedOn?: string[];
}

/** Core reasoning data. */
export interface ReasoningContext {
  /** Detected user intents. */
  intents: Intent[];
  /** Extracted entities by name. */
  entities: Record<string, JsonValue>;
  /** Reasoning hypotheses. */
  hypotheses: Hypothesis[];
  /** Final conclusions. */
  conclusions: Conclusion[];
  /** Dependency graph, in any JSON shape. */
  dependencyMap?: JsonValue;
  /** Confidence tracking by key. */
  confidenceScores: Record<string, number>;
  /** Final summary. */
  summary: string;
}

/** A fact with its provenance. */
export interface Fact {
  /** Unique identifier. */
  id: string;
  /** Fact content. */
  content: string;
  /** Data source. */
  source: string;
  /** When the fact was captured, ISO-8601. */
  timestamp: string;
  /** Confidence from 0 to 1. */
  confidence: number;
  /** Source metadata. */
  provenance?: Record<string, JsonValue>;
}

/** Knowledge derived from facts. */
export interface Knowledge {
  /** Unique identifier. */
  id: string;
  /** Knowledge statement. */
  content: string;
  /** Ids of the facts it was derived from. */
  derivedFrom?: string[];
}

/** A relationship between two entities. */
export interface Relationship {
  /** Source entity. */
  from: string;
  /** Target entity. */
  to: string;
  /** Relationship type. */
  type: string;
}

/** Facts, derived knowledge and relationships. */
export interface EnrichmentContext {
  /** Factual information. */
  facts: Fact[];
  /** Inferred knowledge. */
  derivedKnowledge: Knowledge[];
  /** Entity relationships. */
  relationships: Relationship[];
  /** External context links. */
  contextLinks: string[];
}

/** A retrieval execution plan. */
export interface RetrievalPlan {
  /** Unique identifier. */
  id: string;
  /** Plan description. */
  description: string;
  /** Target sources. */
  sources?: string[];
  /** Query filters. */
  filters?: Record<string, JsonValue>;
  /** Execution priority. */
  priority?: number;
}

/** A search query and its results. */
export interface Query {
  /** Unique identifier. */
  id: string;
  /** The query text. */
  queryString: string;
  /** Target source. */
  source: string;
  /** Query filters. */
  filters?: Record<string, JsonValue>;
  /** Query results, in any JSON shape. */
  results?: JsonValue;
}

/**
 * Where an externalised artifact's content lives: the SHA-256 of its canonical JSON bytes, which
 * is also its key in the artifact store, so the reference proves the content it points to.
 */
export interface ArtifactRef {
  /** Lowercase hex SHA-256 of the stored bytes; the artifact store key. */
  sha256: string;
  /** Size of the stored bytes. */
  size: number;
}

/**
 * A retrieved artifact. Exactly one of `content` (inline) or `ref` (externalised, see
 * `externalizeArtifacts`) is set.
 */
export interface Artifact {
  /** Unique identifier. */
  id: string;
  /** Artifact type. */
  type: string;
  /** Artifact data, when inline. */
  content?: JsonValue;
  /** Reference to the content in the artifact store, when externalised. */
  ref?: ArtifactRef;
  /** Data source. */
  source: string;
}

/** Retrieval plans, queries and artifacts. */
export interface RetrievalContext {
  /** Retrieval execution plans. */
  plans: RetrievalPlan[];
  /** Search queries. */
  queries: Query[];
  /** Retrieved artifacts. */
  artifacts: Artifact[];
}

/** Token usage and cost. */
export interface LlmUsage {
  /** Total tokens used. */
  totalTokens: number;
  /** Prompt tokens. */
  promptTokens: number;
  /** Completion tokens. */
  completionTokens: number;
  /** Total cost in USD. */
  costUsd: number;
  /** Cost by agent id. */
  byAgent: Record<string, number>;
}

/** A model selection decision. */
export interface LlmDecision {
  /** When the decision was made, ISO-8601. */
  timestamp: string;
  /** Agent making the request. */
  agentId: string;
  /** Task complexity type. */
  taskType: string;
  /** Selected model. */
  selected: string;
  /** Why it was selected. */
  reason: string;
  /** Task complexity level. */
  complexity: string;
}

/** LLM provider, usage and selection decisions. */
export interface LlmContext {
  /** Current provider. */
  provider?: string;
  /** Current model. */
  model?: string;
  /** Token usage and cost. */
  usage?: LlmUsage;
  /** Model selection decisions. */
  decisions: LlmDecision[];
  /** Response cache metadata. */
  cache: Record<string, JsonValue>;
}

/** An error an agent reported. */
export interface ErrorReport {
  /** When it occurred, ISO-8601. */
  timestamp: string;
  /** Agent that errored. */
  agentId: string;
  /** Error message. */
  message: string;
  /** Error severity. */
  severity: string;
  /** Additional details. */
  details?: JsonValue;
}

/**
 * A warning an agent reported. The spec names the type without defining it; this mirrors
 * {@link ErrorReport} without a severity.
 */
export interface Warning {
  /** When it occurred, ISO-8601. */
  timestamp: string;
  /** Agent that warned. */
  agentId: string;
  /** Warning message. */
  message: string;
  /** Additional details. */
  details?: JsonValue;
}

/** Per-agent execution metrics. */
export interface AgentMetrics {
  /** Execution time in milliseconds. */
  durationMs: number;
  /** Number of LLM calls. */
  llmCalls: number;
  /** Execution status. */
  status: string;
  /** Tokens used. */
  tokens?: number;
  /** Cost incurred. */
  cost?: number;
}

/** Performance metrics. */
export interface PerformanceData {
  /** Total execution time in milliseconds. */
  totalDurationMs: number;
  /** Metrics by agent id. */
  agentMetrics: Record<string, AgentMetrics>;
}

/** A validation result. */
export interface ValidationReport {
  /** When it was validated, ISO-8601. */
  timestamp: string;
  /** Validator agent. */
  agentId: string;
  /** Whether validation passed. */
  passed: boolean;
  /** Issues found. */
  issues: string[];
  /** Suggested fixes. */
  autoFixes: string[];
}

/** Errors, warnings, performance and validation reports. */
export interface DiagnosticsContext {
  /** Error reports. */
  errors: ErrorReport[];
  /** Warnings. */
  warnings: Warning[];
  /** Performance metrics. */
  performance?: PerformanceData;
  /** Validation results. */
  validationReports: ValidationReport[];
}

/** One agent execution. */
export interface AgentRun {
  /** Execution start, ISO-8601. */
  timestamp: string;
  /** Agent identifier. */
  agentId: string;
  /** Execution status. */
  status: string;
  /** Execution duration in milliseconds. */
  durationMs: number;
  /** Context keys modified, as `namespace.key`. */
  keysWritten: string[];
  /** Error message, if the run failed. */
  error?: string;
}

/** Counters of one agent's changes, by namespace then by `<key>_<added|removed|modified|set|changed|cleared>`. */
export type ContextChanges = Record<string, Record<string, number>>;

/** What one agent changed, as recorded in the audit trail. */
export interface ContextDiff {
  /** When the diff was captured, ISO-8601. */
  timestamp: string;
  /** Agent that made the changes. */
  agentId: string;
  /** Change counters by namespace. */
  changes: ContextChanges;
}

/** Agent runs and diffs. */
export interface AuditContext {
  /** Agent executions, oldest first. */
  agentRuns: AgentRun[];
  /** Context diffs, oldest first. */
  diffs: ContextDiff[];
}

/** The versioned, namespaced context shared by the agents of one session. */
export interface AgentContext {
  /** Schema version, e.g. `1.0.0`. */
  version: string;
  /** Session and trace information. */
  metadata: MetadataContext;
  /** Reasoning data. */
  reasoning: ReasoningContext;
  /** Facts and knowledge. */
  enrichment: EnrichmentContext;
  /** Retrieval plans and artifacts. */
  retrieval: RetrievalContext;
  /** LLM usage and decisions. */
  llm: LlmContext;
  /** Errors, warnings, performance. */
  diagnostics: DiagnosticsContext;
  /** Agent runs and diffs. */
  audit: AuditContext;
}

// ---------------------------------------------------------------- schemas

const json = z.unknown();
const jsonMap = z.record(z.string(), json);
const timestamp = z.iso.datetime({ offset: true });
const confidence = z.number().min(0).max(1);
const count = z.number().int().nonnegative();
const nonNegative = z.number().nonnegative();
const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, 'must be a lowercase hex SHA-256');

const intentSchema: z.ZodType<Intent> = z.strictObject({
  type: z.string(),
  confidence,
  entities: z.array(z.string()).optional(),
});
const hypothesisSchema: z.ZodType<Hypothesis> = z.strictObject({
  id: z.string(),
  description: z.string(),
  dependencies: z.array(z.string()).optional(),
});
const conclusionSchema: z.ZodType<Conclusion> = z.strictObject({
  id: z.string(),
  content: z.string(),
  confidence,
  basedOn: z.array(z.string()).optional(),
});
const factSchema: z.ZodType<Fact> = z.strictObject({
  id: z.string(),
  content: z.string(),
  source: z.string(),
  timestamp,
  confidence,
  provenance: jsonMap.optional(),
});
const knowledgeSchema: z.ZodType<Knowledge> = z.strictObject({
  id: z.string(),
  content: z.string(),
  derivedFrom: z.array(z.string()).optional(),
});
const relationshipSchema: z.ZodType<Relationship> = z.strictObject({ from: z.string(), to: z.string(), type: z.string() });
const planSchema: z.ZodType<RetrievalPlan> = z.strictObject({
  id: z.string(),
  description: z.string(),
  sources: z.array(z.string()).optional(),
  filters: jsonMap.optional(),
  priority: z.number().int().optional(),
});
const querySchema: z.ZodType<Query> = z.strictObject({
  id: z.string(),
  queryString: z.string(),
  source: z.string(),
  filters: jsonMap.optional(),
  results: json.optional(),
});
const artifactRefSchema: z.ZodType<ArtifactRef> = z.strictObject({ sha256: sha256Hex, size: count });
const artifactSchema: z.ZodType<Artifact> = z
  .strictObject({
    id: z.string(),
    type: z.string(),
    content: json.optional(),
    ref: artifactRefSchema.optional(),
    source: z.string(),
  })
  .refine((a) => !(a.ref !== undefined && a.content !== undefined), {
    message: 'has both content and ref; an artifact is either inline or externalised',
    path: ['ref'],
  });
const usageSchema: z.ZodType<LlmUsage> = z.strictObject({
  totalTokens: count,
  promptTokens: count,
  completionTokens: count,
  costUsd: nonNegative,
  byAgent: z.record(z.string(), nonNegative),
});
const decisionSchema: z.ZodType<LlmDecision> = z.strictObject({
  timestamp,
  agentId: z.string(),
  taskType: z.string(),
  selected: z.string(),
  reason: z.string(),
  complexity: z.string(),
});
const errorReportSchema: z.ZodType<ErrorReport> = z.strictObject({
  timestamp,
  agentId: z.string(),
  message: z.string(),
  severity: z.string(),
  details: json.optional(),
});
const warningSchema: z.ZodType<Warning> = z.strictObject({
  timestamp,
  agentId: z.string(),
  message: z.string(),
  details: json.optional(),
});
const agentMetricsSchema: z.ZodType<AgentMetrics> = z.strictObject({
  durationMs: count,
  llmCalls: count,
  status: z.string(),
  tokens: count.optional(),
  cost: nonNegative.optional(),
});
const performanceSchema: z.ZodType<PerformanceData> = z.strictObject({
  totalDurationMs: count,
  agentMetrics: z.record(z.string(), agentMetricsSchema),
});
const validationReportSchema: z.ZodType<ValidationReport> = z.strictObject({
  timestamp,
  agentId: z.string(),
  passed: z.boolean(),
  issues: z.array(z.string()),
  autoFixes: z.array(z.string()),
});
const agentRunSchema: z.ZodType<AgentRun> = z.strictObject({
  timestamp,
  agentId: z.string(),
  status: z.string(),
  durationMs: count,
  keysWritten: z.array(z.string()),
  error: z.string().optional(),
});
const diffSchema: z.ZodType<ContextDiff> = z.strictObject({
  timestamp,
  agentId: z.string(),
  changes: z.record(z.string(), z.record(z.string(), count)),
});

/**
 * Field schemas per namespace. `safeSet` validates one field with these, so a write is checked
 * against exactly the type of the key it replaces.
 */
const fieldSchemas = {
  metadata: {
    sessionId: z.string().min(1),
    traceId: z.string(),
    createdAt: timestamp,
    locale: z.string().optional(),
  },
  reasoning: {
    intents: z.array(intentSchema),
    entities: jsonMap,
    hypotheses: z.array(hypothesisSchema),
    conclusions: z.array(conclusionSchema),
    dependencyMap: json.optional(),
    confidenceScores: z.record(z.string(), z.number()),
    summary: z.string(),
  },
  enrichment: {
    facts: z.array(factSchema),
    derivedKnowledge: z.array(knowledgeSchema),
    relationships: z.array(relationshipSchema),
    contextLinks: z.array(z.string()),
  },
  retrieval: {
    plans: z.array(planSchema),
    queries: z.array(querySchema),
    artifacts: z.array(artifactSchema),
  },
  llm: {
    provider: z.string().optional(),
    model: z.string().optional(),
    usage: usageSchema.optional(),
    decisions: z.array(decisionSchema),
    cache: jsonMap,
  },
  diagnostics: {
    errors: z.array(errorReportSchema),
    warnings: z.array(warningSchema),
    performance: performanceSchema.optional(),
    validationReports: z.array(validationReportSchema),
  },
  audit: {
    agentRuns: z.array(agentRunSchema),
    diffs: z.array(diffSchema),
  },
} as const satisfies Record<Namespace, Record<string, z.ZodType>>;

/** The keys of one namespace. */
export type NamespaceKey<N extends Namespace> = keyof AgentContext[N] & string;

// One schema object per namespace, shared by the whole-context schema and namespaceSchema,
// so checking a namespace alone can never disagree with checking it inside the context.
const namespaceSchemas = {
  metadata: z.strictObject(fieldSchemas.metadata),
  reasoning: z.strictObject(fieldSchemas.reasoning),
  enrichment: z.strictObject(fieldSchemas.enrichment),
  retrieval: z.strictObject(fieldSchemas.retrieval),
  llm: z.strictObject(fieldSchemas.llm),
  diagnostics: z.strictObject(fieldSchemas.diagnostics),
  audit: z.strictObject(fieldSchemas.audit),
};

/** The schema of a whole context, version included. */
export const agentContextSchema: z.ZodType<AgentContext> = z.strictObject({ version: z.string(), ...namespaceSchemas });

/** The keys a namespace defines, in declaration order. */
export function namespaceKeys(namespace: Namespace): string[] {
  return Object.keys(fieldSchemas[namespace]);
}

/** Turns the first zod issue into INVALID_PARAMS naming the field, e.g. `reasoning.intents[0].confidence`. */
function toInvalidParams(error: z.ZodError, base: string): CtxgateError {
  // An unknown key usually explains a "missing" one next to it (a typo), so report it first.
  const ordered = [...error.issues].sort((a, b) => Number(b.code === 'unrecognized_keys') - Number(a.code === 'unrecognized_keys'));
  const issues = ordered.map((issue) => {
    // zod reports an unknown key at its parent; name the key itself, since that is what to fix.
    const path = issue.code === 'unrecognized_keys' && issue.keys.length > 0 ? [...issue.path, issue.keys[0] as string] : issue.path;
    return { field: formatPath(base, path), message: issue.message };
  });
  const first = issues[0] ?? { field: base, message: 'is invalid' };
  return new CtxgateError('INVALID_PARAMS', `${first.field}: ${first.message}; fix this field and retry`, {
    details: { field: first.field, issues },
  });
}

/** INVALID_PARAMS (`field`) unless `value` is one of the seven namespace names. */
export function expectNamespace(value: unknown, field = 'namespace'): asserts value is Namespace {
  if (!isNamespace(value)) throw notOneOf(field, NAMESPACES, value);
}

/**
 * Validates `value` as the field `namespace.key` and returns it. Throws INVALID_PARAMS naming the
 * offending field for unknown keys, forbidden keys, non-JSON data or a type mismatch, and naming
 * `namespace` or `key` when those are not a namespace name and a string. It also refuses what the
 * store would refuse once the value is in a context: data nested deeper than MAX_VALUE_DEPTH levels
 * counted from the context's root (the field is two levels down), and a string or member name with
 * a lone surrogate, which serialising cannot write.
 */
export function validateField(namespace: Namespace, key: string, value: unknown): unknown {
  expectNamespace(namespace);
  expectString(key, 'key');
  const field = `${namespace}.${key}`;
  const schemas = fieldSchemas[namespace] as Record<string, z.ZodType>;
  const schema = Object.hasOwn(schemas, key) ? schemas[key] : undefined;
  if (schema === undefined) {
    throw new CtxgateError('INVALID_PARAMS', `${field}: unknown key; ${namespace} has ${namespaceKeys(namespace).join(', ')}`, {
      details: { field },
    });
  }
  // `undefined` clears an optional key; the schema says whether the key may be absent.
  if (value !== undefined) assertStorableJson(value, field, 2);
  const result = schema.safeParse(value);
  if (!result.success) throw toInvalidParams(result.error, field);
  return value;
}

/**
 * Validates a whole context (forbidden keys first, then the schema) and returns it typed. The
 * input object itself is returned, not zod's copy, so callers keep identity and no data is
 * silently dropped. Anything that is not a valid context, whatever its kind (undefined, a string,
 * a cycle, a BigInt), is reported as INVALID_PARAMS naming the first bad field under `field`.
 */
export function validateAgentContext(value: unknown, field = 'context'): AgentContext {
  expectString(field, 'field');
  assertSafeJson(value, field);
  return validateAgentContextSchema(value, field);
}

/**
 * The schema half of {@link validateAgentContext}, for data that already passed `assertSafeJson`
 * (such as the output of `parseSafeJson`), so loading a context walks it once, not twice.
 */
export function validateAgentContextSchema(value: unknown, field = 'context'): AgentContext {
  const result = agentContextSchema.safeParse(value);
  if (!result.success) throw toInvalidParams(result.error, field);
  return value as AgentContext;
}

/**
 * The schema of `namespace`: the very object {@link agentContextSchema} checks that member with,
 * so checking a namespace alone can never disagree with checking it inside the context. For
 * re-checking a context one namespace at a time; failures are reported by validating the whole
 * context, so errors stay those of {@link validateAgentContext}.
 */
export function namespaceSchema(namespace: Namespace): z.ZodType {
  return namespaceSchemas[namespace];
}

/** Options of {@link createAgentContext}. */
export interface CreateAgentContextOptions {
  /** Creation time; defaults to now. */
  createdAt?: Date | string;
  /** User locale. */
  locale?: string;
}

/**
 * Creates an empty context at {@link CONTEXT_SCHEMA_VERSION} (spec `NewAgentContext`).
 * INVALID_PARAMS, before anything is built, unless `sessionId` is a non-empty string and `traceId` a
 * string (both well-formed Unicode), `options` an object or undefined (`options`), its `createdAt`,
 * if given, a valid Date or an ISO-8601 timestamp string (`options.createdAt`), and its `locale`, if
 * given, a well-formed string (`metadata.locale`): so the context made is one the store accepts.
 */
export function createAgentContext(sessionId: string, traceId: string, options: CreateAgentContextOptions = {}): AgentContext {
  expectOptions(options);
  const given: unknown = options.createdAt;
  const locale: unknown = options.locale;
  let createdAt: string;
  if (given === undefined) createdAt = new Date().toISOString();
  else if (typeof given === 'string') createdAt = given;
  else if (isValidDate(given)) createdAt = Date.prototype.toISOString.call(given);
  else {
    const got = Object.prototype.toString.call(given) === '[object Date]' ? 'an invalid Date' : kindOf(given);
    throw invalidParams('options.createdAt', `must be a valid Date or an ISO-8601 timestamp string (got ${got}).`, { expected: 'a valid Date or a string', got });
  }
  validateField('metadata', 'sessionId', sessionId);
  validateField('metadata', 'traceId', traceId);
  validateField('metadata', 'createdAt', createdAt);
  if (locale !== undefined) validateField('metadata', 'locale', locale);
  const metadata: MetadataContext = { sessionId, traceId, createdAt };
  if (locale !== undefined) metadata.locale = locale as string;
  const ctx: AgentContext = {
    version: CONTEXT_SCHEMA_VERSION,
    metadata,
    reasoning: { intents: [], entities: {}, hypotheses: [], conclusions: [], confidenceScores: {}, summary: '' },
    enrichment: { facts: [], derivedKnowledge: [], relationships: [], contextLinks: [] },
    retrieval: { plans: [], queries: [], artifacts: [] },
    llm: { decisions: [], cache: {} },
    diagnostics: { errors: [], warnings: [], validationReports: [] },
    audit: { agentRuns: [], diffs: [] },
  };
  return ctx;
}
