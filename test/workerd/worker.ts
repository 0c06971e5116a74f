// A minimal Worker for the workerd suite: a fetch handler that uses ctxgate in-thread, and the
// Durable Object class the store backend tests bind to.
import { createCtxgate } from '../../src/index.ts';

export class ContextStoreObject {
  constructor(
    readonly state: unknown,
    readonly env: unknown,
  ) {}
  async fetch(): Promise<Response> {
    return new Response('ok');
  }
}

export default {
  async fetch(request: Request): Promise<Response> {
    await using cg = await createCtxgate();
    const text = new URL(request.url).searchParams.get('text') ?? '';
    return Response.json({ mode: cg.mode, crc32: await cg.crc32(text) });
  },
};
