import type { LineWriter } from './budget-log.ts';

interface NodeFs {
  appendFileSync(path: string, data: string): void;
  mkdirSync(path: string, options: { recursive: true }): unknown;
}

/**
 * Node only: a {@link LineWriter} appending to a file (e.g. `.agents/rpi/context-budget-log.jsonl`),
 * creating its folder. Appends are synchronous so lines from one process never interleave.
 */
export async function nodeFileLineWriter(path: string): Promise<LineWriter> {
  const spec = 'node:fs';
  const fs = (await import(/* @vite-ignore */ spec)) as NodeFs;
  const slash = path.lastIndexOf('/');
  if (slash > 0) fs.mkdirSync(path.slice(0, slash), { recursive: true });
  return { write: (line) => fs.appendFileSync(path, line) };
}
