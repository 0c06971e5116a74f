// ctxgate's public entry. Every export is listed by name; internals (the wasm glue, the worker
// protocol) are deliberately not exported.

// Engine lifecycle
export { createCtxgate, init, shutdown } from './ctxgate.ts';
export type { CtxgateOptions } from './ctxgate.ts';
export type { Engine } from './worker/engine.ts';
export type { CoreApi, CoreInfo, TransferableWasmSource } from './worker/protocol.ts';
export type { WasmSource } from './core/source.ts';

// Errors
export {
  CtxgateError,
  ContextTooLargeError,
  SecretRiskError,
  AmbiguousTargetError,
  ContextViolationError,
  ContextSizeError,
  ConflictError,
  isCtxgateError,
  serializeError,
  deserializeError,
} from './errors.ts';
export type { CtxgateErrorCode, CtxgateErrorOptions, SerializedError } from './errors.ts';

// Loading the core in this thread, for the synchronous functions
export { loadCore } from './core/load.ts';

// Hashing, fingerprints and ordering (core)
export { sha256Hex, sha256Many, fingerprint, sortBlockKeys } from './shared-api.ts';
export { sha256HexSync, sha256ManySync, createSha256Sync, sha256HexStream } from './core/sha256.ts';
export type { HashInput, Sha256Hasher } from './core/sha256.ts';
export { canonicalize } from './fingerprint/canonicalize.ts';
export { fingerprintSync } from './fingerprint/fingerprint.ts';
export { sortBlockKeysSync, sortByGroupAndKeySync, compareUtf8, blockGroup, PRIORITIES, BLOCK_TYPE_ORDER } from './core/sort.ts';
export type { BlockSortKey, BlockType, Priority } from './core/sort.ts';
export { crc32 as crc32Sync, utf8Check as utf8CheckSync } from './core/checksum.ts';
export type { Utf8Check } from './core/checksum.ts';

// Token counts
export type { TokenCount, TokenCounter } from './tokens/counter.ts';
