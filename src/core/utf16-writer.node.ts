/// <reference types="node" />
import { Buffer } from 'node:buffer';

/**
 * Node: `Buffer#write` with 'utf16le' copies a string's code units as they are, at memory speed,
 * where V8's UTF-8 encoder takes text that is not all ASCII one character at a time. See
 * `src/core/utf16-writer.ts` for the contract.
 */
export function utf16Writer(window: Uint8Array): ((s: string, at?: number) => number) | null {
  const bytes = Buffer.from(window.buffer, window.byteOffset, window.byteLength);
  return (s, at = 0) => bytes.write(s, at, 'utf16le');
}
