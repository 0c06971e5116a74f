import { CtxgateError } from '../errors.ts';
import { withCore, type Core } from './core.ts';

/** One match reported by the core's secret scanner: UTF-8 byte offsets, or UTF-16 from {@link scanSecretText}. */
export interface RawSecretMatch {
  /** Index of the rule in the compiled rule set (`RULES` in src/secrets/rules.generated.ts). */
  readonly rule: number;
  /** Offset of the secret's first byte (or code unit). */
  readonly start: number;
  /** Offset just past the secret. */
  readonly end: number;
  /** 1 = high confidence, 2 = medium. */
  readonly confidence: 1 | 2;
}

/** What one core scan returns: matches in bytes plus the work counter. */
export interface RawSecretScan {
  readonly matches: RawSecretMatch[];
  /** UTF-8 length of the scanned text. */
  readonly byteLength: number;
  /** Bytes inspected by the core (linear-time checks). */
  readonly steps: number;
}

/** Checks that the loaded core was built from the same rule set as the host's table. */
function checkRules(core: Core, expectedRules: number): void {
  const count = core.raw.secretRuleCount();
  if (count !== expectedRules) {
    throw new CtxgateError(
      'WASM_LOAD_FAILED',
      `The ctxgate core has ${count} secret rules but this library expects ${expectedRules}; load the .wasm that ships with this version of ctxgate.`,
      { details: { coreRules: count, expectedRules } },
    );
  }
}

/** Reads the scanner's `n` 16-byte records from the output window. */
function readMatches(core: Core, n: number): RawSecretMatch[] {
  const matches: RawSecretMatch[] = [];
  if (n === 0) return matches;
  const out = core.readOutput();
  const words = new Uint32Array(out.buffer, out.byteOffset, n * 4);
  for (let k = 0; k < n; k++) {
    matches.push({
      rule: words[k * 4]!,
      start: words[k * 4 + 1]!,
      end: words[k * 4 + 2]!,
      confidence: words[k * 4 + 3] === 1 ? 1 : 2,
    });
  }
  return matches;
}

/**
 * Runs the core's secret scanner over a string's UTF-8 bytes. Synchronous: needs the core loaded.
 * `expectedRules` guards against a .wasm built from a different rule set than the host's table.
 */
export function scanSecretBytes(input: string | Uint8Array, expectedRules: number): RawSecretScan {
  return withCore((core) => {
    checkRules(core, expectedRules);
    const { ptr, len } = core.writeInput(input);
    const n = core.raw.secretScan(ptr, len);
    const steps = core.raw.secretScanSteps();
    return { matches: readMatches(core, n), byteLength: len, steps };
  });
}

/**
 * Like {@link scanSecretBytes} for a string, but `start`/`end` are UTF-16 offsets into `text`. An
 * ASCII text (as many bytes as code units) needs no mapping; otherwise the core maps the few match
 * boundaries over the bytes it already holds, instead of the host walking the string.
 */
export function scanSecretText(text: string, expectedRules: number): RawSecretScan {
  return withCore((core) => {
    checkRules(core, expectedRules);
    const { ptr, len } = core.writeString(text);
    const n = core.raw.secretScan(ptr, len);
    const steps = core.raw.secretScanSteps();
    if (n > 0 && len !== text.length) core.raw.secretOffsetsUtf16(n);
    return { matches: readMatches(core, n), byteLength: len, steps };
  });
}
