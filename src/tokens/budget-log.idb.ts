import { openDB } from 'idb';
import type { LineWriter } from './budget-log.ts';

/**
 * A {@link LineWriter} that appends budget-log lines to IndexedDB (browsers and their workers):
 * object store `lines` (auto-increment keys, so reading it back in key order gives the JSONL).
 */
export function indexedDbLineWriter(dbName = 'ctxgate-budget-log'): LineWriter & { readAll(): Promise<string>; close(): Promise<void> } {
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
