import { isPlainObject } from './json-safety.ts';

/**
 * JSON text with object keys sorted by UTF-16 code units at every depth, so equal data always
 * gives equal text. Numbers and strings are written as `JSON.stringify` writes them, which is what
 * RFC 8785 prescribes too; the project's RFC 8785 canonicaliser can replace this later.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) as string;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (isPlainObject(value)) {
    // A null-prototype target, so a `__proto__` key (refused elsewhere) could never reach a prototype here.
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) {
      if (value[key] !== undefined) out[key] = sortKeys(value[key]);
    }
    return out;
  }
  return value;
}

const encoder = new TextEncoder();

/** UTF-8 bytes of a string, typed for `crypto.subtle`. */
export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

/** Lowercase hex SHA-256 of bytes or of a string's UTF-8 bytes, via `crypto.subtle`. */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? utf8Encode(data) : (data as Uint8Array<ArrayBuffer>);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** True for a lowercase hex SHA-256 string. */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}
