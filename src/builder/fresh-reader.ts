/**
 * Readers that return a new buffer on every call (ctxgate's own `projectFileReader`). Only their
 * results may be transferred to the engine's worker rather than copied: a reader the caller wrote
 * may return buffers it keeps (a cache), which a transfer would detach.
 */
const fresh = new WeakSet<object>();

/** Marks `reader` as returning buffers no one else holds; returns it. */
export function markFreshReader<T extends object>(reader: T): T {
  fresh.add(reader);
  return reader;
}

/** Whether `reader` was marked by {@link markFreshReader}. */
export function isFreshReader(reader: unknown): boolean {
  return typeof reader === 'function' && fresh.has(reader);
}
