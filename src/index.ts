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

// Token counts
export type { TokenCount, TokenCounter } from './tokens/counter.ts';

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
