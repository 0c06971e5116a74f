const encoder = new TextEncoder();

/** UTF-8 bytes of a string, typed for `crypto.subtle`. */
export function utf8Encode(text: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(text) as Uint8Array<ArrayBuffer>;
}

/**
 * Lowercase hex SHA-256 of bytes or of a string's UTF-8 bytes, via `crypto.subtle`. Bytes in
 * shared memory (a view on a SharedArrayBuffer), which `digest` refuses, are hashed from a copy.
 */
export async function sha256Hex(data: Uint8Array | string): Promise<string> {
  const bytes = typeof data === 'string' ? utf8Encode(data) : isShared(data) ? (data.slice() as Uint8Array<ArrayBuffer>) : (data as Uint8Array<ArrayBuffer>);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let hex = '';
  for (const b of digest) hex += b.toString(16).padStart(2, '0');
  return hex;
}

/** True for a lowercase hex SHA-256 string. */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}

/** True if `bytes` is a view on shared memory; by the buffer's tag, so one from another realm counts too. */
function isShared(bytes: Uint8Array): boolean {
  return Object.prototype.toString.call(bytes.buffer) === '[object SharedArrayBuffer]';
}
