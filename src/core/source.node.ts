/// <reference types="node" />
import { compileSource } from './source.ts';

/** Node: reads the .wasm that ships next to this file. */
export async function loadDefaultModule(): Promise<WebAssembly.Module> {
  const { readFile } = await import('node:fs/promises');
  const url = new URL('./wasm/ctxgate.wasm', import.meta.url);
  return compileSource(new Uint8Array(await readFile(url)));
}
