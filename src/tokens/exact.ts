import { expectOptions } from '../args.ts';
import { CtxgateError, errorName, messageOf } from '../errors.ts';
import type { TokenCount, TokenCounter } from './counter.ts';
import { requireText, resolveEncoding, type EncodingOptions, type TokenEncoding } from './encoding.ts';

/** The part of js-tiktoken's encoder that ctxgate uses. */
interface Encoder {
  encode(text: string, allowedSpecial?: string[] | 'all', disallowedSpecial?: string[] | 'all'): number[];
}

const encoders = new Map<TokenEncoding, Promise<Encoder>>();

async function load(encoding: TokenEncoding): Promise<Encoder> {
  try {
    // Ranks ship inside js-tiktoken: nothing is fetched, so this works offline and on workerd.
    const [{ Tiktoken }, ranks] = await Promise.all([
      import('js-tiktoken/lite'),
      encoding === 'o200k_base' ? import('js-tiktoken/ranks/o200k_base') : import('js-tiktoken/ranks/cl100k_base'),
    ]);
    return new Tiktoken(ranks.default);
  } catch (cause) {
    // The reason goes into the message too: test runners and worker boundaries often drop `cause`
    // (or fail to serialise it), and a bundler's failed chunk load is only visible there.
    const reason = cause instanceof Error ? `${errorName(cause)}: ${messageOf(cause)}` : Object.prototype.toString.call(cause);
    throw new CtxgateError('INTERNAL_ERROR', `Could not load the ${encoding} ranks from js-tiktoken (${reason}); check that js-tiktoken is installed and bundled.`, {
      cause,
      details: { encoding, reason },
    });
  }
}

/** The exact encoder for an encoding, loaded once per thread (later calls share the promise). */
function encoderFor(encoding: TokenEncoding): Promise<Encoder> {
  let pending = encoders.get(encoding);
  if (!pending) {
    pending = load(encoding);
    // A failed load is not cached, so a later call can retry.
    pending.catch(() => encoders.delete(encoding));
    encoders.set(encoding, pending);
  }
  return pending;
}

function count(encoder: Encoder, encoding: TokenEncoding, text: string): TokenCount {
  // Special-token text such as "<|endoftext|>" is counted as ordinary text, never rejected.
  return { tokens: text.length === 0 ? 0 : encoder.encode(text, [], []).length, exact: true, encoder: encoding };
}

/**
 * Exact token count of `text` with js-tiktoken (ranks bundled, loaded lazily on first use; no
 * network). The first call for an encoding pays the ranks' load time.
 */
export async function countTokens(text: string, options: EncodingOptions = {}): Promise<TokenCount> {
  requireText(text);
  expectOptions(options);
  const encoding = resolveEncoding(options.encoding, 'options.encoding');
  return count(await encoderFor(encoding), encoding, text);
}

/**
 * An exact {@link TokenCounter} for an encoding. Async because the ranks load first; the counter
 * itself is synchronous.
 */
export async function exactCounter(options: EncodingOptions = {}): Promise<TokenCounter> {
  expectOptions(options);
  const encoding = resolveEncoding(options.encoding, 'options.encoding');
  const encoder = await encoderFor(encoding);
  return (text) => {
    requireText(text);
    return count(encoder, encoding, text);
  };
}
