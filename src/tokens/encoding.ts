import { kindOf } from '../args.ts';
import { invalidParams } from '../errors.ts';

/** The BPE encoding families ctxgate counts and estimates for. */
export type TokenEncoding = 'o200k_base' | 'cl100k_base';

/** Every supported encoding, in a stable order. */
export const TOKEN_ENCODINGS: readonly TokenEncoding[] = ['o200k_base', 'cl100k_base'];

/** The encoding used when none is given: GPT-4o and later OpenAI models. */
export const DEFAULT_ENCODING: TokenEncoding = 'o200k_base';

/** Options shared by the counting functions. */
export interface EncodingOptions {
  /** Encoding family; default `o200k_base`. */
  readonly encoding?: TokenEncoding;
}

/** Validates an encoding name (callers from plain JS can pass anything). */
export function resolveEncoding(encoding: unknown, field = 'encoding'): TokenEncoding {
  if (encoding === undefined) return DEFAULT_ENCODING;
  if (encoding === 'o200k_base' || encoding === 'cl100k_base') return encoding;
  // Only a string is quoted back: another kind of value (a BigInt, a cyclic object) is named by its kind.
  const what = typeof encoding === 'string' ? `unknown encoding ${JSON.stringify(encoding)}` : `expected an encoding name, got ${kindOf(encoding)}`;
  throw invalidParams(field, `${what}; use one of ${TOKEN_ENCODINGS.join(', ')}.`, {
    known: [...TOKEN_ENCODINGS],
  });
}

/** Throws INVALID_PARAMS unless `text` is a string. */
export function requireText(text: unknown, field = 'text'): asserts text is string {
  if (typeof text !== 'string') throw invalidParams(field, `expected a string, got ${text === null ? 'null' : typeof text}.`);
}
