// The Context Builder's schemas (spec 001, V1), in camelCase. Inputs are validated at run time by
// ./schema.ts; these types are what callers write and what the builder returns.
import type { BlockType, Priority } from '../core/sort.ts';

export type { BlockType, Priority };

/** What the bundle is for. */
export type Purpose = 'intent' | 'plan' | 'diff';
/** Text encodings the builder can read. Anything else is `unknown` and excluded. */
export type Encoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'ascii' | 'windows-1252' | 'unknown';
/** How much of a file a block carries. */
export type SlicingLevel = 'FULL_FILE' | 'TARGET_REGION_ONLY' | 'SIGNATURES_ONLY' | 'SUMMARY_ONLY';
/** Why a file was included (manifest `included_files[].reason`). */
export type InclusionReason = 'target' | 'dependency' | 'interface' | 'caller' | 'base_type' | 'config' | 'user_selected';
/** Why a candidate was excluded (manifest `excluded_candidates[].reason`). */
export type ExclusionReason = 'deny_rule' | 'binary' | 'too_large' | 'token_budget' | 'outside_sandbox' | 'secret_risk' | 'duplicate';
/** Budget decision (spec 001, Budgeting Rules). */
export type BudgetDecision = 'ok' | 'warn_soft_limit' | 'refuse_hard_limit';

/** One typed block of context. */
export interface ContextBlock {
  blockId: string;
  blockType: BlockType;
  priority: Priority;
  title: string;
  content: string;
  meta: {
    path: string | null;
    symbol: string | null;
    hash: string | null;
    encoding: Encoding;
    byteSize: number;
    lineCount: number;
    source: 'index' | 'filesystem' | 'user' | 'system';
    /** How much of the file this block carries (file blocks only). */
    slicing?: SlicingLevel;
    /** Token count of `content` and how it was counted. */
    tokens: number;
  };
}

/** The model and its limits. */
export interface ModelBudget {
  provider: string;
  model: string;
  maxInputTokens: number;
  maxOutputTokens: number;
  responseTokenReserve: number;
  softLimitThresholdPct: number;
}

/** The canonical output: ordered, typed blocks. */
export interface ContextBundle {
  bundleId: string;
  bundleVersion: 1;
  createdAt: string;
  purpose: Purpose;
  correlationId: string;
  model: ModelBudget;
  blocks: ContextBlock[];
}

/** An included file in the manifest. */
export interface IncludedFile {
  path: string;
  hash: string;
  encoding: Encoding;
  byteSize: number;
  reason: InclusionReason;
}

/** An excluded candidate in the manifest. */
export interface ExcludedCandidate {
  path: string;
  reason: ExclusionReason;
}

/** Metadata for audit and reproducibility. */
export interface ContextManifest {
  bundleId: string;
  correlationId: string;
  purpose: Purpose;
  selection: {
    targetFiles: string[];
    targetSymbols: string[];
    includedFiles: IncludedFile[];
    excludedCandidates: ExcludedCandidate[];
  };
  fingerprints: {
    projectIndexFingerprint: string;
    configFingerprint: string;
    bundleFingerprint: string;
  };
}

/** One redaction, exclusion or slicing action. Never contains a secret or file content. */
export interface Redaction {
  type: 'path_excluded' | 'pattern_redacted' | 'block_removed' | 'content_sliced';
  target: string;
  reason: 'secret' | 'deny_rule' | 'budget' | 'binary' | 'policy';
  details: string;
}

/** What was excluded, removed, redacted or sliced, and why. */
export interface RedactionReport {
  bundleId: string;
  redactions: Redaction[];
}

/** Token accounting and the decision. */
export interface BudgetReport {
  bundleId: string;
  estimatedInputTokens: number;
  maxInputTokens: number;
  softLimitTokens: number;
  hardLimitTokens: number;
  reserveOutputTokens: number;
  decision: BudgetDecision;
  notes: string[];
}

// ---------------------------------------------------------------------------------------------
// The project index

/** A symbol definition the index knows, with its exact line range (1-based, inclusive). */
export interface IndexedSymbol {
  name: string;
  path: string;
  kind?: string;
  startLine: number;
  endLine: number;
  /** The declaration line(s) without a body, if the indexer extracted it. */
  signature?: string;
}

/** A directed relation between two files, from the indexer. */
export interface DependencyEdge {
  from: string;
  to: string;
  kind: 'import' | 'interface' | 'base_type' | 'call';
}

/** A file of the project index. */
export interface IndexedFile {
  path: string;
  byteSize: number;
  /** Lowercase hex SHA-256 of the bytes at index time. */
  hash: string;
  encoding: Encoding;
  lineCount?: number;
  /** The file's role, if the indexer knows it (`config` files score +30 when relevant). */
  role?: 'source' | 'config' | 'test' | 'doc';
  /** Signatures-only rendering, if the indexer can produce it reliably (enables SIGNATURES_ONLY). */
  signatures?: string;
  /** A summary, if the indexer produced one (enables SUMMARY_ONLY, the last resort). */
  summary?: string;
  /** Why the indexer excluded the file, if it did (binary, deny rule…). */
  excluded?: ExclusionReason;
}

/** The project index: files, symbols, dependency graph, hashes. */
export interface ProjectIndex {
  files: IndexedFile[];
  symbols?: IndexedSymbol[];
  dependencies?: DependencyEdge[];
  /** Fingerprint of the index; computed when absent. */
  projectIndexFingerprint?: string;
}

// ---------------------------------------------------------------------------------------------
// The builder's input

/** Active constraints by scope; each a list of rules in the caller's words. */
export interface Constraints {
  system?: string[];
  project?: string[];
  session?: string[];
  user?: string[];
}

/** What to do with secrets found in text that would be sent. */
export interface SecretPolicy {
  /** High-confidence findings: redact the spans (default) or remove the whole block. */
  highConfidence?: 'redact' | 'exclude';
  /** Medium-confidence findings: redact, or refuse (default: fail closed on uncertainty). */
  mediumConfidence?: 'redact' | 'refuse';
}

/** Input of {@link buildContext}. */
export interface BuildContextInput {
  purpose: Purpose;
  intent: { id: string; text: string } | null;
  planStep?: {
    id: string;
    description?: string;
    targetFiles?: string[];
    targetSymbols?: string[];
  } | null;
  projectIndex: ProjectIndex;
  constraints: Constraints;
  tokenBudget: ModelBudget;
  sandbox?: {
    /** Extra deny rules, .gitignore syntax, on top of the never-send defaults. */
    deny?: string[];
    /** Allow rules (.gitignore syntax, as `!pattern` would be) that re-include paths. */
    allow?: string[];
  };
  activeFile?: string | null;
  userSelectedTargets?: { files?: string[]; symbols?: { name: string; path: string }[] } | null;
  lastError?: { message: string; path?: string; line?: number } | null;
  /** Rules for the call (the system block); a built-in text per purpose when omitted. */
  systemRules?: string;
  secrets?: SecretPolicy;
  /** Which token counter: the versioned estimator (default) or exact counts for an encoding. */
  tokenizer?: { mode: 'estimate' | 'exact'; encoding?: 'o200k_base' | 'cl100k_base' };
  /** Graph hops explored from the targets (default 2). */
  maxHops?: number;
  /** Files larger than this are excluded as `too_large` (default 1 MiB). */
  maxFileBytes?: number;
  /** Identifiers and time; derived deterministically from the fingerprints when omitted. */
  bundleId?: string;
  correlationId?: string;
  createdAt?: string;
}

/** One line of the explanation: every candidate and what happened to it. */
export interface ExplainEntry {
  path: string;
  outcome: 'included' | 'sliced' | 'excluded' | 'dropped';
  reason: InclusionReason | ExclusionReason | 'target_symbol';
  priority: Priority | null;
  score: number | null;
  hops: number;
  byteSize: number;
  tokens: number | null;
  slicing: SlicingLevel | null;
  detail: string;
}

/** Everything {@link buildContext} returns when it does not refuse. */
export interface BuildContextResult {
  bundle: ContextBundle;
  manifest: ContextManifest;
  redactionReport: RedactionReport;
  budgetReport: BudgetReport;
  explain: ExplainEntry[];
}
