import { compileSource } from './source.ts';

declare const Deno: { readFile(path: URL): Promise<Uint8Array<ArrayBuffer>> };

/** Deno: reads the .wasm next to this file (needs --allow-read, which Deno asks for by name). */
export async function loadDefaultModule(): Promise<WebAssembly.Module> {
  return compileSource(await Deno.readFile(new URL('./wasm/ctxgate.wasm', import.meta.url)));
}
