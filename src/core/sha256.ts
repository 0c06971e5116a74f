import { detachedBytes, expectArray, expectText, isDetached, kindOf, wrongItem, wrongKind } from '../args.ts';
import { CtxgateError, invalidParams } from '../errors.ts';
import { isCurrentCore, pinCore, withCore, type Core } from './core.ts';
import { toHex, toHexRecords } from './hex.ts';

/** Inputs above this size are hashed in chunks through a fixed window instead of copied whole. */
export const SHA256_CHUNK = 1 << 20;

const encoder = new TextEncoder();

/** Bytes to hash: a string (hashed as UTF-8) or bytes. */
export type HashInput = string | Uint8Array;

function digestOf(core: Core, input: HashInput): Uint8Array<ArrayBuffer> {
  const bytes = typeof input === 'string' && input.length * 3 > SHA256_CHUNK ? encoder.encode(input) : input;
  if (typeof bytes === 'string' || bytes.byteLength <= SHA256_CHUNK) {
    const { ptr, len } = core.writeInput(bytes);
    core.raw.sha256(ptr, len);
    return core.readOutput();
  }
  const state = core.raw.sha256Init();
  try {
    for (let off = 0; off < bytes.byteLength; off += SHA256_CHUNK) {
      const chunk = bytes.subarray(off, Math.min(off + SHA256_CHUNK, bytes.byteLength));
      core.raw.sha256Update(state, core.writeBytes(chunk), chunk.byteLength);
    }
  } catch (error) {
    core.raw.sha256Drop(state);
    throw error;
  }
  core.raw.sha256Final(state);
  return core.readOutput();
}

/**
 * SHA-256 digest (32 bytes) computed in the core. Synchronous: needs the core loaded. `input` must
 * be a string or a live Uint8Array: INVALID_PARAMS otherwise.
 */
export function sha256BytesSync(input: HashInput): Uint8Array<ArrayBuffer> {
  expectText(input, 'input');
  return withCore((core) => digestOf(core, input));
}

/**
 * Lowercase hex SHA-256 computed in the core. Synchronous: needs the core loaded. `input` is
 * checked as {@link sha256BytesSync} checks it.
 */
export function sha256HexSync(input: HashInput): string {
  return toHex(sha256BytesSync(input));
}

/** Bytes in the first group of {@link sha256ManySync}: small, so the engine soon has optimised code. */
const FIRST_GROUP = 1 << 16;
/**
 * Largest group of {@link sha256ManySync}: groups double up to this size, because the four lanes
 * are busy only while a group has inputs left to hand out, and each group ends with one lane.
 */
const LAST_GROUP = 1 << 24;

/**
 * Lowercase hex SHA-256 of many inputs in batched calls into the core (the builder hashes a whole
 * project this way). Synchronous: needs the core loaded.
 *
 * Inputs go in groups that start at 64 KiB and double up to 16 MiB (an input larger than its
 * group goes alone), not all in one call: an engine runs a WebAssembly function in its baseline
 * tier until its optimised code is ready and swaps that in only between calls, so one call over a
 * whole project ran entirely in the slow tier (282 ms against about 90 ms for 39 MiB, cold, in
 * Node). Groups also keep the core's input window, and so its memory, below the project's size.
 */
export function sha256ManySync(inputs: readonly HashInput[]): string[] {
  expectArray(inputs, 'inputs');
  const out: string[] = [];
  let from = 0;
  let limit = FIRST_GROUP;
  while (from < inputs.length) {
    // Capacity: strings encode to at most 3 bytes per UTF-16 unit.
    let capacity = 0;
    let to = from;
    while (to < inputs.length) {
      const x = inputs[to]!;
      // Each input's kind is checked here, once, before anything is written to the core.
      const size = typeof x === 'string' ? x.length * 3 : x instanceof Uint8Array ? liveLength(x, 'inputs', to) : badHashInput('inputs', to, x);
      if (to > from && capacity + size > limit) break;
      capacity += size;
      to++;
    }
    for (const digest of hashGroup(inputs, from, to, capacity)) out.push(digest);
    from = to;
    limit = Math.min(limit * 2, LAST_GROUP);
  }
  return out;
}

/** The length of bytes at `field[index]`; INVALID_PARAMS when they are detached. */
function liveLength(bytes: Uint8Array, field: string, index: number): number {
  if (isDetached(bytes)) throw detachedBytes(`${field}[${index}]`);
  return bytes.byteLength;
}

/** INVALID_PARAMS for an item of a list of hash inputs that is neither a string nor bytes. */
function badHashInput(field: string, index: number, value: unknown): never {
  throw wrongItem(field, index, 'a string or a Uint8Array', value);
}

/**
 * Checks a list of hash inputs (an array of strings and Uint8Arrays), as {@link sha256ManySync}
 * does while it sizes them. For callers that send the list elsewhere (the worker).
 */
export function checkHashInputs(inputs: unknown, field = 'inputs'): asserts inputs is readonly HashInput[] {
  expectArray(inputs, field);
  for (let i = 0; i < inputs.length; i++) {
    const x = inputs[i];
    if (typeof x !== 'string' && !(x instanceof Uint8Array)) badHashInput(field, i, x);
    if (x instanceof Uint8Array) liveLength(x, field, i);
  }
}

/** Hashes inputs [from, to) in one call into the core. */
function hashGroup(inputs: readonly HashInput[], from: number, to: number, capacity: number): string[] {
  return withCore((core) => {
    // One window: u32 lengths first (4-byte aligned), then the data back to back, encoded in place.
    const count = to - from;
    const header = count * 4;
    const ptr = core.reserve(header + capacity);
    const view = core.view(ptr, header + capacity);
    const lengths = new DataView(view.buffer, view.byteOffset, header);
    let at = header;
    for (let i = 0; i < count; i++) {
      const x = inputs[from + i]!;
      let n: number;
      if (typeof x === 'string') n = encoder.encodeInto(x, view.subarray(at)).written;
      else {
        view.set(x, at);
        n = x.byteLength;
      }
      lengths.setUint32(i * 4, n, true);
      at += n;
    }
    core.raw.sha256Batch(ptr + header, ptr, count);
    return toHexRecords(core.readOutput(), count, 32);
  });
}

/**
 * An incremental SHA-256 in the core for inputs that arrive in pieces. Call `digestHex()` once; it
 * releases the core state. `dispose()` releases it without a digest, and never throws.
 *
 * The state lives in the core instance the hasher started on. If that instance is replaced before
 * the digest (`loadCore(source)`, or a reset after a core failure in any call on this thread),
 * the state is gone: `update()` and `digestHex()` then fail with CORE_FAILURE (`details.reason`
 * `'core-replaced'`) instead of hashing into the new instance; hash the input again from the start.
 */
export interface Sha256Hasher {
  update(chunk: HashInput): Sha256Hasher;
  digestHex(): string;
  dispose(): void;
}

/** CORE_FAILURE for a hasher whose core instance was replaced while it was hashing. */
function coreReplaced(): CtxgateError {
  return new CtxgateError(
    'CORE_FAILURE',
    'The ctxgate core was replaced while this SHA-256 was in progress (loadCore(source), or a reset after a core failure), ' +
      'so its state is gone and no digest was produced. Hash the input again from the start with a new hasher.',
    { details: { reason: 'core-replaced' } },
  );
}

/** Starts an incremental SHA-256 in the core. Synchronous: needs the core loaded. */
export function createSha256Sync(): Sha256Hasher {
  // The state is an address in the memory of the instance it started on: meaningless in any other.
  let owner!: Core;
  let state = withCore((core) => {
    owner = core;
    return core.raw.sha256Init();
  });
  // The instance is not recycled for its memory while the state lives in it (see pinCore); a
  // hasher neither finished nor disposed keeps it, as it keeps its state.
  const unpin = pinCore(owner);
  let lost = false;
  /** The live state, or the error that says why there is none. */
  const live = (): number => {
    if (lost) throw coreReplaced();
    if (state === 0) throw new CtxgateError('INVALID_PARAMS', 'This SHA-256 hasher is finished; create a new one with createSha256Sync().');
    if (!isCurrentCore(owner)) {
      // The state went with the old instance: nothing to release, and never a digest from here on.
      state = 0;
      lost = true;
      unpin();
      throw coreReplaced();
    }
    return state;
  };
  const hasher: Sha256Hasher = {
    update(chunk) {
      expectText(chunk, 'chunk');
      const s = live();
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      withCore((core) => {
        for (let off = 0; off < bytes.byteLength || off === 0; off += SHA256_CHUNK) {
          const part = bytes.subarray(off, Math.min(off + SHA256_CHUNK, bytes.byteLength));
          core.raw.sha256Update(s, core.writeBytes(part), part.byteLength);
          if (bytes.byteLength === 0) break;
        }
      });
      return hasher;
    },
    digestHex() {
      const s = live();
      state = 0;
      try {
        return withCore((core) => {
          core.raw.sha256Final(s);
          return toHex(core.readOutput());
        });
      } finally {
        unpin();
      }
    },
    dispose() {
      const s = state;
      state = 0;
      // Replaced (or never started): the state went with the old instance, nothing to release.
      if (s === 0 || !isCurrentCore(owner)) return unpin();
      try {
        withCore((core) => core.raw.sha256Drop(s));
      } catch {
        // Best effort: dispose() runs in cleanup paths, where throwing would mask the error being
        // handled. A trap here has already had withCore discard the instance, state and all.
      } finally {
        unpin();
      }
    },
  };
  return hasher;
}

/** A source {@link sha256HexStream} reads: a Blob/File, a ReadableStream or another async iterable. */
export type HashStreamSource = Blob | ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>;

/** True for a ReadableStream, also where the runtime's streams are not async iterable. */
export function isReadableStream(value: unknown): value is ReadableStream<Uint8Array> {
  return typeof ReadableStream !== 'undefined' && value instanceof ReadableStream;
}

/** True for a value `for await` can walk. */
export function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return value !== null && (typeof value === 'object' || typeof value === 'function') && typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function';
}

/** INVALID_PARAMS unless `source` is something {@link sha256HexStream} can read. */
export function checkHashStreamSource(source: unknown, field = 'source'): asserts source is HashStreamSource {
  // A locked stream has a reader already: reading it again would be a TypeError (ERR_INVALID_STATE).
  if (isReadableStream(source) && source.locked) {
    throw invalidParams(field, 'is a ReadableStream that is locked (a reader is already reading it); pass an unread stream, or release its reader first.', {
      expected: 'an unlocked ReadableStream',
      got: 'a locked ReadableStream',
    });
  }
  if (source instanceof Blob || isReadableStream(source) || isAsyncIterable(source)) return;
  const expected = 'a Blob, a ReadableStream or an async iterable of Uint8Array chunks';
  throw wrongKind(field, expected, source);
}

/** The chunks of a ReadableStream through its reader, where streams are not async iterable (Safari). */
async function* readerChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<unknown> {
  const reader = stream.getReader();
  let done = false;
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    // Stopped early (a bad chunk, a failed update): cancel, as a stream's own iterator would.
    if (!done) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

/**
 * Hashes a Blob/File or a byte stream chunk by chunk without holding it whole. A source of another
 * kind, a ReadableStream that is locked, or a chunk that is neither bytes nor a string (or is a
 * detached Uint8Array) is INVALID_PARAMS (`source`).
 */
export async function sha256HexStream(source: HashStreamSource): Promise<string> {
  checkHashStreamSource(source);
  const hasher = createSha256Sync();
  try {
    const stream = source instanceof Blob ? source.stream() : source;
    const chunks: AsyncIterable<unknown> = isAsyncIterable(stream) ? stream : readerChunks(stream);
    for await (const chunk of chunks) {
      if (typeof chunk !== 'string' && !(chunk instanceof Uint8Array)) {
        throw invalidParams('source', `must yield Uint8Array chunks (got ${kindOf(chunk)}).`, { expected: 'Uint8Array chunks', got: kindOf(chunk) });
      }
      if (chunk instanceof Uint8Array && isDetached(chunk)) throw detachedBytes('source');
      hasher.update(chunk);
    }
    return hasher.digestHex();
  } catch (error) {
    hasher.dispose();
    throw error;
  }
}
