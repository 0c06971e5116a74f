/**
 * The spec's error response format (spec 000 §7): `{ error: true, errorCode, message, _meta }`.
 * Errors are outputs too: they are bounded (message at most 500 characters), stamped and counted,
 * so an agent can branch on `errorCode` without parsing prose.
 */
import { expectObject, expectOptions } from '../args.ts';
import { codePointLength } from '../encoding/utf16.ts';
import { errorName, isCtxgateError } from '../errors.ts';
import type { CtxgateErrorCode } from '../errors.ts';
import { jsonStringByteLength, toJsonText, utf8ByteLength } from './bytes.ts';
import { expectInteger, expectOptionalFunction, expectOptionalInteger } from './checks.ts';
import { isoTimestamp, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { GLOBAL_LIMITS, MIN_MAX_BYTES } from './limits.ts';
import type { ToolLimits } from './limits.ts';
import { limitChars } from './text-limits.ts';

/** The five standard codes of spec 000 §7. */
export type StandardToolErrorCode = 'NOT_FOUND' | 'INVALID_PARAMS' | 'RATE_LIMITED' | 'AUTH_REQUIRED' | 'CAPABILITY_DENIED';

/** The standard codes with their meaning, as listed in the spec. */
export const STANDARD_TOOL_ERROR_CODES: Readonly<Record<StandardToolErrorCode, string>> = Object.freeze({
  NOT_FOUND: 'Requested resource not found',
  INVALID_PARAMS: 'Invalid or missing parameters',
  RATE_LIMITED: 'Too many requests',
  AUTH_REQUIRED: 'Authentication needed',
  CAPABILITY_DENIED: 'Action blocked by policy',
});

/**
 * A tool error code: a standard one, `INTERNAL_ERROR` for unexpected failures, `TIMEOUT`, or any
 * other `UPPER_SNAKE_CASE` code a tool defines.
 */
export type ToolErrorCode = StandardToolErrorCode | 'INTERNAL_ERROR' | 'TIMEOUT' | (string & {});

/** The `_meta` of an error output. */
export interface ErrorMeta {
  readonly count: 0;
  readonly timestamp: string;
  readonly budgetWarning?: string;
}

/** An error as a tool returns it. */
export interface ToolErrorOutput {
  readonly error: true;
  readonly errorCode: ToolErrorCode;
  readonly message: string;
  readonly _meta: ErrorMeta;
}

/** Options of {@link createErrorMeta}. */
export interface ErrorOutputOptions {
  /** Clock for `_meta.timestamp`. */
  clock?: Clock;
  /** Longest message kept, in characters (default 500, spec 000 §7). */
  maxMessageChars?: number;
  /**
   * Most UTF-8 bytes of the whole serialised error, `_meta` included: an error is a tool output,
   * and the tool's byte limit (spec 000 §2) holds for it too. Default `limits.maxBytes`, else
   * 10 KB (a tool result, §1). The message is cut further (ending with `…`) until the error fits;
   * `error`, `errorCode` and `_meta` are always kept. At least {@link MIN_MAX_BYTES} (256), which
   * always holds the envelope with an empty message (else INVALID_PARAMS).
   */
  maxBytes?: number;
  /** The tool's declared limits; only `maxBytes` is used. */
  limits?: ToolLimits;
}

const CODE_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * Builds the error output of spec 000 §7. The message is cut to 500 characters (with `…`), and
 * further until the serialised error fits `maxBytes` (the tool's byte limit: 500 control
 * characters, escaped as `\u0001`, take 3,000 bytes); a code that is not an UPPER_SNAKE_CASE
 * string becomes `INTERNAL_ERROR`, because agents branch on it. Any message is accepted and made
 * text. Options of the wrong kind (`maxMessageChars` not a non-negative integer, `maxBytes` not an
 * integer of at least 256, `limits` not an object, `clock` not a function) are INVALID_PARAMS.
 *
 * @example createErrorMeta('NOT_FOUND', "System 'Xyzzy' not found in universe", { limits: ARIA_LIMITS.tools['universe.route'] })
 */
export function createErrorMeta(code: ToolErrorCode, message: string, options: ErrorOutputOptions = {}): ToolErrorOutput {
  expectOptions(options);
  expectOptionalInteger(options.maxMessageChars ?? undefined, 'options.maxMessageChars', 0);
  expectOptionalFunction(options.clock, 'options.clock');
  if (options.limits !== undefined && options.limits !== null) expectObject(options.limits, 'options.limits');
  const maxBytes = options.maxBytes ?? options.limits?.maxBytes ?? GLOBAL_LIMITS.toolResultMaxBytes;
  expectInteger(maxBytes, 'options.maxBytes', MIN_MAX_BYTES);
  const safeCode = typeof code === 'string' && CODE_PATTERN.test(code) ? code : 'INTERNAL_ERROR';
  const out: ToolErrorOutput = {
    error: true,
    errorCode: safeCode,
    message: limitChars(messageText(message), options.maxMessageChars ?? GLOBAL_LIMITS.errorMessageMaxChars),
    _meta: { count: 0, timestamp: isoTimestamp(options.clock ?? systemClock) },
  };
  return fitMessage(out, maxBytes);
}

/**
 * `out` with its message cut (ending with `…`) so the whole JSON fits `maxBytes`. Bytes are
 * counted as the message is written in JSON, escapes included. The envelope with an empty
 * message always fits: its code is at most 64 characters and `maxBytes` at least 256.
 */
function fitMessage(out: ToolErrorOutput, maxBytes: number): ToolErrorOutput {
  const bytes = utf8ByteLength(toJsonText(out));
  if (bytes <= maxBytes) return out;
  const room = maxBytes - (bytes - jsonStringByteLength(out.message));
  const fits = (chars: number): boolean => jsonStringByteLength(limitChars(out.message, chars)) <= room;
  // The longest cut that fits: a cut to k code points (ellipsis included) grows with k.
  let lo = 0;
  let hi = codePointLength(out.message) - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return { ...out, message: limitChars(out.message, lo) };
}

/** Any message as text; one `String` cannot convert (a null-prototype object) is described instead. */
function messageText(message: unknown): string {
  try {
    return String(message);
  } catch {
    return '[message could not be converted to text]';
  }
}

/** True when `value` has the shape of {@link ToolErrorOutput}. */
export function isToolErrorOutput(value: unknown): value is ToolErrorOutput {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return v.error === true && typeof v.errorCode === 'string' && typeof v.message === 'string';
}

const CODE_MAP: Partial<Record<CtxgateErrorCode, ToolErrorCode>> = {
  NOT_FOUND: 'NOT_FOUND',
  INVALID_PARAMS: 'INVALID_PARAMS',
  RATE_LIMITED: 'RATE_LIMITED',
  AUTH_REQUIRED: 'AUTH_REQUIRED',
  CAPABILITY_DENIED: 'CAPABILITY_DENIED',
  // Policy refusals of other specs are "blocked by policy" from a tool's point of view.
  CONTEXT_VIOLATION: 'CAPABILITY_DENIED',
  OUTSIDE_SANDBOX: 'CAPABILITY_DENIED',
  SECRET_RISK: 'CAPABILITY_DENIED',
  TIMEOUT: 'TIMEOUT',
};

/** Options of {@link toToolError}. */
export interface ToToolErrorOptions extends ErrorOutputOptions {
  /**
   * Redacts secrets from messages before they leave (the secret scanner's redactor). Messages of
   * errors that are not ctxgate errors are only shown when a redactor is given, because arbitrary
   * exceptions may quote credentials or file contents.
   */
  redact?: (text: string) => string;
}

/**
 * Turns anything a tool threw into the spec's error output. ctxgate errors keep their code (policy
 * refusals map to `CAPABILITY_DENIED`, unknown codes pass through); other errors become
 * `INTERNAL_ERROR`. Any thrown value is accepted (an Error whose `name` is not a string, such as a
 * Symbol, is named `Error`); options of the wrong kind are INVALID_PARAMS.
 */
export function toToolError(error: unknown, options: ToToolErrorOptions = {}): ToolErrorOutput {
  expectOptions(options);
  expectOptionalFunction(options.redact, 'options.redact');
  const redact = options.redact ?? ((t: string) => t);
  if (isToolErrorOutput(error)) return createErrorMeta(error.errorCode, redact(error.message), options);
  if (isCtxgateError(error)) {
    const code = CODE_MAP[error.code] ?? error.code;
    return createErrorMeta(code, redact(error.message), options);
  }
  const name = limitChars(errorName(error), 100);
  const message =
    options.redact && error instanceof Error
      ? `The tool failed unexpectedly (${name}): ${options.redact(messageText(error.message))}`
      : `The tool failed unexpectedly (${name}). Check the server log; retrying with different parameters may help.`;
  return createErrorMeta('INTERNAL_ERROR', message, options);
}
