/** Deno: an engine you create runs the core in a module Web Worker, as in browsers. */
export { createDefaultEngine } from './engine.worker.ts';

/**
 * The shared engine behind the package-level functions runs in the caller's thread: Deno does not
 * exit while a Web Worker lives, and a Web Worker cannot be unref'd, so a script that only called
 * `indexProject` or `buildContext` would never end unless it knew to call `shutdown()`.
 */
export const SHARED_ENGINE_IN_THREAD = true;
