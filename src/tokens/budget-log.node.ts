import { expectLogPath, fileLineWriter, type LineWriter } from './budget-log.ts';

interface NodeFs {
  appendFileSync(path: string, data: string): void;
  mkdirSync(path: string, options: { recursive: true }): unknown;
}

interface NodePath {
  dirname(path: string): string;
}

/**
 * Node only: a {@link LineWriter} appending to a file (e.g. `.agents/rpi/context-budget-log.jsonl`),
 * creating its folder. Appends are synchronous so lines from one process never interleave.
 * A `path` that is not a non-empty string is INVALID_PARAMS; a folder that cannot be created
 * (a file in its place: ENOTDIR/EEXIST, no permission) rejects with STORAGE_FAILURE, and so does
 * a failed append (through the log's flush()), with the system error code in `details.code`.
 */
export async function nodeFileLineWriter(path: string): Promise<LineWriter> {
  expectLogPath(path);
  // Module names in variables keep bundlers for other runtimes from resolving them.
  const fsSpec = 'node:fs';
  const pathSpec = 'node:path';
  const fs = (await import(/* @vite-ignore */ fsSpec)) as NodeFs;
  const { dirname } = (await import(/* @vite-ignore */ pathSpec)) as NodePath;
  // dirname knows the platform's separators (`C:\logs\budget.jsonl` on Windows).
  const folder = dirname(path);
  return fileLineWriter(
    path,
    folder !== '.' && folder !== path ? folder : undefined,
    (f) => fs.mkdirSync(f, { recursive: true }),
    (line) => fs.appendFileSync(path, line),
  );
}
