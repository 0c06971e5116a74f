import { releaseProxy, transfer, wrap, type Endpoint, type Remote } from 'comlink';
import { detachedBytes, isDetached } from '../args.ts';
import { CtxgateError, deserializeError, isDataCloneError } from '../errors.ts';
import { closedError } from './inline.ts';
import { PendingCalls } from './pending.ts';
import { asyncDispose, type Engine } from './engine.ts';
import { coreMethods, type CoreApi, type Envelope, type WireApi } from './protocol.ts';

/** Options of {@link createWorkerEngine}. */
export interface WorkerEngineOptions {
  /**
   * Transfer (not copy) byte inputs to the worker. Faster for large inputs, but the caller's
   * buffers are detached afterwards. Default false for public calls.
   */
  transferInputs?: boolean;
}

/**
 * An argument structured clone cannot copy (a function, a symbol, a class instance with private
 * state) fails postMessage with a DataCloneError whose message may quote the value (a function's
 * source): it becomes UNSUPPORTED_VALUE, as values fingerprinting cannot represent are, naming
 * the method only. So does an argument nested too deeply for the engine's structured clone, whose
 * postMessage fails with a RangeError (its stack ran out) before the worker could refuse it with a
 * limit of its own. Other errors pass as they are.
 */
function unsendable(method: string, error: unknown): unknown {
  if (error instanceof RangeError) {
    return new CtxgateError('UNSUPPORTED_VALUE', `An argument of ${method}() is nested too deeply to be copied to the worker; flatten it or pass its parts.`, {
      details: { method },
      cause: error,
    });
  }
  if (!isDataCloneError(error)) return error;
  return new CtxgateError('UNSUPPORTED_VALUE', `An argument of ${method}() cannot be copied to the worker (a function, a symbol or an object structured clone refuses); pass plain data, strings or Uint8Arrays.`, {
    details: { method },
  });
}

/**
 * The worker as Comlink's endpoint, mending a leak in Comlink (4.4): a call records its pending
 * reply (message id -> resolver) before it posts the message, and when postMessage throws (an
 * argument structured clone refuses) the call rejects with that error but the record stays for
 * good, holding the call's arguments. Here a postMessage that throws still throws the same error
 * (so the call rejects exactly as before), and a reply to that message id, carrying nothing, is
 * then handed to Comlink's message listeners: Comlink deletes the record, and its resolver, of a
 * promise already rejected, does nothing.
 */
function endpointOf(worker: Worker): Endpoint {
  const listeners = new Set<EventListenerOrEventListenerObject>();
  const forget = (id: unknown): void => {
    const event = { data: { id } } as MessageEvent;
    for (const listener of listeners) {
      if (typeof listener === 'function') listener(event);
      else listener.handleEvent(event);
    }
  };
  const endpoint: Endpoint = {
    postMessage(message: unknown, transfer?: Transferable[]) {
      try {
        worker.postMessage(message, transfer as Transferable[]);
      } catch (error) {
        const id = (message as { id?: unknown } | null)?.id;
        // After the throw has rejected the call: a reply now would resolve it instead.
        if (id !== undefined) queueMicrotask(() => forget(id));
        throw error;
      }
    },
    addEventListener(type, listener, options) {
      if (type === 'message') listeners.add(listener);
      worker.addEventListener(type, listener, options);
    },
    removeEventListener(type, listener, options) {
      if (type === 'message') listeners.delete(listener);
      worker.removeEventListener(type, listener, options);
    },
  };
  // A Worker has no start(); a MessagePort-like endpoint may need one to deliver messages.
  const start = (worker as { start?: unknown }).start;
  if (typeof start === 'function') endpoint.start = () => start.call(worker);
  return endpoint;
}

/** Whether `bytes` views the whole of an ArrayBuffer (not a part of one, nor a SharedArrayBuffer). */
function wholeArrayBuffer(bytes: Uint8Array): boolean {
  return bytes.buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
}

/** The field the in-thread engine names for a method's bytes argument (checksum.ts, sha256.ts). */
const BYTES_FIELD: Partial<Record<keyof CoreApi, string>> = { crc32: 'input', utf8Check: 'bytes', sha256Hex: 'input' };

/**
 * Drives the core in a module Web Worker through Comlink.
 *
 * Comlink never rejects pending calls when a worker dies, so this client listens for the worker's
 * `error` and `messageerror` events and rejects every pending and later call with WORKER_CRASHED;
 * nothing hangs.
 */
export function createWorkerEngine(worker: Worker, options: WorkerEngineOptions = {}): Engine {
  const remote: Remote<WireApi> = wrap<WireApi>(endpointOf(worker));
  const pending = new PendingCalls();
  let failure: CtxgateError | undefined;

  const fail = (error: CtxgateError): void => {
    if (failure) return;
    failure = error;
    pending.rejectAll(error);
    worker.terminate();
  };

  const onError = (event: Event): void => {
    // Without preventDefault Deno rethrows a worker's uncaught error in the parent and exits.
    event.preventDefault();
    const message = event instanceof ErrorEvent && event.message ? event.message : 'the worker failed to load or threw an uncaught error';
    fail(new CtxgateError('WORKER_CRASHED', `The ctxgate worker stopped (${message}). Create a new instance to continue.`, {
      details: { event: event.type },
    }));
  };
  const onMessageError = (): void => {
    fail(new CtxgateError('WORKER_CRASHED', 'A message from the ctxgate worker could not be deserialised; the worker was stopped.', {
      details: { event: 'messageerror' },
    }));
  };
  worker.addEventListener('error', onError);
  worker.addEventListener('messageerror', onMessageError);

  const call = (name: keyof CoreApi, args: unknown[]): Promise<unknown> => {
    if (failure) return Promise.reject(failure);
    // A detached buffer cannot be cloned either; refused as the in-thread engine refuses it.
    const detached = args.findIndex((a) => a instanceof Uint8Array && isDetached(a));
    if (detached >= 0) return Promise.reject(detachedBytes(BYTES_FIELD[name] ?? `arguments[${detached}]`));
    const method = remote[name] as unknown as (...a: unknown[]) => Promise<Envelope<unknown>>;
    return pending.track(async () => {
      let envelope: Envelope<unknown>;
      try {
        envelope = await method(...args.map(prepare));
      } catch (error) {
        throw unsendable(name, error);
      }
      if (!envelope.ok) throw deserializeError(envelope.error);
      return envelope.value;
    });
  };

  // Streams cannot be cloned, only transferred; bytes are transferred only when the caller agreed,
  // and only a view of a whole ArrayBuffer: transferring a subarray's buffer would detach the rest
  // of the caller's buffer, and a SharedArrayBuffer cannot be transferred (it is shared as it is).
  const prepare = (arg: unknown): unknown =>
    typeof ReadableStream !== 'undefined' && arg instanceof ReadableStream
      ? transfer(arg, [arg as unknown as Transferable])
      : options.transferInputs && arg instanceof Uint8Array && arg.byteLength > 0 && wholeArrayBuffer(arg)
        ? transfer(arg, [arg.buffer])
        : arg;

  const engine = { mode: 'worker' } as Engine & Record<string, unknown>;
  for (const name of coreMethods) (engine as Record<string, unknown>)[name] = (...args: unknown[]) => call(name, args);
  engine.close = async () => {
    if (failure?.code === 'WORKER_CLOSED') return;
    // Release Comlink's side of the channel while the worker can still be told, then terminate.
    if (!failure) void remote[releaseProxy]();
    worker.removeEventListener('error', onError);
    worker.removeEventListener('messageerror', onMessageError);
    failure = undefined;
    fail(closedError());
  };
  engine[asyncDispose] = () => engine.close();
  return engine;
}
