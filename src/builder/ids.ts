import { sha256HexSync, sha256ManySync } from '../core/sha256.ts';

/**
 * A UUID (RFC 9562 version 8, "custom") derived from a hash of the given parts, so identifiers
 * are reproducible: the same inputs give the same bundle and block ids in every runtime.
 */
export function derivedUuid(...parts: string[]): string {
  return uuidFromHash(sha256HexSync(parts.join('\u0000')));
}

/** {@link derivedUuid} of each list of parts, hashed in one batched call (a bundle's block ids). */
export function derivedUuids(partsList: readonly (readonly string[])[]): string[] {
  return sha256ManySync(partsList.map((parts) => parts.join('\u0000'))).map(uuidFromHash);
}

function uuidFromHash(h: string): string {
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
