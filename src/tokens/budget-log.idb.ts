import { openDB } from 'idb';
import { expectString } from '../args.ts';
import { CtxgateError } from '../errors.ts';
import type { LineWriter } from './budget-log.ts';

/**
 * A {@link LineWriter} that appends budget-log lines to IndexedDB (browsers and their workers):
 * object store `lines` (auto-increment keys, so reading it back in key order gives the JSONL).
 * Where there is no IndexedDB (Node, Deno, workerd) it throws `STORAGE_FAILURE` at once.
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
  return {
    async write(line) {
      await (await db).add('lines', line);
    },
    async readAll() {
      return ((await (await db).getAll('lines')) as string[]).join('');
    },
    async close() {
      (await db).close();
    },
  };
}
