import type { LineWriter } from './budget-log.ts';

declare const Deno: {
  writeTextFileSync(path: string, data: string, options: { append: boolean; create: boolean }): void;
  mkdirSync(path: string, options: { recursive: true }): void;
};

/** Deno only (needs `--allow-write`): a {@link LineWriter} appending to a file, creating its folder. */
export function denoFileLineWriter(path: string): LineWriter {
  const slash = path.lastIndexOf('/');
  if (slash > 0) Deno.mkdirSync(path.slice(0, slash), { recursive: true });
  return { write: (line) => Deno.writeTextFileSync(path, line, { append: true, create: true }) };
}
