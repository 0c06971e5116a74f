import { initCore } from './core.ts';
import { checkWasmSource, type WasmSource } from './source.ts';

/**
 * Loads the core into the current thread for the synchronous functions (`sha256HexSync`,
 * `fingerprintSync`, `sortBlockKeysSync`, …). Not needed for the async API, which loads its engine
 * itself. Without a source it uses the runtime's default and is cached; with one, it replaces the
 * thread's core once loaded. A `source` of another kind (a number, a plain object, `null`) is
 * INVALID_PARAMS (`source`), and the current core stays.
 */
export async function loadCore(source?: WasmSource): Promise<void> {
  if (source !== undefined) checkWasmSource(source, 'source');
  await initCore(source);
}
