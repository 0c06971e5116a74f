import { isSha256Hex, utf8Encode } from '../hash.ts';
import { isPlainObject } from '../json-safety.ts';
import type { StoredRecord } from '../record.ts';

/**
 * Record layout for key-value engines with small values (Deno KV: 64 KiB per value; Durable
 * Object storage: 128 KiB). The context text is stored as UTF-8 chunks under a fresh generation
 * id, and a small head names the generation. Writers put their chunks first and then swap the
 * head atomically, so readers only ever see a complete generation.
 */
export interface ChunkedHead {
  /** Context id. */
  id: string;
  /** Store version. */
  version: number;
  /** Record checksum (see `recordChecksum`). */
  checksum: string;
  /** Generation id naming this version's chunks. */
  gen: string;
  /** Number of chunks. */
  chunks: number;
  /** Total UTF-8 bytes of the context text. */
  bytes: number;
}

/** True if `value` has the shape of a {@link ChunkedHead}. */
export function isChunkedHead(value: unknown): value is ChunkedHead {
  return (
    isPlainObject(value) &&
    typeof value.id === 'string' &&
    Number.isSafeInteger(value.version) &&
    isSha256Hex(value.checksum) &&
    typeof value.gen === 'string' &&
    Number.isSafeInteger(value.chunks) &&
    (value.chunks as number) >= 1 &&
    Number.isSafeInteger(value.bytes) &&
    (value.bytes as number) >= 0
  );
}

/** Splits bytes into chunks of at most `size` bytes; always at least one chunk. */
export function splitChunks(bytes: Uint8Array, size: number): Uint8Array[] {
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += size) parts.push(bytes.slice(at, at + size));
  if (parts.length === 0) parts.push(new Uint8Array(0));
  return parts;
}

/** Joins chunks back; undefined if any is missing, not bytes, or the total length is wrong. */
export function joinChunks(parts: readonly unknown[], bytes: number): Uint8Array | undefined {
  let total = 0;
  for (const part of parts) {
    if (!(part instanceof Uint8Array)) return undefined;
    total += part.length;
  }
  if (total !== bytes) return undefined;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts as Uint8Array[]) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** The head and chunks to store for a record. */
export function chunkRecord(record: StoredRecord, size: number): { head: ChunkedHead; parts: Uint8Array[] } {
  const bytes = utf8Encode(record.context);
  const parts = splitChunks(bytes, size);
  const head: ChunkedHead = {
    id: record.id,
    version: record.version,
    checksum: record.checksum,
    gen: crypto.randomUUID(),
    chunks: parts.length,
    bytes: bytes.length,
  };
  return { head, parts };
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** Rebuilds the stored record from a head and its joined bytes; undefined if the bytes are not UTF-8. */
export function unchunkRecord(head: ChunkedHead, joined: Uint8Array): StoredRecord | undefined {
  try {
    return { id: head.id, version: head.version, checksum: head.checksum, context: decoder.decode(joined) };
  } catch {
    return undefined;
  }
}

/** The head record of an artifact stored in chunks: how many parts and how many bytes in all. */
export interface ArtifactHead {
  chunks: number;
  bytes: number;
}

/** True for a well-formed artifact head (anything else is reported as damaged). */
export function isArtifactHead(value: unknown): value is ArtifactHead {
  return isPlainObject(value) && Number.isSafeInteger(value.chunks) && (value.chunks as number) >= 1 && Number.isSafeInteger(value.bytes);
}
