import { expectBytes, expectNumber, expectText } from '../args.ts';
import { withCore } from './core.ts';

/**
 * CRC-32 (IEEE) of a string's UTF-8 bytes or of raw bytes, computed in the core. Pass the previous
 * result as `seed` to continue over a further chunk. Synchronous: needs `await init()` first.
 * A detached Uint8Array (its buffer transferred) is INVALID_PARAMS, like an input of another kind.
 */
export function crc32(input: string | Uint8Array, seed = 0): number {
  expectText(input, 'input');
  expectNumber(seed, 'seed');
  return withCore((core) => {
    const { ptr, len } = core.writeInput(input);
    return core.raw.crc32(ptr, len, seed >>> 0);
  });
}

/** Result of {@link utf8Check}. */
export interface Utf8Check {
  /** True when the bytes are well-formed UTF-8 (RFC 3629). */
  readonly valid: boolean;
  /** Number of code points when valid, otherwise the code points before the first bad byte are not counted. */
  readonly codePoints: number;
  /** Byte offset of the first invalid sequence, or -1. */
  readonly invalidAt: number;
  /** Length of the input in bytes. */
  readonly byteLength: number;
}

/**
 * Validates UTF-8 in the core and counts code points. Synchronous: needs `await init()` first.
 * `bytes` must be a live Uint8Array (INVALID_PARAMS for another kind or a detached one).
 */
export function utf8Check(bytes: Uint8Array): Utf8Check {
  expectBytes(bytes, 'bytes');
  return withCore((core) => {
    const ptr = core.writeBytes(bytes);
    const r = core.raw.utf8Validate(ptr, bytes.byteLength);
    return r >= 0
      ? { valid: true, codePoints: r, invalidAt: -1, byteLength: bytes.byteLength }
      : { valid: false, codePoints: 0, invalidAt: -r - 1, byteLength: bytes.byteLength };
  });
}
