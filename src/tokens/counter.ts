import { described, kindOf } from '../args.ts';
import { invalidParams } from '../errors.ts';

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

/**
 * `counter` with every result checked: each call must return a {@link TokenCount}, an object whose
 * `tokens` is a finite number of at least 0, whose `exact` is a boolean and whose `encoder` is a
 * string. Anything else (`undefined`, a bare number, `{ tokens: NaN }`) is INVALID_PARAMS naming
 * `field` and saying what came back, instead of a TypeError deep inside, or a comparison with NaN
 * that silently cuts everything. Errors the counter throws itself pass through unchanged.
 */
export function checkedCounter(counter: TokenCounter, field: string): TokenCounter {
  return (text) => {
    const count: unknown = counter(text);
    const problem = tokenCountProblem(count);
    if (problem !== undefined) {
      throw invalidParams(field, `must return a TokenCount { tokens, exact, encoder } with tokens a finite number of at least 0 (returned ${problem}).`, {
        expected: 'a TokenCount',
        got: problem,
      });
    }
    return count as TokenCount;
  };
}

/** What is wrong with a counter's result, or undefined when it is a valid TokenCount. */
function tokenCountProblem(count: unknown): string | undefined {
  if (count === null || typeof count !== 'object' || Array.isArray(count)) return kindOf(count);
  const c = count as { tokens?: unknown; exact?: unknown; encoder?: unknown };
  if (typeof c.tokens !== 'number' || !Number.isFinite(c.tokens) || c.tokens < 0) return `an object with tokens ${described(c.tokens)}`;
  if (typeof c.exact !== 'boolean') return `an object with exact ${kindOf(c.exact)}`;
  if (typeof c.encoder !== 'string') return `an object with encoder ${kindOf(c.encoder)}`;
  return undefined;
}
