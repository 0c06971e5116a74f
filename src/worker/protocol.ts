// The one contract between the two sides of the worker: wire types only, no behaviour.
//
// Every method of CoreApi crosses the worker boundary as an Envelope rather than a thrown error,
// because Comlink keeps only name/message/stack of a thrown value and never the SDK's code,
// details or class. The client unwraps the envelope and rethrows the rebuilt error.
import type { SerializedError } from '../errors.ts';
import type { Utf8Check } from '../core/checksum.ts';
import type { WasmSource } from '../core/source.ts';
import type { HashInput } from '../core/sha256.ts';
import type { BlockSortKey } from '../core/sort.ts';
import type { BuildContextInput, BuildContextResult, ProjectIndex } from '../builder/types.ts';
import type { IndexExtras, ProjectFile } from '../builder/project-index.ts';
import type { TokenCount } from '../tokens/counter.ts';
import type { EncodingOptions } from '../tokens/encoding.ts';
import type { RedactResult, ScanOptions, SecretFinding } from '../secrets/types.ts';

/** A source for the core that can be posted to a worker (everything but a Response). */
export type TransferableWasmSource = Exclude<WasmSource, Response | Promise<Response>>;

/** What the core reports once loaded. */
export interface CoreInfo {
  /** Size of the core's linear memory in bytes. */
  readonly memoryBytes: number;
  /** Where the core runs: `worker` or `inline` (same thread as the caller). */
  readonly mode: 'worker' | 'inline';
}

/**
 * The asynchronous core API. Implemented in-thread by `createCoreApi()` and exposed unchanged by the
 * worker; the client side (`WorkerEngine`) and the in-thread side (`InlineEngine`) both satisfy it.
 */
export interface CoreApi {
  /** Loads the core (once) from the runtime default or the given source. */
  init(source?: TransferableWasmSource): Promise<CoreInfo>;
  /** CRC-32 of a string's UTF-8 bytes or of bytes. */
  crc32(input: string | Uint8Array, seed?: number): Promise<number>;
  /** Validates UTF-8 and counts code points. */
  utf8Check(bytes: Uint8Array): Promise<Utf8Check>;
  /** Lowercase hex SHA-256 of a string (UTF-8), bytes, a Blob/File, or a byte stream. */
  sha256Hex(input: HashInput | Blob | ReadableStream<Uint8Array>): Promise<string>;
  /** Lowercase hex SHA-256 of many inputs in one call. */
  sha256Many(inputs: readonly HashInput[]): Promise<string[]>;
  /** SHA-256 of the RFC 8785 canonical form of JSON data. */
  fingerprint(value: unknown): Promise<string>;
  /** INV-CONTEXT-1 order of blocks: the permutation of input indices. */
  sortBlockKeys(items: readonly BlockSortKey[]): Promise<Uint32Array>;
  /** Builds a context bundle from a validated input and the candidates' contents (spec 001). */
  buildContext(input: BuildContextInput, contents: readonly (readonly [string, Uint8Array | string])[]): Promise<BuildContextResult>;
  /**
   * Indexes files: paths, sizes, hashes, encodings and the project index fingerprint. A symbol or
   * edge in `extras` that the builder would refuse is INVALID_PARAMS naming it (`extras.symbols[2].startLine`).
   */
  indexProject(files: readonly ProjectFile[], extras?: IndexExtras, sandbox?: BuildContextInput['sandbox']): Promise<ProjectIndex>;
  /** ctxgate-est/1 token estimate (deterministic, leans high). */
  estimateTokens(text: string, options?: EncodingOptions): Promise<TokenCount>;
  /** Exact token count with js-tiktoken (ranks bundled, loaded on first use). */
  countTokens(text: string, options?: EncodingOptions): Promise<TokenCount>;
  /** Finds secrets (rule id, confidence, position; never the value). */
  scanSecrets(text: string, options?: ScanOptions): Promise<SecretFinding[]>;
  /** Replaces secrets with stable placeholders, or refuses (SecretRiskError) per the policy. */
  redactSecrets(text: string, options?: ScanOptions): Promise<RedactResult>;
}

/** A method's result on the wire. */
export type Envelope<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: SerializedError };

/** The API as the worker exposes it: same methods, envelopes instead of throws. */
export type WireApi = {
  [K in keyof CoreApi]: (...args: Parameters<CoreApi[K]>) => Promise<Envelope<Awaited<ReturnType<CoreApi[K]>>>>;
};

/** Methods of the API, for building the wire and client wrappers. */
export const coreMethods = ['init', 'crc32', 'utf8Check', 'sha256Hex', 'sha256Many', 'fingerprint', 'sortBlockKeys', 'buildContext', 'indexProject', 'estimateTokens', 'countTokens', 'scanSecrets', 'redactSecrets'] as const satisfies readonly (keyof CoreApi)[];
