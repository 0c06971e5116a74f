// Package-level functions: each runs on the shared engine (started on first use, or by `init()`),
// so a caller who does not manage an engine still gets the worker where one exists.
import { sharedEngine } from './ctxgate.ts';
import type { HashInput } from './core/sha256.ts';
import type { BlockSortKey } from './core/sort.ts';

/**
 * Lowercase hex SHA-256 of a string (as UTF-8), bytes, a Blob/File or a byte stream, computed in
 * the WebAssembly core. Blobs and streams are hashed chunk by chunk.
 */
export async function sha256Hex(input: HashInput | Blob | ReadableStream<Uint8Array>): Promise<string> {
  return (await sharedEngine()).sha256Hex(input);
}

/** Lowercase hex SHA-256 of each input, in one call into the core. */
export async function sha256Many(inputs: readonly HashInput[]): Promise<string[]> {
  return (await sharedEngine()).sha256Many(inputs);
}

/**
 * `fingerprint(value)` = lowercase hex SHA-256 of the RFC 8785 canonical UTF-8 form of `value`.
 * Equal JSON data gives an equal fingerprint in every runtime. Values JSON cannot represent are
 * refused with UNSUPPORTED_VALUE.
 */
export async function fingerprint(value: unknown): Promise<string> {
  return (await sharedEngine()).fingerprint(value);
}

/** The INV-CONTEXT-1 order of blocks (priority, block type, key bytewise; stable) as a permutation. */
export async function sortBlockKeys(items: readonly BlockSortKey[]): Promise<Uint32Array> {
  return (await sharedEngine()).sortBlockKeys(items);
}
