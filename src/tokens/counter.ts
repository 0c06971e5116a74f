/**
 * The one shape every token count in ctxgate takes: how many, whether the number is exact, and
 * which encoder produced it (an exact encoding such as `o200k_base`, or an estimator id such as
 * `ctxgate-est/1`). Modules that need counts take a {@link TokenCounter} so callers choose
 * between the fast estimator and exact tokenisation.
 */
export interface TokenCount {
  /** Number of tokens. */
  readonly tokens: number;
  /** True when counted by the real tokenizer, false when estimated. */
  readonly exact: boolean;
  /** The encoding (`o200k_base`, `cl100k_base`) or estimator id (`ctxgate-est/1`). */
  readonly encoder: string;
}

/** A synchronous, deterministic token counter. */
export type TokenCounter = (text: string) => TokenCount;
