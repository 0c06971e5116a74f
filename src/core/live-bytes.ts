import { invalidParams } from '../errors.ts';

/**
 * True when `bytes` is a view of an ArrayBuffer that was transferred (postMessage,
 * structuredClone with `transfer`) or otherwise detached. Such a view reads as empty, so the
 * functions that take bytes would silently treat it as `''`, or fail with a TypeError when they
 * copy it. Only an empty view can be detached, so live data costs one comparison.
 */
export function isDetached(bytes: Uint8Array): boolean {
  if (bytes.byteLength !== 0) return false;
  const buffer = bytes.buffer as ArrayBuffer & { detached?: unknown };
  // `detached` is ES2024; Node 20 and older engines lack it, and there a new view on a detached
  // buffer is the one check that throws.
  if (typeof buffer.detached === 'boolean') return buffer.detached;
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}

/**
 * INVALID_PARAMS (`field`) when `value` is a detached Uint8Array. A check of the argument's kind
 * (args.ts's `expectBytes`, `expectText`) comes first; this one only looks at Uint8Arrays.
 */
export function expectLive(value: unknown, field: string): void {
  if (value instanceof Uint8Array && isDetached(value)) throw detachedBytes(field);
}

/** The INVALID_PARAMS error for a detached Uint8Array in `field`. */
export function detachedBytes(field: string): Error {
  return invalidParams(field, 'is detached (its ArrayBuffer was transferred); pass a live copy.', { expected: 'a live Uint8Array', got: 'a detached Uint8Array' });
}
