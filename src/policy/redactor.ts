/**
 * The secret scanner as the policy's log redactor (spec 000 §6, "logging: redact through the
 * secret scanner"). The scanner runs in the WebAssembly core, which loads asynchronously, while
 * log records are written synchronously; so the default redactor exists only once the core is
 * loaded, and callers withhold strings until then instead of logging them unscanned.
 */
import { expectOptions } from '../args.ts';
import { getCore, initCore } from '../core/core.ts';
import { redactSecrets } from '../secrets/redact.ts';
import type { ScanOptions } from '../secrets/types.ts';
import type { Redactor } from './sanitize.ts';

/**
 * A {@link Redactor} that replaces every secret the scanner finds with `[REDACTED:<rule-id>:<n>]`
 * (medium-confidence findings are redacted, never refused). Needs the core loaded (`await loadCore()`).
 *
 * @example withLogContext('repo', handler, { redact: secretRedactor({ denyRules: ['generic-password'] }) })
 */
export function secretRedactor(options: Omit<ScanOptions, 'mediumConfidence' | 'path'> = {}): Redactor {
  expectOptions(options);
  // Log lines are no file's text: a `path` passed anyway (from JavaScript) is not used.
  const { path: _path, ...rest } = options as ScanOptions;
  const scan: ScanOptions = { ...rest, mediumConfidence: 'redact' };
  return (text) => redactSecrets(text, scan).text;
}

const scannerRedactor = secretRedactor();

/**
 * The redactor used when none is configured: the secret scanner when the core is loaded, else
 * `undefined`, and the caller withholds the text (e.g. `[12 chars]`).
 */
export function defaultRedactor(): Redactor | undefined {
  try {
    getCore();
  } catch {
    return undefined;
  }
  return scannerRedactor;
}

/**
 * Loads the core if it is not loaded yet (the runtime's default module), then returns
 * {@link defaultRedactor}: for text that goes to a model rather than to a log, where withholding
 * it is the only other safe choice. A core that cannot load gives `undefined`, never an error.
 */
export async function loadDefaultRedactor(): Promise<Redactor | undefined> {
  try {
    await initCore();
  } catch {
    // The caller withholds the text instead.
  }
  return defaultRedactor();
}
