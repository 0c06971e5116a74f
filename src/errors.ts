/**
 * ctxgate's typed errors.
 *
 * Every error the SDK raises is a {@link CtxgateError} (or a subclass the specs name) with a literal
 * `name`, a stable string `code` and structured `details`. Errors cross the Web Worker boundary as
 * plain data ({@link serializeError}) and are rebuilt intact on the other side
 * ({@link deserializeError}), because Comlink by default keeps only `message`, `name` and `stack`.
 */

/** Every stable error code ctxgate can raise. Codes never change meaning once released. */
export type CtxgateErrorCode =
  // input and lifecycle
  | 'INVALID_PARAMS'
  | 'NOT_INITIALIZED'
  | 'WASM_LOAD_FAILED'
  | 'CORE_FAILURE'
  | 'WORKER_CRASHED'
  | 'WORKER_CLOSED'
  | 'UNSUPPORTED_VALUE'
  // context builder refusals (spec 001)
  | 'CONTEXT_TOO_LARGE'
  | 'SECRET_RISK'
  | 'AMBIGUOUS_TARGET'
  | 'UNSUPPORTED_ENCODING'
  | 'OUTSIDE_SANDBOX'
  | 'READ_FAILED'
  // tool output policy (spec 000)
  | 'NOT_FOUND'
  | 'TIMEOUT'
  | 'RATE_LIMITED'
  | 'BUDGET_EXCEEDED'
  | 'INTERNAL_ERROR'
  | 'AUTH_REQUIRED'
  | 'CAPABILITY_DENIED'
  // agent context store (spec 004)
  | 'CONTEXT_VIOLATION'
  | 'CONTEXT_SIZE'
  | 'CONFLICT'
  | 'CORRUPT_RECORD'
  | 'QUOTA_EXCEEDED'
  | 'STORAGE_FAILURE'
  | 'MIGRATION_FAILED';

/** Options accepted by every ctxgate error constructor. */
export interface CtxgateErrorOptions {
  /** Structured, JSON-safe facts about the failure. Never secret values or file contents. */
  details?: Record<string, unknown>;
  /** The underlying error, if any. */
  cause?: unknown;
}

/**
 * Base class of every error ctxgate raises.
 *
 * The constructor accepts any non-empty string `code`, not only the {@link CtxgateErrorCode}s this
 * version knows: {@link deserializeError} must rebuild errors sent by a newer version, whose codes
 * this one has never heard of. A `code` that is not a non-empty string is refused with
 * INVALID_PARAMS (a number would make an error every `code` switch misses, yet
 * {@link isCtxgateError} would vouch for it). A `message` that is not a string is made text, and
 * `options` of `null` count as none, so building an error never fails on its inputs.
 */
export class CtxgateError extends Error {
  override name: string = 'CtxgateError';
  /** Stable machine-readable code; branch on this, not on `message`. */
  readonly code: CtxgateErrorCode;
  /** Structured, JSON-safe facts about the failure. */
  readonly details: Record<string, unknown>;

  constructor(code: CtxgateErrorCode, message: string, options: CtxgateErrorOptions = {}) {
    const o: CtxgateErrorOptions = options !== null && typeof options === 'object' ? options : {};
    super(typeof message === 'string' ? message : describeThrown(message), o.cause === undefined ? undefined : { cause: o.cause });
    const c: unknown = code;
    if (typeof c !== 'string' || c === '') {
      const got = c === '' ? 'an empty string' : kindOf(c);
      throw new CtxgateError('INVALID_PARAMS', `code: must be a non-empty string such as 'INVALID_PARAMS' (got ${got}).`, {
        details: { field: 'code', got },
      });
    }
    this.code = code;
    this.details = o.details !== null && typeof o.details === 'object' ? o.details : {};
  }

  /** JSON form, as logged or sent over the wire. */
  toJSON(): SerializedError {
    return serializeError(this);
  }
}

/** Refusal: the context needed does not fit the hard token limit (spec 001, ContextTooLarge). */
export class ContextTooLargeError extends CtxgateError {
  override name = 'ContextTooLargeError';
  constructor(message: string, options: CtxgateErrorOptions = {}) {
    super('CONTEXT_TOO_LARGE', message, options);
  }
}

/** Refusal: a secret was found that cannot be removed safely (spec 001, SecretRisk). */
export class SecretRiskError extends CtxgateError {
  override name = 'SecretRiskError';
  constructor(message: string, options: CtxgateErrorOptions = {}) {
    super('SECRET_RISK', message, options);
  }
}

/** Refusal: a target symbol has several matches and no user selection (spec 001, AmbiguousTarget). */
export class AmbiguousTargetError extends CtxgateError {
  override name = 'AmbiguousTargetError';
  constructor(message: string, options: CtxgateErrorOptions = {}) {
    super('AMBIGUOUS_TARGET', message, options);
  }
}

/**
 * An agent wrote outside the namespaces it is allowed to write (spec 004). The facts are in
 * `details` (`agentId`, `namespace`, `key`, `registered`); the getters read them under the spec's
 * names (`err.AgentID`, `err.Namespace`, `err.Key`), so they survive the worker hop, which carries
 * `details` and rebuilds this class.
 */
export class ContextViolationError extends CtxgateError {
  override name = 'ContextViolationError';
  constructor(message: string, options: CtxgateErrorOptions = {}) {
    super('CONTEXT_VIOLATION', message, options);
  }

  /** The agent that tried to write (`details.agentId`); undefined if the details lack it. */
  get agentId(): string | undefined {
    return stringDetail(this.details, 'agentId');
  }

  /** The namespace it tried to write (`details.namespace`); undefined if the details lack it. */
  get namespace(): string | undefined {
    return stringDetail(this.details, 'namespace');
  }

  /** The key it tried to write (`details.key`); undefined if the details lack it. */
  get key(): string | undefined {
    return stringDetail(this.details, 'key');
  }
}

/**
 * A write would exceed a size limit of the agent context (spec 004). The facts are in `details`
 * (`limit`, `current`, `maximum`, and `namespace`/`key` where one is to blame); the getters read
 * them under the spec's names (`err.Limit`, `err.Current`, `err.Maximum`), so they survive the
 * worker hop, which carries `details` and rebuilds this class.
 */
export class ContextSizeError extends CtxgateError {
  override name = 'ContextSizeError';
  constructor(message: string, options: CtxgateErrorOptions = {}) {
    super('CONTEXT_SIZE', message, options);
  }

  /** The limit broken, by its ContextLimits name (`'maxTotalSize'`, …; `details.limit`); undefined if the details lack it. */
  get limit(): string | undefined {
    return stringDetail(this.details, 'limit');
  }

  /** The size or count the context would have had (`details.current`): bytes, or items for `maxArrayItems`. */
  get current(): number | undefined {
    return numberDetail(this.details, 'current');
  }

  /** The limit's value (`details.maximum`), in the unit of {@link ContextSizeError.current}. */
  get maximum(): number | undefined {
    return numberDetail(this.details, 'maximum');
  }
}

// Getters read `details` rather than keeping fields of their own: `details` is what serializeError
// sends and deserializeError rebuilds from, so one source of truth crosses the worker intact, and
// the getters (on the prototype, not own members) add nothing to the wire form or to a log line.
// Typed own-member reads, since details rebuilt from another version's message may hold anything.

/** `details[name]` if it is a string. */
function stringDetail(details: Record<string, unknown>, name: string): string | undefined {
  const value = Object.hasOwn(details, name) ? details[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** `details[name]` if it is a number. */
function numberDetail(details: Record<string, unknown>, name: string): number | undefined {
  const value = Object.hasOwn(details, name) ? details[name] : undefined;
  return typeof value === 'number' ? value : undefined;
}

/** A concurrent writer saved first; reload and retry instead of overwriting (spec 004). */
export class ConflictError extends CtxgateError {
  override name = 'ConflictError';
  constructor(message: string, options: CtxgateErrorOptions = {}) {
    super('CONFLICT', message, options);
  }
}

type ErrorCtor = new (message: string, options?: CtxgateErrorOptions) => CtxgateError;

/** Subclasses by name, so an error rebuilt after the worker hop has its original class. */
const subclasses: Record<string, ErrorCtor> = {
  ContextTooLargeError,
  SecretRiskError,
  AmbiguousTargetError,
  ContextViolationError,
  ContextSizeError,
  ConflictError,
};

/**
 * True for any ctxgate error, also one from another realm (a worker, an iframe), where
 * `instanceof` would fail. Pass a code to also check it.
 */
export function isCtxgateError(value: unknown, code?: CtxgateErrorCode): value is CtxgateError {
  if (value === null || typeof value !== 'object') return false;
  const v = value as { name?: unknown; code?: unknown; details?: unknown };
  // Often asked of whatever a storage, a writer or a callback threw: an object whose getters
  // throw (or a Proxy whose traps do) is no ctxgate error, and must not escape the code asking.
  try {
    const looksLike =
      value instanceof CtxgateError ||
      (typeof v.name === 'string' &&
        (v.name === 'CtxgateError' || Object.hasOwn(subclasses, v.name)) &&
        typeof v.code === 'string' &&
        typeof v.details === 'object');
    return looksLike && (code === undefined || v.code === code);
  } catch {
    return false;
  }
}

/** The wire form of an error. Plain data: survives structured clone and JSON. */
export interface SerializedError {
  name: string;
  code?: CtxgateErrorCode;
  message: string;
  details?: Record<string, unknown>;
  stack?: string;
  cause?: SerializedError;
}

/**
 * Turns any thrown value into plain data for the worker hop or a log line. Never throws on the
 * value's shape: a `name` that is not a string becomes `'Error'` (see {@link errorName}), a
 * `message` that is not a string is made text, a `stack` that cannot be formatted is left out, and
 * `details` members JSON cannot hold are described or dropped (see {@link jsonSafeDetails}).
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (isCtxgateError(error)) {
    const out: SerializedError = {
      name: errorName(error),
      code: error.code,
      message: messageOf(error),
      details: jsonSafeDetails(error.details),
    };
    addStack(out, error);
    addCause(out, error, depth);
    return out;
  }
  if (error instanceof Error) {
    const out: SerializedError = { name: errorName(error), message: messageOf(error) };
    addStack(out, error);
    addCause(out, error, depth);
    return out;
  }
  return { name: 'Error', message: describeThrown(error) };
}

/**
 * The class name of a thrown value for messages and logs: an Error's `name` when it is a string,
 * `'Error'` when it is not (a Symbol name cannot go into a template string), and the `typeof` of
 * anything that is not an Error. A throwing `name` getter is the caller's own and passes through.
 */
export function errorName(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const name: unknown = error.name;
  return typeof name === 'string' ? name : 'Error';
}

/** An error's message as a string, whatever its `message` holds (a symbol, a null-prototype object). */
export function messageOf(error: Error): string {
  const message: unknown = error.message;
  return typeof message === 'string' ? message : describeThrown(message);
}

/**
 * The cause, serialised: often what a caller's callback or a storage threw, so one whose getters
 * throw (a Proxy, a hostile `name`) is described instead, rather than failing the whole error.
 */
function addCause(out: SerializedError, error: Error, depth: number): void {
  if (depth >= 4) return;
  try {
    if (error.cause !== undefined) out.cause = serializeError(error.cause, depth + 1);
  } catch {
    out.cause = { name: 'Error', message: 'the cause could not be read (reading it threw)' };
  }
}

/** Node formats `stack` lazily, through `name`: a Symbol name makes reading it throw. */
function addStack(out: SerializedError, error: Error): void {
  let stack: unknown;
  try {
    stack = error.stack;
  } catch {
    return;
  }
  if (typeof stack === 'string') out.stack = stack;
}

/** Nesting beyond this in `details` is replaced by a marker; details are meant to be a few flat facts. */
const MAX_DETAILS_DEPTH = 16;

/**
 * `details` as JSON-safe plain data, the same object when it already is: a BigInt becomes its
 * decimal text, a non-finite number `null` (as JSON writes it), a function, symbol or `undefined`
 * member is dropped (`null` in an array), a cycle or nesting deeper than 16 becomes `'[omitted]'`,
 * and a value with `toJSON` (a Date) is replaced by what that returns. A getter or `toJSON` that
 * throws makes the whole of `details` `{ omitted: '…' }`, so the error itself still serialises.
 */
function jsonSafeDetails(details: unknown): Record<string, unknown> {
  if (details === null || typeof details !== 'object') return {};
  try {
    // Inside the try: Array.isArray throws on a revoked Proxy.
    if (Array.isArray(details)) return {};
    const safe = jsonSafe(details, 0, new Set());
    return safe !== null && typeof safe === 'object' && !Array.isArray(safe) ? (safe as Record<string, unknown>) : { value: safe };
  } catch {
    return { omitted: 'the details could not be read' };
  }
}

const OMITTED = '[omitted]';

function jsonSafe(value: unknown, depth: number, seen: Set<object>): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'bigint':
      return value.toString();
    case 'object':
      break;
    default:
      return undefined;
  }
  if (value === null) return null;
  if (depth >= MAX_DETAILS_DEPTH || seen.has(value)) return OMITTED;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return jsonSafe((value as { toJSON(): unknown }).toJSON(), depth + 1, seen);
  seen.add(value);
  try {
    if (Array.isArray(value)) {
      let changed = false;
      const out = value.map((item) => {
        const safe = jsonSafe(item, depth + 1, seen);
        const kept = safe === undefined ? null : safe;
        if (kept !== item) changed = true;
        return kept;
      });
      return changed ? out : value;
    }
    let changed = Object.getPrototypeOf(value) !== Object.prototype && Object.getPrototypeOf(value) !== null;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      const safe = jsonSafe(item, depth + 1, seen);
      if (safe !== item) changed = true;
      // defineProperty: a `__proto__` key must stay data.
      if (safe !== undefined) Object.defineProperty(out, key, { value: safe, enumerable: true, writable: true, configurable: true });
    }
    return changed ? out : value;
  } finally {
    seen.delete(value);
  }
}

/** `String(value)`, or its kind where that throws (a null-prototype object, a throwing toString). */
function describeThrown(value: unknown): string {
  try {
    return String(value);
  } catch {
    return `a thrown ${kindOf(value)}`;
  }
}

/** A value's kind for messages, never the value (args.ts has the same; it imports this module). */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value;
}

/**
 * Causes deeper than this are dropped when rebuilding. {@link serializeError} writes at most five
 * levels; the cap keeps a cyclic or absurdly deep `cause` chain from overflowing the stack.
 */
const MAX_CAUSE_DEPTH = 16;

/**
 * Rebuilds an error serialised by {@link serializeError}, with its class, code and details.
 *
 * Never throws: a caller rebuilding an error from a worker message is about to reject a pending
 * call with the result, and a throw there would leave that call hanging. So `data` that is not a
 * serialised error at all (not an object: undefined, null, a string, …) gives a
 * `CtxgateError('INTERNAL_ERROR')` saying so, with `details.got` naming its kind (never its value);
 * an object with missing or mistyped members is rebuilt from those that are usable (a string
 * `code` makes a CtxgateError; `name` defaults to `'Error'`, `message` to `''`, `details` to `{}`).
 */
export function deserializeError(data: SerializedError): Error {
  return rebuildError(data, 0);
}

function rebuildError(data: unknown, depth: number): Error {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const got = kindOf(data);
    return new CtxgateError('INTERNAL_ERROR', `An error could not be rebuilt: expected a serialised error (an object), got ${got}.`, {
      details: { got },
    });
  }
  const d = data as { [K in keyof SerializedError]?: unknown };
  const name = typeof d.name === 'string' ? d.name : 'Error';
  const message = typeof d.message === 'string' ? d.message : '';
  const details = d.details !== null && typeof d.details === 'object' && !Array.isArray(d.details) ? (d.details as Record<string, unknown>) : {};
  const cause = d.cause === undefined || depth >= MAX_CAUSE_DEPTH ? undefined : rebuildError(d.cause, depth + 1);
  let error: Error;
  // A code from a newer version is kept as it is; an empty one is not a ctxgate code.
  if (typeof d.code === 'string' && d.code !== '') {
    const Sub = Object.hasOwn(subclasses, name) ? subclasses[name] : undefined;
    error = Sub ? new Sub(message, { details, cause }) : new CtxgateError(d.code as CtxgateErrorCode, message, { details, cause });
  } else {
    error = new Error(message, cause === undefined ? undefined : { cause });
    error.name = name;
  }
  if (typeof d.stack === 'string') error.stack = d.stack;
  return error;
}

/**
 * True for the error structured clone raises (`postMessage`, `structuredClone`) on a value it
 * cannot copy: a function, a symbol, a class instance with private state. Its message may quote
 * the value, so callers turn it into a typed error of their own rather than pass it on.
 */
export function isDataCloneError(error: unknown): boolean {
  return error !== null && typeof error === 'object' && (error as { name?: unknown }).name === 'DataCloneError';
}

/**
 * What to keep as the `cause` of a typed error that replaces `error`: a DataCloneError becomes one
 * with the same name and a neutral message, since its own message quotes the value it refused (a
 * function's source, which may hold a secret) and {@link serializeError} sends causes along; any
 * other error is kept as it is.
 */
export function quietCause(error: unknown): unknown {
  if (!isDataCloneError(error)) return error;
  const quiet = new Error('structured clone refused a value (a function, a symbol or a platform object); the value is not quoted');
  quiet.name = 'DataCloneError';
  return quiet;
}

/** Shorthand for the most common error: bad input, naming the field. */
export function invalidParams(field: string, message: string, details: Record<string, unknown> = {}): CtxgateError {
  return new CtxgateError('INVALID_PARAMS', `${field}: ${message}`, { details: { field, ...details } });
}
