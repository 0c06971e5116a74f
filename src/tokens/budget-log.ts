import { expectObject, expectString, kindOf } from '../args.ts';
import { CtxgateError, errorName, invalidParams, isCtxgateError } from '../errors.ts';

/** One line of the context budget log (spec 003 Observability), as written. */
export interface BudgetLogEntry {
  readonly run_id: string;
  readonly phase: number;
  readonly original_tokens: number;
  readonly budget_tokens: number;
  readonly truncated_tokens: number;
  readonly was_truncated: boolean;
  /** ISO-8601 time of the call. */
  readonly ts: string;
  /** Which counter produced the numbers (spec 001: the estimator version is recorded). */
  readonly encoder: string;
}

/** Anything that accepts lines: a file stream, an adapter, a test array. */
export interface LineWriter {
  /** Receives one JSON line, ending in `\n`. May return a promise; {@link BudgetLog.flush} awaits it. */
  write(line: string): void | Promise<void>;
}

/** Where {@link applyContextBudget} reports each call. */
export interface BudgetLog {
  /** Records one entry. Never throws for the writer: write failures surface in {@link flush}. */
  record(entry: BudgetLogEntry): void;
  /**
   * Resolves when every line recorded so far is written. Lines a write failed on are kept, in
   * order (later lines wait behind them), and tried again here; if any still cannot be written it
   * rejects with the writer's code when the writer threw a ctxgate error, else STORAGE_FAILURE,
   * the writer's error as the cause either way, and `details.unwritten` lines stay queued for the
   * next record or flush. Lines dropped past {@link MAX_UNWRITTEN_LINES} held are reported once,
   * as STORAGE_FAILURE with `details.dropped`, also when the writer only was too slow.
   */
  flush(): Promise<void>;
}

/** The kind of each field of a {@link BudgetLogEntry}, checked before a line is written. */
const ENTRY_FIELDS: readonly [keyof BudgetLogEntry, 'string' | 'number' | 'boolean'][] = [
  ['run_id', 'string'],
  ['phase', 'number'],
  ['original_tokens', 'number'],
  ['budget_tokens', 'number'],
  ['truncated_tokens', 'number'],
  ['was_truncated', 'boolean'],
  ['ts', 'string'],
  ['encoder', 'string'],
];

/** INVALID_PARAMS naming the field, so no malformed (or unwritable) line reaches the log. */
function checkEntry(entry: unknown): asserts entry is BudgetLogEntry {
  expectObject(entry, 'entry');
  for (const [field, kind] of ENTRY_FIELDS) {
    const v = entry[field];
    if (typeof v !== kind || (kind === 'number' && !Number.isFinite(v))) {
      throw invalidParams(`entry.${field}`, `must be ${kind === 'number' ? 'a finite number' : `a ${kind}`} (got ${kindOf(v)}).`);
    }
  }
}

/**
 * Lines kept for a writer that keeps failing, or whose write never finishes; past this the oldest
 * are dropped, and counted in the error flush() reports (`details.dropped`), so a dead disk or a
 * hung request cannot grow memory without bound. A synchronous writer never holds a line.
 */
export const MAX_UNWRITTEN_LINES = 10_000;

// JSON.stringify leaves U+2028 and U+2029 raw, and NEL (U+0085) too: JavaScript's and Python's
// line splitters break on them, so a run_id holding one would read as two broken records.
const LINE_BREAKING = /[\u0085\u2028\u2029]/g;
const escapeLineBreaks = (json: string): string => json.replace(LINE_BREAKING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * A JSONL budget log: one JSON object per line, keys in the spec's order, every line-breaking
 * character escaped so each record is exactly one line to any splitter. Point it at a callback,
 * or at any `{ write(line) }` (a Node/Deno file, IndexedDB via `indexedDbLineWriter`). Writes are
 * serialised; a failed line is kept and retried before any later line (see {@link BudgetLog.flush}).
 */
export function jsonlBudgetLog(target: LineWriter | ((line: string) => void | Promise<void>)): BudgetLog {
  const write = typeof target === 'function' ? target : typeof target?.write === 'function' ? target.write.bind(target) : undefined;
  if (!write) throw invalidParams('target', 'expected a function or an object with a write(line) method.');
  /** Lines not yet written, oldest first: the line being written, then those waiting behind it. */
  const unwritten: string[] = [];
  let dropped = 0;
  let failure: unknown;
  let failed = false;
  /** Whether a drain is under way; its first line is then being written and is never dropped. */
  let draining = false;
  let current: Promise<void> = Promise.resolve();
  /**
   * Writes the queued lines in order, stopping (and keeping the rest) at the first failure. A
   * writer that returns no promise is not awaited, so with a synchronous writer every record is
   * written before record() returns and nothing queues; lines wait only behind a pending write.
   */
  const drain = async (): Promise<void> => {
    draining = true;
    try {
      while (unwritten.length > 0) {
        try {
          const pending = write(unwritten[0] as string);
          if (typeof (pending as PromiseLike<void> | undefined)?.then === 'function') await pending;
        } catch (e) {
          failure = e;
          failed = true;
          return;
        }
        unwritten.shift();
      }
      failed = false;
    } finally {
      draining = false;
    }
  };
  /** Waits for the drain under way and any a record() started meanwhile, until none runs. */
  const settled = async (): Promise<void> => {
    for (let seen = current; ; seen = current) {
      await seen;
      if (seen === current) return;
    }
  };
  return {
    record(entry) {
      checkEntry(entry);
      const line =
        escapeLineBreaks(
          JSON.stringify({
            run_id: entry.run_id,
            phase: entry.phase,
            original_tokens: entry.original_tokens,
            budget_tokens: entry.budget_tokens,
            truncated_tokens: entry.truncated_tokens,
            was_truncated: entry.was_truncated,
            ts: entry.ts,
            encoder: entry.encoder,
          }),
        ) + '\n';
      unwritten.push(line);
      // Bounded whether the writer fails or only never finishes (a request that hangs): record()
      // cannot wait, so past the bound the oldest line not being written is dropped and counted.
      if (unwritten.length > MAX_UNWRITTEN_LINES) {
        unwritten.splice(draining ? 1 : 0, 1);
        dropped++;
      }
      // A running drain takes this line in turn; otherwise one starts now. After a failure each
      // record tries the held-back lines again first, so a writer that recovers catches up.
      if (!draining) current = drain();
    },
    async flush() {
      await settled();
      // One more try for lines a failure held back, so a resolved flush means all were written.
      if (failed) {
        current = drain();
        await settled();
      }
      if (!failed && dropped === 0) return;
      const lost = dropped;
      dropped = 0; // reported once: they are gone, unlike the unwritten lines, which stay queued
      if (!failed) {
        throw new CtxgateError(
          'STORAGE_FAILURE',
          `the budget log dropped its ${lost} oldest line(s): more than ${MAX_UNWRITTEN_LINES} waited behind a write that had not finished (a writer slower than records arrive); ` +
            'make the writer faster (append without waiting on each line, or batch), or give it a timeout so a write that hangs fails',
          { details: { operation: 'write', unwritten: 0, dropped: lost } },
        );
      }
      // The writer's own typed error keeps its code (QUOTA_EXCEEDED stays QUOTA_EXCEEDED, a file
      // writer's STORAGE_FAILURE its system code), and says how many lines wait, as ours does.
      if (isCtxgateError(failure) && lost === 0) {
        throw new CtxgateError(failure.code, failure.message, { details: { ...failure.details, unwritten: unwritten.length }, cause: failure });
      }
      throw new CtxgateError(
        'STORAGE_FAILURE',
        `the budget log could not write ${unwritten.length} line(s)${lost > 0 ? ` and dropped the ${lost} oldest past ${MAX_UNWRITTEN_LINES} held` : ''} ` +
          `(the writer threw ${thrownKind(failure)}; see cause); the lines are kept and retried by the next record() or flush(). Check the log's destination (path, permissions, free space)`,
        { details: { operation: 'write', unwritten: unwritten.length, dropped: lost }, cause: failure },
      );
    },
  };
}

/**
 * An error's name (`TypeError`), else the kind of what was thrown (`a string`, `null`): never its
 * text, which may quote the line. errorName says `string` or `object` for what is not an Error,
 * which reads as a type, not as what the writer threw.
 */
function thrownKind(failure: unknown): string {
  const name = failure instanceof Error ? errorName(failure) : '';
  return name !== '' ? name : kindOf(failure);
}

/**
 * Internal (the Node and Deno file writers'): a {@link LineWriter} that first makes `folder` (when
 * there is one) with `mkdir`, then appends each line with `append`; either failing is
 * STORAGE_FAILURE (see {@link fileLogFailure}), the folder's at once, an append's through flush().
 */
export function fileLineWriter(path: string, folder: string | undefined, mkdir: (folder: string) => void, append: (line: string) => void): LineWriter {
  if (folder !== undefined) {
    try {
      mkdir(folder);
    } catch (error) {
      throw fileLogFailure('open', path, error);
    }
  }
  return {
    write(line) {
      try {
        append(line);
      } catch (error) {
        throw fileLogFailure('write', path, error);
      }
    },
  };
}

/**
 * STORAGE_FAILURE for a file operation that failed, the error as its cause and `details.code` the
 * system's code for it (`ENOTDIR`, `EACCES`, `ENOSPC`; Deno's error name, such as
 * `PermissionDenied`, where the error has no code). The path is named: it is the caller's own
 * configuration, not content.
 */
function fileLogFailure(operation: 'open' | 'write', path: string, error: unknown): CtxgateError {
  const code = (error as { code?: unknown } | null)?.code;
  const name = (error as { name?: unknown } | null)?.name;
  const why = typeof code === 'string' ? code : typeof name === 'string' ? name : undefined;
  const what = operation === 'open' ? `creating the folder of the budget log ${path}` : `appending to the budget log ${path}`;
  return new CtxgateError(
    'STORAGE_FAILURE',
    `${what} failed (${why ?? 'unknown error'}); check that the path names a writable file whose folders are folders, not files, and that the disk has space`,
    { details: { operation, path, ...(why !== undefined ? { code: why } : {}) }, cause: error },
  );
}

/**
 * Internal (the file writers'): INVALID_PARAMS unless `path` is a non-empty string without a NUL
 * character (which no file system accepts), rather than a TypeError from the file system.
 */
export function expectLogPath(path: unknown): asserts path is string {
  expectString(path, 'path');
  if (path === '') throw invalidParams('path', 'must be a file path such as .agents/rpi/context-budget-log.jsonl (got an empty string).');
  if (path.includes('\0')) throw invalidParams('path', 'must not contain a NUL character.');
}
