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

// Checksums (core)
export type { Utf8Check } from './core/checksum.ts';

// Token counts
export type { TokenCount, TokenCounter } from './tokens/counter.ts';
