import type { Engine } from './engine.ts';
import { createInlineEngine } from './inline.ts';

/** workerd (no Web Workers) and Node: the default engine runs the core in the caller's thread. */
export function createDefaultEngine(): Engine {
  return createInlineEngine();
}

/** Every engine is in-thread here, the shared one included. */
export const SHARED_ENGINE_IN_THREAD = true;
