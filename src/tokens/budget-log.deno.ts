import { CtxgateError } from '../errors.ts';
import { expectLogPath, fileLineWriter, type LineWriter } from './budget-log.ts';

interface DenoFs {
  writeTextFileSync(path: string, data: string, options: { append: boolean; create: boolean }): void;
  mkdirSync(path: string, options: { recursive: true }): void;
}

/**
 * Deno only (needs `--allow-write`): a {@link LineWriter} appending to a file, creating its folder.
 * A `path` that is not a non-empty string is INVALID_PARAMS; outside Deno, or when the folder
 * cannot be created (no permission, a file in its place), it throws STORAGE_FAILURE, and a failed
 * append rejects the log's flush() with STORAGE_FAILURE (Deno's error name in `details.code`).
 */
export function denoFileLineWriter(path: string): LineWriter {
  expectLogPath(path);
  // Looked up at the call, not declared global: elsewhere `Deno` is a ReferenceError, not an answer.
  const deno = (globalThis as { Deno?: DenoFs }).Deno;
  if (deno === undefined || typeof deno.writeTextFileSync !== 'function') {
    throw new CtxgateError(
      'STORAGE_FAILURE',
      "Deno is not available here: denoFileLineWriter works under Deno. In Node use nodeFileLineWriter ('ctxgate/budget-log/node'), in a browser indexedDbLineWriter, or pass jsonlBudgetLog your own writer.",
      { details: { operation: 'open', reason: 'unavailable' } },
    );
  }
  const slash = path.lastIndexOf('/');
  return fileLineWriter(
    path,
    slash > 0 ? path.slice(0, slash) : undefined,
    (f) => deno.mkdirSync(f, { recursive: true }),
    (line) => deno.writeTextFileSync(path, line, { append: true, create: true }),
  );
}
