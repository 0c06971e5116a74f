// What the builder needs from the secrets and tokens modules, as one small interface. The default
// implementation (./default-gates.ts) wires the WebAssembly scanner and estimator; tests can pass
// their own. Nothing here ever carries a secret value.
import type { TokenCount } from '../tokens/counter.ts';
import type { Encoding, ExclusionReason } from './types.ts';

/** A secret finding: where and which rule, never the value. */
export interface GateFinding {
  ruleId: string;
  confidence: 'high' | 'medium';
  line: number;
  column: number;
}

/** Redacted text and what was replaced. */
export interface GateRedaction {
  text: string;
  redactions: { ruleId: string; placeholder: string; line: number; column: number; confidence: 'high' | 'medium' }[];
}

/** The decisions the builder delegates. */
export interface BuilderGates {
  /** Normalises a path into the project's relative form; refuses paths outside the jail. */
  normalizePath(path: string): { ok: true; path: string } | { ok: false; reason: 'outside_sandbox'; detail: string };
  /**
   * Deny rules (never-send defaults plus the caller's), with allow rules re-including paths. A
   * denied path names the rule's pattern and a detail saying which list it is from.
   */
  isDenied(path: string): { denied: false } | { denied: true; rule: string; detail: string };
  /** Binary and encoding detection, and decoding; fail closed when unsure. */
  decodeContent(bytes: Uint8Array): { binary: false; encoding: Encoding; bom: boolean; text: string; lineCount: number } | { binary: true; encoding: Encoding; detail: string };
  /** The same decision as {@link decodeContent} without the text (indexing needs only the verdict). */
  classifyContent(bytes: Uint8Array): { binary: false; encoding: Encoding; lineCount: number } | { binary: true; encoding: Encoding; detail: string };
  /**
   * Secret findings in text; `utf8`, when given, is exactly the text's UTF-8 (saves encoding it
   * again); `path`, when the text is a file's (or part of one), its project path, whose extension
   * says whether it is source code (ScanOptions.path).
   */
  scanSecrets(text: string, utf8?: Uint8Array, path?: string): GateFinding[];
  /** Redacts every finding with stable placeholders; `path` as for {@link scanSecrets}. */
  redactSecrets(text: string, path?: string): GateRedaction;
  /** Token count of a text. */
  countTokens(text: string): TokenCount;
  /**
   * Token count of a block: its title, a newline, then its content (as `countTokens` would count
   * that text). `utf8`, when given, is exactly the content's UTF-8.
   */
  countBlockTokens(title: string, content: string, utf8?: Uint8Array): TokenCount;
  /** Identifies the gates' versions for the config fingerprint (ruleset, estimator). */
  readonly versions: Record<string, string>;
}

/** Maps a gate decision to the manifest reason. */
export type GateExclusion = { reason: ExclusionReason; detail: string };
