import { expectOptions } from '../args.ts';
import { estimateTokens } from '../core/tokens.ts';
import type { TokenCounter } from './counter.ts';
import { resolveEncoding, type EncodingOptions } from './encoding.ts';

/**
 * A {@link TokenCounter} backed by the core's estimator (ctxgate-est/1), for budgets that must be
 * fast and never dangerously low. Counts report `exact: false` and an encoder such as
 * `ctxgate-est/1:o200k_base`. The core must be loaded (`await init()`) before the counter is used.
 */
export function estimator(options: EncodingOptions = {}): TokenCounter {
  expectOptions(options);
  const encoding = resolveEncoding(options.encoding, 'options.encoding');
  return (text) => estimateTokens(text, { encoding });
}

/** What ctxgate-est/1 was calibrated on (corpus sizes, margins, calibration-set error). */
export { CALIBRATION_INFO } from './calibration.generated.ts';
