import { compileSource } from './source.ts';

/**
 * Browsers and browser workers: fetches the .wasm next to this module. `new URL(…, import.meta.url)`
 * is understood by Vite, webpack 5, Rollup and esbuild without plugins, so bundlers copy the file.
 */
export function loadDefaultModule(): Promise<WebAssembly.Module> {
  return compileSource(new URL('./wasm/ctxgate.wasm', import.meta.url));
}
