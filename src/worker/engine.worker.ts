import { createWorkerEngine } from './client.ts';
import type { Engine } from './engine.ts';

/** Browsers and Deno: the default engine runs the core in a module Web Worker. */
export function createDefaultEngine(): Engine {
  // Bundlers (Vite, webpack 5, esbuild) recognise this exact form and emit the worker as a chunk.
  // build/build.mjs points it at the emitted .js file in dist/ (tsc rewrites imports, not URLs).
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
  return createWorkerEngine(worker);
}

/** Browsers: the shared engine is a Web Worker too, keeping the page's thread free (a page never has to exit). */
export const SHARED_ENGINE_IN_THREAD = false;
