/**
 * Diagnosing a value that `JSON.stringify` refused. Measuring a context counts the bytes of its
 * JSON text, so a value JSON cannot write (a BigInt, a cycle) has no size: JSON.stringify says so
 * with a TypeError from deep inside the count. The measuring functions do not look for such values
 * up front (that would walk every context twice); they catch the failure and only then walk the
 * value to say what and where it is, as UNSUPPORTED_VALUE (worded like the canonicaliser's).
 */
import { CtxgateError, isCtxgateError } from '../errors.ts';
import { findJsonFault } from '../json-fault.ts';

/**
 * What to throw for `error`, raised while measuring the JSON of the arguments `values` (by
 * parameter name, looked through in order). A TypeError that is not already a ctxgate error is
 * JSON.stringify refusing a value: UNSUPPORTED_VALUE naming the parameter (`details.field`) and,
 * where found, the BigInt or cycle and its path. Any other error is returned unchanged.
 */
export function measureFailure(error: unknown, values: Readonly<Record<string, unknown>>): unknown {
  if (isCtxgateError(error) || !(error instanceof TypeError)) return error;
  const fields = Object.keys(values);
  for (const field of fields) {
    const fault = findJsonFault(values[field], field);
    if (fault !== undefined) {
      return new CtxgateError('UNSUPPORTED_VALUE', `Cannot measure ${fault.what} at ${fault.path}: ${fault.hint}.`, {
        details: { field, path: fault.path, what: fault.what },
        cause: error,
      });
    }
  }
  const field = fields[0] ?? 'value';
  return new CtxgateError('UNSUPPORTED_VALUE', `Cannot measure ${field}: it holds a value JSON cannot represent (a BigInt or a cycle).`, {
    details: { field },
    cause: error,
  });
}
