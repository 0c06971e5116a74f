import { openDB } from 'idb';
import { expectString } from '../args.ts';
import { CtxgateError } from '../errors.ts';
import { mapIdbError } from '../idb-error.ts';
import type { LineWriter } from './budget-log.ts';

/** What to do when the browser's quota is exhausted, for the log's QUOTA_EXCEEDED. */
const FREE_SPACE = 'Clear the budget log (delete its database) or request persistent storage';

/**
 * A {@link LineWriter} that appends budget-log lines to IndexedDB (browsers and their workers):
 * object store `lines` (auto-increment keys, so reading it back in key order gives the JSONL).
 * Where there is no IndexedDB (Node, Deno, workerd) it throws `STORAGE_FAILURE` at once; a write
 * that fails (quota, a newer schema from another tab) rejects typed: QUOTA_EXCEEDED or STORAGE_FAILURE.
 */
export function indexedDbLineWriter(dbName = 'ctxgate-budget-log'): LineWriter & { readAll(): Promise<string>; close(): Promise<void> } {
  expectString(dbName, 'dbName');
  if ((globalThis as { indexedDB?: unknown }).indexedDB === undefined) {
    throw new CtxgateError(
      'STORAGE_FAILURE',
      'IndexedDB is not available here: indexedDbLineWriter works in browsers and their workers. Elsewhere log to a file with ' +
        "nodeFileLineWriter ('ctxgate/budget-log/node') or denoFileLineWriter ('ctxgate/budget-log/deno'), or pass jsonlBudgetLog your own writer.",
      { details: { operation: 'open', reason: 'unavailable' } },
    );
  }
  const db = openDB(dbName, 1, {
    upgrade(d) {
      if (!d.objectStoreNames.contains('lines')) d.createObjectStore('lines', { autoIncrement: true });
    },
  });
  // Failures (quota, a newer schema from another tab) reach flush() and readAll() typed.
  const run = async <T>(operation: string, op: (d: Awaited<typeof db>) => Promise<T>): Promise<T> => {
    try {
      return await op(await db);
    } catch (error) {
      throw mapIdbError(error, operation, FREE_SPACE);
    }
  };
  return {
    write: (line) => run('write', async (d) => void (await d.add('lines', line))),
    readAll: () => run('readAll', async (d) => ((await d.getAll('lines')) as string[]).join('')),
    close: () => run('close', async (d) => d.close()),
  };
}
