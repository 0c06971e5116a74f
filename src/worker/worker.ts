// The module Web Worker that hosts the core in browsers and Deno.
//
// `expose` runs synchronously at module evaluation: if the module awaited anything first, Comlink
// would not be listening yet and the first call would be lost (seen in Chromium and Deno). The
// wasm is loaded later, inside the first `init()` call.
import { expose } from 'comlink';
import { serializeError } from '../errors.ts';
import { createCoreApi } from './api.ts';
import { coreMethods, type CoreApi, type Envelope, type WireApi } from './protocol.ts';

function toWire(api: CoreApi): WireApi {
  const wire: Record<string, (...args: unknown[]) => Promise<Envelope<unknown>>> = {};
  for (const name of coreMethods) {
    const method = api[name] as (...args: unknown[]) => Promise<unknown>;
    wire[name] = async (...args) => {
      try {
        return { ok: true, value: await method(...args) };
      } catch (error) {
        return { ok: false, error: serializeError(error) };
      }
    };
  }
  return wire as WireApi;
}

expose(toWire(createCoreApi('worker')));
