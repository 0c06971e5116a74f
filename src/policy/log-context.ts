/**
 * `withLogContext` (spec 000 §10): wraps a tool dispatcher so every call leaves structured
 * start/complete/error records with timings, output size and budget use, and so every output is
 * counted against the session budget (with `_meta.budgetWarning` past a limit). Records describe
 * the call, never its payload: outputs are measured, not logged, and parameters are redacted.
 */
import { expectFunction, expectMethods, expectOptions, expectString, kindOf } from '../args.ts';
import { errorName, invalidParams, isCtxgateError } from '../errors.ts';
import { toJsonText, utf8ByteLength } from './bytes.ts';
import { expectOptionalFunction } from './checks.ts';
import { isoFromMillis, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { withBudgetWarning } from './budget.ts';
import type { BudgetCheck, BudgetLevel, SessionBudget } from './budget.ts';
import { GLOBAL_LIMITS } from './limits.ts';
import { defaultRedactor } from './redactor.ts';
import { logText, redactForLog } from './sanitize.ts';
import type { Redactor } from './sanitize.ts';
import { limitChars } from './text-limits.ts';

/** One structured log record. */
export interface LogRecord {
  readonly level: 'debug' | 'info' | 'warn';
  readonly event: 'start' | 'complete' | 'error';
  readonly dispatcher: string;
  readonly action: string | null;
  readonly timestamp: string;
  /** Redacted parameters (start only). */
  readonly params?: unknown;
  readonly elapsedMs?: number;
  readonly outputCount?: number | null;
  readonly truncated?: boolean;
  readonly outputBytes?: number;
  readonly budgetBytesUsed?: number | null;
  readonly budgetLevel?: BudgetLevel | null;
  /** Error message: kept for ctxgate errors (which never hold secrets), else redacted or withheld. */
  readonly error?: string;
  readonly errorType?: string;
  readonly errorCode?: string | null;
}

/** What a wrapped handler's output looks like to the logger and the budget. */
export interface OutputAdapter<R> {
  /** Bytes (and text for token counting) of what the model will see. */
  measure(output: R): { bytes: number; text: string };
  /** Item count and truncation flag for the complete record. */
  describe(output: R): { count: number | null; truncated: boolean };
  /** The output with a budget warning attached. */
  attachWarning(output: R, check: BudgetCheck): R;
}

/** Options of {@link withLogContext}. */
export interface LogContextOptions<A extends unknown[], R> {
  /** Receives each record (default: `console.debug`/`info`/`warn` by level). Ignored with `json`. */
  logger?: (record: LogRecord) => void;
  /** Emit JSON lines through `write` instead (the spec's `ARIA_LOG_JSON=1`). */
  json?: boolean;
  /** Receives each JSON line (default `console.log`). */
  write?: (line: string) => void;
  /** Clock for timestamps and `elapsedMs`. */
  clock?: Clock;
  /** The session budget to charge, or a function choosing it from the call's arguments. */
  budget?: SessionBudget | ((...args: A) => SessionBudget | undefined);
  /** The action of a call (default: `args[0].action` when it is a string). */
  action?: (...args: A) => string | undefined;
  /**
   * Redacts secrets in logged parameters and in messages of unexpected errors. Default: the secret
   * scanner (`secretRedactor()`) once the core is loaded (`await loadCore()`); before that, parameter
   * strings are logged as `[N chars]` and messages of unexpected errors are withheld.
   */
  redact?: Redactor;
  /** How to measure and annotate outputs (default: JSON objects with `_meta`). */
  output?: OutputAdapter<R>;
}

/** The default view of an output: compact JSON, `_meta.count` and `_meta.truncated`. */
export const jsonOutputAdapter: OutputAdapter<unknown> = {
  measure(output) {
    const text = typeof output === 'string' ? output : toJsonText(output);
    return { bytes: utf8ByteLength(text), text };
  },
  describe(output) {
    const meta = output !== null && typeof output === 'object' ? (output as { _meta?: Record<string, unknown> })._meta : undefined;
    const count = typeof meta?.count === 'number' ? meta.count : Array.isArray(output) ? output.length : null;
    return { count, truncated: meta?.truncated === true };
  },
  attachWarning: withBudgetWarning,
};

function defaultLogger(record: LogRecord): void {
  const line = `[${record.dispatcher}${record.action ? `.${record.action}` : ''}] ${record.event}`;
  if (record.level === 'warn') console.warn(line, record);
  else if (record.level === 'info') console.info(line, record);
  else console.debug(line, record);
}

/**
 * Wraps a dispatcher. Each call logs a `start` record (debug: dispatcher, action, redacted
 * parameters), then either `complete` (info: `elapsedMs`, `outputCount`, `truncated`,
 * `outputBytes`, `budgetBytesUsed`) or `error` (warn: `elapsedMs`, `error`, `errorType`,
 * `errorCode`), and rethrows errors unchanged. With a budget, the output is charged and, past a
 * limit, returned with `_meta.budgetWarning`. A `dispatcher` that is not a string, a `handler`
 * that is not a function or options of the wrong kind are INVALID_PARAMS, thrown here rather than
 * at the first call.
 *
 * What the options compute for a call is checked before the handler runs, so a wrong one fails
 * the call without running the handler and is logged as its error: an `action` that returns
 * neither a string nor undefined, or a `budget` function that returns neither a SessionBudget nor
 * undefined, is INVALID_PARAMS naming the option and the kind returned; what `action` or `budget`
 * throw, and a redactor that throws on the action or the parameters, reject the call with that
 * error, the start record showing the parameters as withheld. Parameters that refer to themselves
 * do not fail the call: the record shows `[cycle]` where they recur (see {@link redactForLog}). A
 * redactor that fails on an error message leaves the message withheld.
 *
 * @example const universe = withLogContext('universe', universeDispatcher, { budget: getContextBudget() });
 */
export function withLogContext<A extends unknown[], R>(
  dispatcher: string,
  handler: (...args: A) => R | Promise<R>,
  options: LogContextOptions<A, R> = {},
): (...args: A) => Promise<R> {
  expectString(dispatcher, 'dispatcher');
  expectFunction(handler, 'handler');
  checkLogContextOptions(options);
  const clock = options.clock ?? systemClock;
  const adapter = (options.output ?? jsonOutputAdapter) as OutputAdapter<R>;
  const emit = (record: LogRecord): void => {
    try {
      if (options.json) (options.write ?? ((l: string) => console.log(l)))(JSON.stringify(record));
      else (options.logger ?? defaultLogger)(record);
    } catch {
      // Logging must never fail a tool call.
    }
  };
  const actionOf =
    options.action ??
    ((...args: A) => {
      const first = args[0];
      const a = first !== null && typeof first === 'object' ? (first as { action?: unknown }).action : undefined;
      return typeof a === 'string' ? a : undefined;
    });
  return async (...args: A): Promise<R> => {
    const started = clock();
    const redact = options.redact ?? defaultRedactor();
    const base: { dispatcher: string; action: string | null } = { dispatcher, action: null };
    const redactParams = (): unknown => {
      const first = args.length > 0 && args[0] !== null && typeof args[0] === 'object' ? args[0] : undefined;
      return first === undefined ? null : redactForLog(first, redact ? { redact } : {});
    };
    let params: unknown = PARAMS_WITHHELD;
    let paramsTried = false;
    let startLogged = false;
    const logStart = (): void => {
      startLogged = true;
      emit({ level: 'debug', event: 'start', ...base, timestamp: isoFromMillis(started), params });
    };
    try {
      // Everything the options compute from the arguments is computed and checked before the
      // handler runs: a wrong option then fails the call without running it, never after its
      // work is done and its result would be lost.
      // The action is often the model's own choice of words, logged as the params are: through the
      // scanner (whole, then cut: a cut secret no longer matches), or withheld without one.
      const action = checkedAction(actionOf(...args));
      base.action = action === '' ? null : logText(action, redact, 100);
      paramsTried = true;
      params = redactParams();
      logStart();
      const budget = typeof options.budget === 'function' ? checkedBudget(options.budget(...args)) : options.budget;
      let output: R = await handler(...args);
      let measured = adapter.measure(output);
      let check: BudgetCheck | undefined;
      if (budget) {
        const peek = budget.peek(measured.bytes, budget.countTokens(measured.text));
        if (peek.warning !== undefined) {
          output = adapter.attachWarning(output, peek);
          measured = adapter.measure(output);
        }
        check = budget.record(output, { bytes: measured.bytes, tokens: budget.countTokens(measured.text) });
      }
      const described = adapter.describe(output);
      const ended = clock();
      emit({
        level: 'info',
        event: 'complete',
        ...base,
        timestamp: isoFromMillis(ended),
        elapsedMs: ended - started,
        outputCount: described.count,
        truncated: described.truncated,
        outputBytes: measured.bytes,
        budgetBytesUsed: check ? check.usedBytes : null,
        budgetLevel: check ? check.level : null,
      });
      return output;
    } catch (error) {
      // A failure before the start record (the action, or a redactor failing on it or on the
      // parameters) still leaves the pair of records §10 promises.
      if (!startLogged) {
        if (!paramsTried) {
          try {
            params = redactParams();
          } catch {
            // Logged as withheld.
          }
        }
        logStart();
      }
      const ended = clock();
      emit({
        level: 'warn',
        event: 'error',
        ...base,
        timestamp: isoFromMillis(ended),
        elapsedMs: ended - started,
        error: errorText(error, redact),
        errorType: errorName(error),
        errorCode: isCtxgateError(error) ? error.code : null,
      });
      throw error;
    }
  };
}

/** `params` of a start record whose parameters could not be redacted (the error record says why). */
const PARAMS_WITHHELD = '[withheld: the parameters could not be redacted]';

/** What `options.action` returned, if it is a string or absent (`undefined` or `null`); else INVALID_PARAMS by kind. */
function checkedAction(action: unknown): string {
  if (action === undefined || action === null) return '';
  if (typeof action !== 'string') {
    throw invalidParams('options.action', `must return a string or undefined (returned ${kindOf(action)}).`, { expected: 'a string or undefined', got: kindOf(action) });
  }
  return action;
}

/** What an `options.budget` function returned, if it is a SessionBudget or absent; else INVALID_PARAMS by kind. */
function checkedBudget(budget: unknown): SessionBudget | undefined {
  if (budget === undefined || budget === null) return undefined;
  const methods = ['peek', 'record', 'countTokens'];
  const holder = typeof budget === 'object' || typeof budget === 'function';
  const missing = holder ? methods.filter((m) => typeof (budget as Record<string, unknown>)[m] !== 'function') : methods;
  if (missing.length === 0) return budget as SessionBudget;
  const got = holder ? `${kindOf(budget)} without ${missing.map((m) => `${m}()`).join(', ')}` : kindOf(budget);
  throw invalidParams('options.budget', `must return a SessionBudget or undefined (returned ${got}).`, { expected: 'a SessionBudget or undefined', got: kindOf(budget) });
}

function checkLogContextOptions(options: unknown): void {
  expectOptions(options);
  const o = options as Record<string, unknown> | undefined;
  if (o === undefined) return;
  for (const name of ['logger', 'write', 'clock', 'action', 'redact'] as const) expectOptionalFunction(o[name], `options.${name}`);
  if (o.budget !== undefined && o.budget !== null && typeof o.budget !== 'function') {
    expectMethods(o.budget, 'options.budget', ['peek', 'record', 'countTokens'], 'a SessionBudget or a function returning one');
  }
  if (o.output !== undefined && o.output !== null) {
    expectMethods(o.output, 'options.output', ['measure', 'describe', 'attachWarning'], 'an OutputAdapter (measure, describe and attachWarning)');
  }
}

function errorText(error: unknown, redact: Redactor | undefined): string {
  const max = GLOBAL_LIMITS.errorMessageMaxChars;
  if (isCtxgateError(error)) return limitChars(redact ? redactedOrWithheld(redact, error.message) : error.message, max);
  if (redact && error instanceof Error && typeof error.message === 'string') return limitChars(redactedOrWithheld(redact, error.message), max);
  return '[message withheld: not a ctxgate error and no redactor configured]';
}

/**
 * The redactor's text, or a placeholder when it throws or returns no string: the error record is
 * still written, and the error being logged (perhaps the redactor's own) is the one rethrown.
 */
function redactedOrWithheld(redact: Redactor, message: string): string {
  try {
    const out: unknown = redact(message);
    if (typeof out === 'string') return out;
  } catch {
    // Fall through to the placeholder.
  }
  return '[message withheld: the redactor failed]';
}
