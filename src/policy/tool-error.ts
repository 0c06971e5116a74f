/**
 * The spec's error response format (spec 000 §7): `{ error: true, errorCode, message, _meta }`.
 * Errors are outputs too: they are bounded (message at most 500 characters), stamped and counted,
 * so an agent can branch on `errorCode` without parsing prose.
 */
import { expectOptions } from '../args.ts';
import { errorName, isCtxgateError } from '../errors.ts';
import type { CtxgateErrorCode } from '../errors.ts';
import { expectOptionalFunction, expectOptionalInteger } from './checks.ts';
import { isoTimestamp, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { GLOBAL_LIMITS } from './limits.ts';
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
}

const CODE_PATTERN = /^[A-Z][A-Z0-9_]{0,63}$/;

/**
 * Builds the error output of spec 000 §7. The message is cut to 500 characters (with `…`); a code
 * that is not an UPPER_SNAKE_CASE string becomes `INTERNAL_ERROR`, because agents branch on it.
 * Any message is accepted and made text. Options of the wrong kind (`maxMessageChars` not a
 * non-negative integer, `clock` not a function) are INVALID_PARAMS.
 *
 * @example createErrorMeta('NOT_FOUND', "System 'Xyzzy' not found in universe")
 */
export function createErrorMeta(code: ToolErrorCode, message: string, options: ErrorOutputOptions = {}): ToolErrorOutput {
  expectOptions(options);
  expectOptionalInteger(options.maxMessageChars ?? undefined, 'options.maxMessageChars', 0);
  expectOptionalFunction(options.clock, 'options.clock');
  const safeCode = typeof code === 'string' && CODE_PATTERN.test(code) ? code : 'INTERNAL_ERROR';
  return {
    error: true,
    errorCode: safeCode,
    message: limitChars(messageText(message), options.maxMessageChars ?? GLOBAL_LIMITS.errorMessageMaxChars),
    _meta: { count: 0, timestamp: isoTimestamp(options.clock ?? systemClock) },
  };
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
