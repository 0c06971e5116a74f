import { describe, expect, it } from 'vitest';
import { CtxgateError, ConflictError, deserializeError, isCtxgateError, serializeError } from '../../src/errors.ts';
import { unreadableErrors } from '../fixtures/thrown.ts';

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

  it('a cause whose getters throw is described, not thrown: the error still serialises', () => {
    for (const cause of unreadableErrors()) {
      expect(isCtxgateError(cause)).toBe(false);
      const e = new CtxgateError('MIGRATION_FAILED', 'migration 0.9.0 -> 1.0.0 threw', { details: { from: '0.9.0' }, cause });
      const out = serializeError(e);
      expect(out).toMatchObject({ name: 'CtxgateError', code: 'MIGRATION_FAILED', message: 'migration 0.9.0 -> 1.0.0 threw', details: { from: '0.9.0' } });
      expect(out.cause).toEqual({ name: 'Error', message: 'the cause could not be read (reading it threw)' });
      expect(JSON.parse(JSON.stringify(out)).cause.message).toBe('the cause could not be read (reading it threw)');
    }
  });
});
