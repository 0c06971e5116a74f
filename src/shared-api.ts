// Package-level functions: each runs on the shared engine (started on first use, or by `init()`),
// so a caller who does not manage an engine still gets the worker where one exists.
//
// When the engine is a Web Worker, arguments are checked here, in the caller's thread, before the
// call is sent: a value the worker cannot receive (a function, a symbol) would otherwise fail in
// postMessage instead of INVALID_PARAMS naming the parameter. In-thread, the core functions' own
// checks report the same errors, so the list is not walked twice.
import { kindOf } from './args.ts';
import { sharedEngine } from './ctxgate.ts';
import { invalidParams } from './errors.ts';
import { checkHashInputs, checkHashStreamSource, isReadableStream, type HashInput } from './core/sha256.ts';
import { checkBlockSortKeys, type BlockSortKey } from './core/sort.ts';

/**
 * Lowercase hex SHA-256 of a string (as UTF-8), bytes, a Blob/File or a byte stream, computed in
 * the WebAssembly core. Blobs and streams are hashed chunk by chunk. Another kind of `input` is
 * INVALID_PARAMS (`input`); so is an async iterable that is not a ReadableStream when the core runs
 * in a Web Worker (it cannot be sent there).
 */
export async function sha256Hex(input: HashInput | Blob | ReadableStream<Uint8Array>): Promise<string> {
  const bytes = typeof input === 'string' || input instanceof Uint8Array;
  if (!bytes) checkHashStreamSource(input, 'input');
  const engine = await sharedEngine();
  if (!bytes && engine.mode === 'worker' && !(input instanceof Blob) && !isReadableStream(input)) {
    const expected = 'a string, a Uint8Array, a Blob or a ReadableStream';
    throw invalidParams('input', `must be ${expected} when the core runs in a Web Worker (got ${kindOf(input)}).`, { expected, got: kindOf(input) });
  }
  return engine.sha256Hex(input);
}

/** Lowercase hex SHA-256 of each input, in one call into the core. `inputs` must be an array of strings and Uint8Arrays (INVALID_PARAMS). */
export async function sha256Many(inputs: readonly HashInput[]): Promise<string[]> {
  const engine = await sharedEngine();
  if (engine.mode === 'worker') checkHashInputs(inputs, 'inputs');
  return engine.sha256Many(inputs);
}

/**
 * `fingerprint(value)` = lowercase hex SHA-256 of the RFC 8785 canonical UTF-8 form of `value`.
 * Equal JSON data gives an equal fingerprint in every runtime. Values JSON cannot represent are
 * refused with UNSUPPORTED_VALUE.
 */
export async function fingerprint(value: unknown): Promise<string> {
  return (await sharedEngine()).fingerprint(value);
}

/**
 * The INV-CONTEXT-1 order of blocks (priority, block type, key bytewise; stable) as a permutation.
 * `items` must be an array of { priority, blockType, key } (INVALID_PARAMS naming `items`,
 * `priority`, `blockType` or `key`).
 */
export async function sortBlockKeys(items: readonly BlockSortKey[]): Promise<Uint32Array> {
  const engine = await sharedEngine();
  if (engine.mode !== 'worker') return engine.sortBlockKeys(items);
  checkBlockSortKeys(items);
  // Only the three checked fields go to a worker: another member (a method, a getter on a class)
  // would fail to clone, or arrive missing.
  return engine.sortBlockKeys(items.map(({ priority, blockType, key }) => ({ priority, blockType, key })));
}
