import { CtxgateError, isCtxgateError } from './errors.ts';

/**
 * Turns a DOMException from IndexedDB into a typed error (ctxgate errors pass through):
 * QuotaExceededError → QUOTA_EXCEEDED with `freeSpace` as the advice; VersionError (a newer
 * schema installed by another tab) → STORAGE_FAILURE asking to reload; anything else
 * STORAGE_FAILURE naming the DOMException. `operation` names what failed (`save`, `write`).
 */
export function mapIdbError(error: unknown, operation: string, freeSpace: string): unknown {
  if (isCtxgateError(error)) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'QuotaExceededError') {
    return new CtxgateError('QUOTA_EXCEEDED', `${operation} failed: browser storage quota exceeded; nothing was written. ${freeSpace}`, {
      details: { operation },
      cause: error,
    });
  }
  if (name === 'VersionError') {
    return new CtxgateError('STORAGE_FAILURE', `${operation} failed: the database was upgraded by a newer ctxgate in another tab; reload this page`, {
      details: { operation, reason: 'version' },
      cause: error,
    });
  }
  return new CtxgateError('STORAGE_FAILURE', `${operation} failed in IndexedDB (${typeof name === 'string' ? name : 'unknown error'}); retry, and check the browser's storage settings if it persists`, {
    details: { operation },
    cause: error,
  });
}
