import { sha256HexSync } from '../core/sha256.ts';
import { canonicalize } from './canonicalize.ts';

/**
 * Lowercase hex SHA-256 of the RFC 8785 canonical UTF-8 form of `value`: equal JSON data gives an
 * equal fingerprint in every runtime, whatever the key order. Synchronous: needs the core loaded.
 */
export function fingerprintSync(value: unknown): string {
  return sha256HexSync(canonicalize(value));
}
