// ctxgate's public entry. Every export is listed by name; internals (the wasm glue, the worker
// protocol) are deliberately not exported.

// Engine lifecycle
export { createCtxgate, init, shutdown } from './ctxgate.ts';
export type { CtxgateOptions } from './ctxgate.ts';
export type { Engine } from './worker/engine.ts';
export type { CoreApi, CoreInfo, TransferableWasmSource } from './worker/protocol.ts';
export type { WasmSource } from './core/source.ts';

// Errors
export {
  CtxgateError,
  ContextTooLargeError,
  SecretRiskError,
  AmbiguousTargetError,
  ContextViolationError,
  ContextSizeError,
  ConflictError,
  isCtxgateError,
  serializeError,
  deserializeError,
} from './errors.ts';
export type { CtxgateErrorCode, CtxgateErrorOptions, SerializedError } from './errors.ts';

// Loading the core in this thread, for the synchronous functions
export { loadCore } from './core/load.ts';

// Hashing, fingerprints and ordering (core)
export { sha256Hex, sha256Many, fingerprint, sortBlockKeys } from './shared-api.ts';
export { sha256HexSync, sha256ManySync, createSha256Sync, sha256HexStream } from './core/sha256.ts';
export type { HashInput, Sha256Hasher } from './core/sha256.ts';
export { canonicalize } from './fingerprint/canonicalize.ts';
export { fingerprintSync } from './fingerprint/fingerprint.ts';
export { sortBlockKeysSync, sortByGroupAndKeySync, compareUtf8, blockGroup, PRIORITIES, BLOCK_TYPE_ORDER } from './core/sort.ts';
export type { BlockSortKey, BlockType, Priority } from './core/sort.ts';
export { crc32 as crc32Sync, utf8Check as utf8CheckSync } from './core/checksum.ts';
export type { Utf8Check } from './core/checksum.ts';

// Secrets: scanning, redaction, path and content gates
export { scanSecrets } from './secrets/scan.ts';
export { redactSecrets } from './secrets/redact.ts';
export { RULES, RULESET_VERSION } from './secrets/rules.generated.ts';
export type { BuiltinRule } from './secrets/rules.generated.ts';
export { createPathGate, normalizeProjectPath, NEVER_SEND_PATHS, CREDENTIAL_FILE_PATHS } from './secrets/paths.ts';
export type { PathGate, PathGateOptions, PathDecision, NormalizedPath } from './secrets/paths.ts';
export { checkContent, detectEncoding, decodeText, isBinary } from './secrets/content.ts';
export type { ContentDecision, ContentGateOptions, EncodingDetection, TextEncodingName } from './secrets/content.ts';
export type { ScanOptions, UserSecretRule, SecretFinding, Redaction, RedactResult, Confidence } from './secrets/types.ts';

// Tokens: estimates, exact counts, models, the budget API of spec 003
export type { TokenCount, TokenCounter } from './tokens/counter.ts';
export { estimateTokens, estimatorVersion, ESTIMATOR_ID, estimatorEncoder } from './core/tokens.ts';
export { TOKEN_ENCODINGS, DEFAULT_ENCODING } from './tokens/encoding.ts';
export type { TokenEncoding, EncodingOptions } from './tokens/encoding.ts';
export { countTokens, exactCounter } from './tokens/exact.ts';
export { estimator } from './tokens/estimator.ts';
export { CALIBRATION_INFO } from './tokens/calibration.generated.ts';
export { BUILTIN_MODELS, getModel, modelRegistry, modelEstimator } from './tokens/models.ts';
export type { ModelInfo, ModelTokenizer, ModelRegistry } from './tokens/models.ts';
export { truncateToTokenBudget } from './tokens/truncate.ts';
export { applyContextBudget } from './tokens/budget.ts';
export type { ContextBudgetResult, ContextBudgetOutcome, ApplyContextBudgetOptions } from './tokens/budget.ts';
export { jsonlBudgetLog } from './tokens/budget-log.ts';
export type { BudgetLog, BudgetLogEntry, LineWriter } from './tokens/budget-log.ts';
export { DEFAULT_MANIFESTS, DEFAULT_NARRATIVE_CAP, HANDOFF_FIELDS, narrativeCap, resolveManifest } from './tokens/manifest.ts';
export type { PhaseManifest, HandoffField, ManifestOverride } from './tokens/manifest.ts';
export { buildHandoffContext } from './tokens/handoff.ts';
export type { PhaseHandoff, BuildHandoffOptions } from './tokens/handoff.ts';
export { decideBudget } from './tokens/limits.ts';
export type { BudgetLimits, BudgetLimitsInput } from './tokens/limits.ts';
export { indexedDbLineWriter } from './tokens/budget-log.idb.ts';

// The Context Builder (spec 001)
export { buildContext } from './builder/build-context.ts';
export type { BuildContextOptions, BuilderLogEvent } from './builder/build-context.ts';
export { indexProject } from './builder/index-project.ts';
export type { ProjectSource, IndexProjectOptions } from './builder/index-project.ts';
export type { ProjectFile, IndexExtras } from './builder/project-index.ts';
export { projectIndexFingerprint } from './builder/project-index.ts';
export type { DirectoryHandleLike, FileHandleLike } from './builder/browser-files.ts';
export type {
  BuildContextInput,
  BuildContextResult,
  ContextBlock,
  ContextBundle,
  ContextManifest,
  RedactionReport,
  BudgetReport,
  Redaction as RedactionAction,
  ExplainEntry,
  IncludedFile,
  ExcludedCandidate,
  ModelBudget,
  ProjectIndex,
  IndexedFile,
  IndexedSymbol,
  DependencyEdge,
  Constraints,
  SecretPolicy,
  Purpose,
  Encoding,
  SlicingLevel,
  InclusionReason,
  ExclusionReason,
  BudgetDecision,
} from './builder/types.ts';

// Conversation context in three layers, with a view per agent node (spec 002)
export { createLayeredContext, beginTurn, endTurn, previewCompaction, setPending, setEngagementSummary } from './layers/turns.ts';
export type { BeginTurnInput, EndTurnInput, EndTurnOptions, EndTurnResult, CompactionReport, CompactionPreview, SummaryOutcome } from './layers/turns.ts';
export { registerEntity, referenceEntities, curateEntities, getEntityContext, doNotReReadRefs } from './layers/entities.ts';
export type { EntityRegistration, CurationInput, EntityContext } from './layers/entities.ts';
export { recordThink, recordStep, recordTurnMeta } from './layers/trace.ts';
export type { ThinkRecord, StepRecord, TurnMetaRecord } from './layers/trace.ts';
export { fallbackConversationSummary, fallbackReasoningSummary } from './layers/summarizer.ts';
export type { Summarizer, ConversationSummaryInput, ReasoningSummaryInput } from './layers/summarizer.ts';
export { defineNodeView, UNDERSTAND_VIEW, THINK_VIEW, ACT_VIEW, REPLY_VIEW } from './layers/recipes.ts';
export type { ViewRecipe, ViewRecipeInput, LayerRecipe, EntityLayerRecipe, ConversationLayerRecipe, ReasoningLayerRecipe, EntityDetail, StepDetail } from './layers/recipes.ts';
export {
  buildNodeView,
  buildUnderstandContext,
  buildThinkContext,
  buildActContext,
  buildReplyContext,
  formatEntityContext,
  formatConversationHistory,
  formatReasoningTrace,
  BUILTIN_VIEWS,
} from './layers/views.ts';
export type { NodeView, ViewOptions, BuiltinNode } from './layers/views.ts';
export { layeredContextToJSON, layeredContextFromJSON } from './layers/schema.ts';
export type { ViewSelection, EntitySelection, ConversationSelection, ReasoningSelection, TurnProjection, EntityProjection, StepProjection } from './layers/compose.ts';
export type { ViewBudgetReport, BudgetCut } from './layers/budget.ts';
export { ENTITY_STATUSES, CURATION_ACTIONS, PENDING_TYPES, STEP_TYPES, DEFAULT_SETTINGS } from './layers/model.ts';
export type {
  LayeredContextState,
  EntitySnapshot,
  EntityRecord,
  PendingState,
  ConversationTurn,
  CurrentTurn,
  TurnExecutionSummary,
  StepSummary,
  CurationSummary,
  CurationDecision,
  LayeredContextSettings,
  ConversationState,
  ReasoningState,
} from './layers/model.ts';

// Tool-output policy (spec 000)
export { defineToolLimits, defineLimits, toolLimitsFor, assertWithinLimit, resolveLimit, GLOBAL_LIMITS, DEFAULT_TOOL_LIMITS, MIN_MAX_BYTES, deepFreeze } from './policy/limits.ts';
export type { ToolLimits, TruncationStrategy } from './policy/limits.ts';
export { ARIA_LIMITS } from './policy/aria-limits.ts';
export type { ContextSegment } from './policy/aria-limits.ts';
export { wrapOutput, wrapOutputMulti, wrapScalarOutput, selectItems } from './policy/wrap.ts';
export type { WrapOptions, WrapOutputOptions, ListSpec } from './policy/wrap.ts';
export { wrapTextOutput } from './policy/wrap-text.ts';
export type { WrapTextOptions, TextOutputMeta } from './policy/wrap-text.ts';
export type { OutputMeta, ListMeta, WithMeta } from './policy/meta.ts';
export { createErrorMeta, toToolError, isToolErrorOutput, STANDARD_TOOL_ERROR_CODES } from './policy/tool-error.ts';
export type { ToolErrorCode, ToolErrorOutput, ErrorMeta } from './policy/tool-error.ts';
export { summarizeSequence, summarizeRoute, routeStats, securityClass, truncateList } from './policy/summarize.ts';
export { aggregateDaily } from './policy/aggregate-history.ts';
export { groupByCategory } from './policy/group-tree.ts';
export { truncateText, splitLines } from './policy/truncate-text.ts';
export { SessionBudget, withBudgetWarning, getContextBudget, resetContextBudget } from './policy/budget.ts';
export type { BudgetPersistence, BudgetState, BudgetCheck, BudgetLevel, BudgetEvents, SessionBudgetOptions } from './policy/budget.ts';
export { sanitizeField, stripHtml, limitLength, escapeMarkdown, sanitizeOutput, dropSensitiveFields, redactForLog, SENSITIVE_KEY_PATTERN } from './policy/sanitize.ts';
export type { Redactor } from './policy/sanitize.ts';
export { TtlCache, VersionedCache } from './policy/cache.ts';
export { defineSingleton, registerSingletonReset, resetAllSingletons, singletonNames } from './policy/singletons.ts';
export { withLogContext, jsonOutputAdapter } from './policy/log-context.ts';
export type { LogRecord, LogContextOptions, OutputAdapter } from './policy/log-context.ts';
export { cite, citeSde, citeEos, citeEsi, citeWiki, formatCitation, defineCitationFormats, ARIA_CITATION_FORMATS } from './policy/provenance.ts';
export { applyToolPolicy, withToolPolicy, boundToolResult } from './policy/mcp.ts';
export type { McpPolicyOptions, AppliedPolicy } from './policy/mcp.ts';
export { utf8ByteLength, jsonByteLength } from './policy/bytes.ts';
export { secretRedactor, defaultRedactor } from './policy/redactor.ts';
export { storeBudgetPersistence } from './policy/budget-store.ts';
export type { StoreBudgetOptions } from './policy/budget-store.ts';
export type { Clock } from './policy/clock.ts';

// AgentContext store (spec 004). Backends are per-runtime entries: ctxgate/store/indexeddb,
// ctxgate/store/deno-kv, ctxgate/store/durable-object; the memory backend is here.
export type * from './store/model.ts';
export { NAMESPACES, isNamespace, CONTEXT_SCHEMA_VERSION, createAgentContext, validateAgentContext, validateField, agentContextSchema } from './store/model.ts';
export { ContextValidator, DEFAULT_AGENT_PERMISSIONS } from './store/access.ts';
export type { NamespaceGrant } from './store/access.ts';
export { ContextSizeChecker, DEFAULT_CONTEXT_LIMITS, getStats } from './store/limits.ts';
export type { ContextLimits, ContextStats } from './store/limits.ts';
export { DiffTracker, summarizeDiff } from './store/diff.ts';
export type { CapturedDiff } from './store/diff.ts';
export { AuditTrail, DEFAULT_AUDIT_HISTORY } from './store/audit.ts';
export { serializeContext, deserializeContext, cloneContext } from './store/serialize.ts';
export { MigrationRegistry, migrateContext } from './store/migrations.ts';
export type { Migration } from './store/migrations.ts';
export { externalizeArtifacts, loadArtifactContent, resolveArtifacts } from './store/artifacts.ts';
export type { ContextStore, ArtifactStore, LoadedContext, SaveOptions, DeleteOptions } from './store/context-store.ts';
export type { StoredRecord } from './store/record.ts';
export { recordChecksum } from './store/record.ts';
export { FORBIDDEN_KEYS } from './store/json-safety.ts';
export { createMemoryStore } from './store/backends/memory.ts';
