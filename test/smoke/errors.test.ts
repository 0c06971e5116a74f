import { describe, expect, it } from 'vitest';
import { CtxgateError, ConflictError, deserializeError, isCtxgateError, serializeError } from '../../src/errors.ts';

describe('errors', () => {
  it('round-trips a subclass with code, details and cause', () => {
    const e = new ConflictError('version 3 expected, found 4', { details: { expected: 3, found: 4 }, cause: new TypeError('x') });
    const back = deserializeError(structuredClone(serializeError(e)));
    expect(back).toBeInstanceOf(ConflictError);
    expect(back).toBeInstanceOf(CtxgateError);
    expect(back.name).toBe('ConflictError');
    expect((back as CtxgateError).code).toBe('CONFLICT');
    expect((back as CtxgateError).details).toEqual({ expected: 3, found: 4 });
    expect((back.cause as Error).name).toBe('TypeError');
    expect(isCtxgateError(back, 'CONFLICT')).toBe(true);
    expect(isCtxgateError(back, 'INVALID_PARAMS')).toBe(false);
    expect(isCtxgateError(new Error('plain'))).toBe(false);
  });
});
