// A "Web Worker" in this thread for Node tests of the worker engine: the core API exposed with
// Comlink on one end of a MessageChannel, as the real worker exposes it, so the engine talks to it
// through structured clone.
import { MessageChannel } from 'node:worker_threads';
import { expose } from 'comlink';
import { createCoreApi } from '../../src/worker/api.ts';
import { toWire } from '../../src/worker/wire.ts';

/** A Worker-shaped object over a MessageChannel whose other end runs the core API. */
export function channelWorker(): Worker {
  const { port1, port2 } = new MessageChannel();
  expose(toWire(createCoreApi('worker')), port2 as unknown as MessagePort);
  return {
    postMessage: (message: unknown, transfer?: Transferable[]) => port1.postMessage(message, transfer as never),
    addEventListener: (type: string, listener: (event: Event) => void) => port1.addEventListener(type as 'message', listener as never),
    removeEventListener: (type: string, listener: (event: Event) => void) => port1.removeEventListener(type as 'message', listener as never),
    terminate: () => {
      port1.close();
      port2.close();
    },
  } as unknown as Worker;
}
