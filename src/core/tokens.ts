import { expectOptionalString, expectOptions } from '../args.ts';
import { CtxgateError } from '../errors.ts';
import type { TokenCount } from '../tokens/counter.ts';
import { requireText, resolveEncoding, type EncodingOptions, type TokenEncoding } from '../tokens/encoding.ts';
import { withCore, type Core } from './core.ts';

/** Id of the estimator model; recorded in every estimate (`ctxgate-est/1:o200k_base`). */
export const ESTIMATOR_ID = 'ctxgate-est/1';

const ENC_CODE: Record<TokenEncoding, number> = { o200k_base: 0, cl100k_base: 1 };

/**
 * The `encoder` an estimate for `encoding` reports. `undefined` is the default encoding, as in
 * {@link estimateTokens}; anything else that is not a known encoding is INVALID_PARAMS.
 */
export function estimatorEncoder(encoding: TokenEncoding): string {
  expectOptionalString(encoding, 'encoding');
  return `${ESTIMATOR_ID}:${resolveEncoding(encoding)}`;
}

/**
 * Estimated token count of `text` for an encoding family, computed in the core by ctxgate-est/1:
 * the text is split as the encoding's pre-tokeniser splits it, each piece is matched greedily
 * against the vocabulary, and calibrated ratios plus a small safety margin turn that into a count
 * that leans high. Deterministic across runtimes; `''` is 0. Synchronous: needs `await init()`.
 */
export function estimateTokens(text: string, options: EncodingOptions = {}): TokenCount {
  requireText(text);
  expectOptions(options);
  expectOptionalString(options.encoding, 'options.encoding');
  const encoding = resolveEncoding(options.encoding);
  if (text.length === 0) return { tokens: 0, exact: false, encoder: estimatorEncoder(encoding) };
  return estimateWindow(encoding, (core) => core.writeInput(text));
}

/**
 * `estimateTokens(\`${title}\n${content}\`)` (a context block as the builder counts it) without
 * building that string: the two parts are encoded straight into the core's window. Same count.
 * `utf8`, when given, is exactly the content's UTF-8 and is copied instead of encoding the content.
 */
export function estimateBlockTokens(title: string, content: string, options: EncodingOptions = {}, utf8?: Uint8Array): TokenCount {
  requireText(title);
  requireText(content);
  // The newline ends the first part, so no surrogate pair can straddle the two.
  return estimateWindow(resolveEncoding(options.encoding), (core) => core.writeStrings(`${title}\n`, utf8 ?? content));
}

/** Runs the core's estimator over what `write` put in the input window. */
function estimateWindow(encoding: TokenEncoding, write: (core: Core) => { ptr: number; len: number }): TokenCount {
  const tokens = withCore((core) => {
    const { ptr, len } = write(core);
    return core.raw.tokensEstimate(ptr, len, ENC_CODE[encoding]) >>> 0;
  });
  if (tokens === 0xffffffff) {
    throw new CtxgateError('CORE_FAILURE', `The loaded core does not know encoding ${encoding}; load the .wasm that ships with this version of ctxgate.`);
  }
  return { tokens, exact: false, encoder: estimatorEncoder(encoding) };
}

/** Version number of the estimator model inside the loaded core. Synchronous: needs `await init()`. */
export function estimatorVersion(): number {
  return withCore((core) => core.raw.tokensEstimatorVersion() >>> 0);
}
