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

/** A match of {@link scanSecretText}: UTF-16 offsets, and the line and column of its start. */
export interface RawSecretTextMatch extends RawSecretMatch {
  /** 1-based line of `start` (lines end at `\n`). */
  readonly line: number;
  /** 1-based column of `start`, in UTF-16 code units. */
  readonly column: number;
}

/** What one core scan returns: matches in bytes plus the work counter. */
export interface RawSecretScan {
  readonly matches: RawSecretMatch[];
  /** UTF-8 length of the scanned text. */
  readonly byteLength: number;
  /** Bytes inspected by the core (linear-time checks). */
  readonly steps: number;
}

/** The core whose rule count was last checked (the check is one call per instance, not per scan). */
let checked: Core | undefined;

/** Checks that the loaded core was built from the same rule set as the host's table. */
function checkRules(core: Core, expectedRules: number): void {
  if (core === checked) return;
  const count = core.raw.secretRuleCount();
  if (count !== expectedRules) {
    throw new CtxgateError(
      'WASM_LOAD_FAILED',
      `The ctxgate core has ${count} secret rules but this library expects ${expectedRules}; load the .wasm that ships with this version of ctxgate.`,
      { details: { coreRules: count, expectedRules } },
    );
  }
  checked = core;
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
 * Scans a string (or `utf8`, when given: exactly the string's UTF-8 bytes, copied rather than
 * encoded again) and returns its matches as packed u32 records, `n = length / 7` of them: rule
 * index, UTF-16 start, UTF-16 end and confidence (1 high) at `4k`; the line and column of the start
 * at `4n + 2k`; and at `6n + k` what the core saw of the value for the placeholder check (see
 * `isPlaceholderHinted`). The core works positions out over the bytes it already holds (an ASCII
 * text, as many bytes as code units, needs no offset mapping), so the host never walks the string
 * and makes no object per match.
 */
export function scanSecretRecords(text: string, expectedRules: number, utf8?: Uint8Array): Uint32Array {
  return withCore((core) => {
    checkRules(core, expectedRules);
    // Bytes the caller already holds as the text's UTF-8 are copied, not encoded again.
    const { ptr, len } = core.writeInput(utf8 ?? text);
    const n = core.raw.secretScan(ptr, len);
    if (n === 0) return new Uint32Array(0);
    const out = core.view(core.raw.secretPositions(n, len !== text.length ? 1 : 0), n * 28);
    return new Uint32Array(out.buffer, out.byteOffset, n * 7).slice();
  });
}

/**
 * Like {@link scanSecretBytes} for a string, but `start`/`end` are UTF-16 offsets into `text` and
 * each match carries the line and column of its start (see {@link scanSecretRecords}).
 */
export function scanSecretText(text: string, expectedRules: number): { matches: RawSecretTextMatch[] } {
  const words = scanSecretRecords(text, expectedRules);
  const n = words.length / 7;
  const matches: RawSecretTextMatch[] = [];
  for (let k = 0; k < n; k++) {
    matches.push({
      rule: words[k * 4]!,
      start: words[k * 4 + 1]!,
      end: words[k * 4 + 2]!,
      confidence: words[k * 4 + 3] === 1 ? 1 : 2,
      line: words[n * 4 + k * 2]!,
      column: words[n * 4 + k * 2 + 1]!,
    });
  }
  return { matches };
}
