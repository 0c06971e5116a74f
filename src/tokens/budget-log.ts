import { expectObject, kindOf } from '../args.ts';
import { invalidParams } from '../errors.ts';

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
  /** Records one entry. Never throws: write failures surface in {@link flush}. */
  record(entry: BudgetLogEntry): void;
  /** Resolves when every write so far has finished; rejects with the first write failure. */
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
 * A JSONL budget log: one JSON object per line, keys in the spec's order. Point it at a callback,
 * or at any `{ write(line) }` (a Node/Deno file, IndexedDB via `indexedDbLineWriter`).
 */
export function jsonlBudgetLog(target: LineWriter | ((line: string) => void | Promise<void>)): BudgetLog {
  const write = typeof target === 'function' ? target : typeof target?.write === 'function' ? target.write.bind(target) : undefined;
  if (!write) throw invalidParams('target', 'expected a function or an object with a write(line) method.');
  let chain: Promise<void> = Promise.resolve();
  let failure: unknown;
  return {
    record(entry) {
      checkEntry(entry);
      const line =
        JSON.stringify({
          run_id: entry.run_id,
          phase: entry.phase,
          original_tokens: entry.original_tokens,
          budget_tokens: entry.budget_tokens,
          truncated_tokens: entry.truncated_tokens,
          was_truncated: entry.was_truncated,
          ts: entry.ts,
          encoder: entry.encoder,
        }) + '\n';
      // Writes are serialised so lines keep their order even with an async writer.
      chain = chain.then(async () => {
        try {
          await write(line);
        } catch (e) {
          failure ??= e;
        }
      });
    },
    async flush() {
      await chain;
      if (failure !== undefined) {
        const e = failure;
        failure = undefined;
        throw e;
      }
    },
  };
}
