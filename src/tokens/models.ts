import { described, expectNumber, expectObject, expectOptionalArray, expectString } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { estimatorEncoder } from '../core/tokens.ts';
import type { TokenCounter } from './counter.ts';
import { estimator } from './estimator.ts';
import { resolveEncoding, type TokenEncoding } from './encoding.ts';

/** How a model's tokens are counted. */
export type ModelTokenizer =
  /** The model uses this public encoding: exact counts are possible, estimates are calibrated for it. */
  | { readonly kind: 'exact'; readonly encoding: TokenEncoding }
  /**
   * No public tokenizer: counts are ctxgate-est/1 estimates for `encoding`, multiplied by `factor`.
   * `calibration` says, in words, what the factor rests on.
   */
  | { readonly kind: 'estimated'; readonly encoding: TokenEncoding; readonly factor: number; readonly calibration: string };

/** A model's token limits and tokenizer. */
export interface ModelInfo {
  /** Model id as the provider's API spells it. */
  readonly id: string;
  readonly provider: 'openai' | 'anthropic' | 'google' | 'meta' | 'mistral' | 'qwen' | (string & {});
  /** Largest prompt the model accepts, in tokens. */
  readonly maxInputTokens: number;
  /** Largest response the model produces, in tokens. */
  readonly maxOutputTokens: number;
  /** Tokens kept free for the response by default (spec 001 `response_token_reserve`). */
  readonly responseReserve: number;
  readonly tokenizer: ModelTokenizer;
}

const openai = (id: string, maxIn: number, maxOut: number, reserve: number, encoding: TokenEncoding = 'o200k_base'): ModelInfo => ({
  id,
  provider: 'openai',
  maxInputTokens: maxIn,
  maxOutputTokens: maxOut,
  responseReserve: reserve,
  tokenizer: { kind: 'exact', encoding },
});

const CLAUDE = {
  kind: 'estimated',
  encoding: 'cl100k_base',
  factor: 1.25,
  calibration:
    'Anthropic publishes no tokenizer for Claude 3 and later. Counts are ctxgate-est/1 cl100k_base estimates x 1.25, a safety factor; they have not been measured against Claude\'s tokenizer. Use the provider\'s count-tokens endpoint when an exact figure matters.',
} as const satisfies ModelTokenizer;

const GEMINI = {
  kind: 'estimated',
  encoding: 'o200k_base',
  factor: 1.2,
  calibration:
    'Gemini\'s SentencePiece tokenizer is not available offline in JavaScript. Counts are ctxgate-est/1 o200k_base estimates x 1.2, a safety factor not measured against Gemini\'s tokenizer. Use the provider\'s countTokens endpoint when an exact figure matters.',
} as const satisfies ModelTokenizer;

const openModel = (family: string): ModelTokenizer => ({
  kind: 'estimated',
  encoding: 'cl100k_base',
  factor: 1.15,
  calibration: `${family} ships its own tokenizer, not bundled with ctxgate. Counts are ctxgate-est/1 cl100k_base estimates x 1.15, a safety factor not measured against that tokenizer.`,
});

const anthropic = (id: string, maxOut: number): ModelInfo => ({
  id,
  provider: 'anthropic',
  maxInputTokens: 200_000,
  maxOutputTokens: maxOut,
  responseReserve: Math.min(maxOut, 8192),
  tokenizer: CLAUDE,
});

const google = (id: string, maxIn: number, maxOut: number): ModelInfo => ({
  id,
  provider: 'google',
  maxInputTokens: maxIn,
  maxOutputTokens: maxOut,
  responseReserve: Math.min(maxOut, 8192),
  tokenizer: GEMINI,
});

const open = (id: string, provider: ModelInfo['provider'], family: string, maxIn: number, maxOut: number): ModelInfo => ({
  id,
  provider,
  maxInputTokens: maxIn,
  maxOutputTokens: maxOut,
  responseReserve: Math.min(maxOut, 4096),
  tokenizer: openModel(family),
});

/**
 * Built-in models. Limits are the providers' published figures; reasoning models reserve room
 * for reasoning tokens as well as the answer.
 */
export const BUILTIN_MODELS: readonly ModelInfo[] = [
  openai('gpt-4o', 128_000, 16_384, 4096),
  openai('gpt-4o-mini', 128_000, 16_384, 4096),
  openai('gpt-4.1', 1_047_576, 32_768, 8192),
  openai('gpt-4.1-mini', 1_047_576, 32_768, 8192),
  openai('gpt-4.1-nano', 1_047_576, 32_768, 8192),
  openai('gpt-5', 272_000, 128_000, 25_000),
  openai('gpt-5-mini', 272_000, 128_000, 25_000),
  openai('gpt-5-nano', 272_000, 128_000, 25_000),
  openai('o1', 200_000, 100_000, 25_000),
  openai('o3', 200_000, 100_000, 25_000),
  openai('o3-mini', 200_000, 100_000, 25_000),
  openai('o4-mini', 200_000, 100_000, 25_000),
  openai('gpt-4-turbo', 128_000, 4096, 4096, 'cl100k_base'),
  openai('gpt-4', 8192, 8192, 2048, 'cl100k_base'),
  openai('gpt-3.5-turbo', 16_385, 4096, 2048, 'cl100k_base'),
  anthropic('claude-opus-4-1', 32_000),
  anthropic('claude-opus-4', 32_000),
  anthropic('claude-sonnet-4-5', 64_000),
  anthropic('claude-sonnet-4', 64_000),
  anthropic('claude-haiku-4-5', 64_000),
  anthropic('claude-3-7-sonnet', 64_000),
  anthropic('claude-3-5-haiku', 8192),
  google('gemini-2.5-pro', 1_048_576, 65_536),
  google('gemini-2.5-flash', 1_048_576, 65_536),
  google('gemini-2.0-flash', 1_048_576, 8192),
  open('llama-3.1-8b', 'meta', 'Llama 3', 131_072, 4096),
  open('llama-3.1-70b', 'meta', 'Llama 3', 131_072, 4096),
  open('llama-3.3-70b', 'meta', 'Llama 3', 131_072, 4096),
  open('mistral-large', 'mistral', 'Mistral (Tekken)', 131_072, 4096),
  open('mistral-small', 'mistral', 'Mistral (Tekken)', 32_768, 4096),
  open('qwen2.5-72b', 'qwen', 'Qwen2.5', 131_072, 8192),
  open('qwen2.5-coder-32b', 'qwen', 'Qwen2.5', 131_072, 8192),
];

function validate(entry: ModelInfo, index: number): ModelInfo {
  const at = `models[${index}]`;
  if (typeof entry?.id !== 'string' || entry.id.length === 0) throw invalidParams(`${at}.id`, 'give the model a non-empty id.');
  for (const k of ['maxInputTokens', 'maxOutputTokens', 'responseReserve'] as const) {
    const v = entry[k];
    if (!Number.isSafeInteger(v) || v < 0) throw invalidParams(`${at}.${k}`, `expected a non-negative integer, got ${described(v)}.`);
  }
  if (entry.responseReserve > entry.maxInputTokens) {
    throw invalidParams(`${at}.responseReserve`, 'the reserve cannot exceed maxInputTokens; lower it.');
  }
  const t = entry.tokenizer;
  if (t?.kind === 'exact') resolveEncoding(t.encoding, `${at}.tokenizer.encoding`);
  else if (t?.kind === 'estimated') {
    resolveEncoding(t.encoding, `${at}.tokenizer.encoding`);
    if (!(typeof t.factor === 'number' && t.factor >= 1 && t.factor <= 4)) {
      throw invalidParams(`${at}.tokenizer.factor`, 'expected a number between 1 and 4 (estimates must not shrink).');
    }
    if (typeof t.calibration !== 'string' || t.calibration.length === 0) {
      throw invalidParams(`${at}.tokenizer.calibration`, 'say what the estimate is calibrated on.');
    }
  } else throw invalidParams(`${at}.tokenizer.kind`, "expected 'exact' or 'estimated'.");
  return entry;
}

/** A set of models: the built-ins, with user entries added or replacing built-ins of the same id. */
export interface ModelRegistry {
  /** The model with this id; INVALID_PARAMS listing the known ids when there is none. */
  get(id: string): ModelInfo;
  /** Whether a model with this id is known. */
  has(id: string): boolean;
  /** Known ids, sorted. */
  ids(): string[];
}

/** Builds a registry from the built-in models and `entries` (which override by id). */
export function modelRegistry(entries: readonly ModelInfo[] = []): ModelRegistry {
  expectOptionalArray(entries, 'entries');
  const byId = new Map<string, ModelInfo>();
  for (const m of BUILTIN_MODELS) byId.set(m.id, m);
  entries.forEach((m, i) => {
    const entry = validate(m, i);
    byId.set(entry.id, entry);
  });
  const ids = [...byId.keys()].sort();
  return {
    get(id) {
      expectString(id, 'id');
      const model = byId.get(id);
      if (!model) throw invalidParams('model', `unknown model ${JSON.stringify(id)}; use one of the known ids or register it.`, { known: ids });
      return model;
    },
    has: (id) => byId.has(id),
    ids: () => [...ids],
  };
}

let builtin: ModelRegistry | undefined;

/** A built-in model by id (INVALID_PARAMS listing the known ids when unknown). */
export function getModel(id: string): ModelInfo {
  expectString(id, 'id');
  builtin ??= modelRegistry();
  return builtin.get(id);
}

/**
 * The estimator for a model: ctxgate-est/1 for its encoding, times the safety factor of models
 * without a public tokenizer (rounded up). The encoder names both, e.g.
 * `ctxgate-est/1:cl100k_base*1.25`. Needs the core loaded.
 */
export function modelEstimator(model: ModelInfo): TokenCounter {
  expectObject(model, 'model');
  const tokenizer: unknown = model.tokenizer;
  expectObject(tokenizer, 'model.tokenizer');
  if (tokenizer.kind !== 'exact' && tokenizer.kind !== 'estimated') {
    throw invalidParams('model.tokenizer.kind', "expected 'exact' or 'estimated'.");
  }
  const encoding = resolveEncoding(tokenizer.encoding, 'model.tokenizer.encoding');
  const base = estimator({ encoding });
  if (tokenizer.kind === 'exact') return base;
  const factor = tokenizer.factor;
  expectNumber(factor, 'model.tokenizer.factor');
  const encoder = `${estimatorEncoder(encoding)}*${factor}`;
  // Integer per-mille arithmetic, so the result does not depend on float rounding of the factor.
  const permille = Math.round(factor * 1000);
  return (text) => ({ tokens: Math.ceil((base(text).tokens * permille) / 1000), exact: false, encoder });
}
