// A minimal Worker for the workerd suite: a fetch handler that uses ctxgate in-thread, and the
// Durable Object class the store backend tests bind to.
import { createCtxgate } from '../../src/index.ts';
import type { DurableObjectStorageLike } from '../../src/store/backends/durable-object.ts';
import { createDurableObjectStore } from '../../src/store/backends/durable-object.ts';
import type { ContextStore } from '../../src/store/context-store.ts';

/**
 * A Durable Object that keeps agent contexts in its own `state.storage`, as an application would.
 * Tests reach it with `runInDurableObject(stub, (obj) => obj.store.save(...))`, so every store
 * call runs inside the object, under its real input and output gates.
 */
export class ContextStoreObject {
  readonly store: ContextStore;

  constructor(
    readonly state: { storage: DurableObjectStorageLike },
    readonly env: unknown,
  ) {
    this.store = createDurableObjectStore(state.storage);
  }

  async fetch(): Promise<Response> {
    return Response.json({ ids: await this.store.list() });
  }
}

export default {
  async fetch(request: Request): Promise<Response> {
    await using cg = await createCtxgate();
    const text = new URL(request.url).searchParams.get('text') ?? '';
    return Response.json({ mode: cg.mode, crc32: await cg.crc32(text) });
  },
};
