// The core API as the worker exposes it: every method answers with an envelope, so a CtxgateError
// crosses the thread boundary with its code and details (Comlink alone keeps message and name).
import { serializeError } from '../errors.ts';
import type { CoreApi, Envelope, WireApi } from './protocol.ts';
import { coreMethods } from './protocol.ts';

/** Wraps each method of `api` to resolve with `{ ok, value }` or `{ ok: false, error }` (serialised). */
export function toWire(api: CoreApi): WireApi {
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
