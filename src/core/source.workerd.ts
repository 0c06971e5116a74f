// workerd refuses to compile WebAssembly from bytes at run time ("Wasm code generation disallowed
// by embedder"), so the module is imported statically; wrangler and the Workers Vitest plugin
// turn this import into a compiled WebAssembly.Module.
import wasmModule from './wasm/ctxgate.wasm';

/** Cloudflare Workers (workerd): the statically imported, already compiled module. */
export function loadDefaultModule(): Promise<WebAssembly.Module> {
  return Promise.resolve(wasmModule);
}
