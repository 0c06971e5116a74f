import { describe, expect, it } from 'vitest';
import { CtxgateError, ContextViolationError, invalidParams } from '../../src/errors.ts';
import { createErrorMeta, STANDARD_TOOL_ERROR_CODES, toToolError } from '../../src/policy/tool-error.ts';
import { expectCtxgateError, fixedClock } from './helpers.ts';

describe('spec 000 §7 error response format', () => {
  it('matches the spec example', () => {
    expect(createErrorMeta('NOT_FOUND', "System 'Xyzzy' not found in universe", { clock: fixedClock })).toEqual({
      error: true,
      errorCode: 'NOT_FOUND',
      message: "System 'Xyzzy' not found in universe",
      _meta: { count: 0, timestamp: '2026-01-22T12:00:00.000Z' },
    });
  });

  it('standard codes: NOT_FOUND, INVALID_PARAMS, RATE_LIMITED, AUTH_REQUIRED, CAPABILITY_DENIED', () => {
    expect(Object.keys(STANDARD_TOOL_ERROR_CODES)).toEqual(['NOT_FOUND', 'INVALID_PARAMS', 'RATE_LIMITED', 'AUTH_REQUIRED', 'CAPABILITY_DENIED']);
  });

  it('error messages are truncated at 500 characters', () => {
    const e = createErrorMeta('INVALID_PARAMS', 'x'.repeat(900));
    expect([...e.message]).toHaveLength(500);
    expect(e.message.endsWith('…')).toBe(true);
    expect(createErrorMeta('INVALID_PARAMS', 'y'.repeat(500)).message).toBe('y'.repeat(500));
    // Code points, never half a surrogate pair.
    const emoji = createErrorMeta('INVALID_PARAMS', '😀'.repeat(600)).message;
    expect([...emoji]).toHaveLength(500);
    expect(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(emoji)).toBe(false);
  });

  it('a malformed code becomes INTERNAL_ERROR', () => {
    expect(createErrorMeta('not a code', 'm').errorCode).toBe('INTERNAL_ERROR');
    expect(createErrorMeta('TOOL_SPECIFIC_1', 'm').errorCode).toBe('TOOL_SPECIFIC_1');
  });
});

describe('toToolError', () => {
  it('keeps ctxgate codes and maps policy refusals to CAPABILITY_DENIED', () => {
    expect(toToolError(invalidParams('limit', 'too big')).errorCode).toBe('INVALID_PARAMS');
    expect(toToolError(invalidParams('limit', 'too big')).message).toBe('limit: too big');
    expect(toToolError(new CtxgateError('AUTH_REQUIRED', 'log in')).errorCode).toBe('AUTH_REQUIRED');
    expect(toToolError(new CtxgateError('RATE_LIMITED', 'slow down')).errorCode).toBe('RATE_LIMITED');
    expect(toToolError(new ContextViolationError('no write to plan')).errorCode).toBe('CAPABILITY_DENIED');
    expect(toToolError(new CtxgateError('CONFLICT', 'reload')).errorCode).toBe('CONFLICT');
  });

  it('unexpected errors become INTERNAL_ERROR and do not leak their message without a redactor', () => {
    const e = toToolError(new TypeError('token=ghp_secretvalue in /home/me'), { clock: fixedClock });
    expect(e.errorCode).toBe('INTERNAL_ERROR');
    expect(e.message).not.toContain('ghp_secretvalue');
    expect(e.message).toContain('TypeError');
    const r = toToolError(new TypeError('token=ghp_secretvalue'), { redact: (t) => t.replace(/ghp_\w+/, '[REDACTED]') });
    expect(r.message).toBe('The tool failed unexpectedly (TypeError): token=[REDACTED]');
  });
});

describe('arguments of the wrong kind', () => {
  it('any code and message are accepted: a code that is not an UPPER_SNAKE_CASE string becomes INTERNAL_ERROR', () => {
    expect(createErrorMeta(Symbol('s') as never, 'm', { clock: fixedClock }).errorCode).toBe('INTERNAL_ERROR');
    expect(createErrorMeta(['NOT_FOUND'] as never, 'm', { clock: fixedClock }).errorCode).toBe('INTERNAL_ERROR');
    expect(createErrorMeta('NOT_FOUND', Object.create(null) as never, { clock: fixedClock }).message).toContain('could not be converted');
    expect(toToolError(Symbol('thrown'), { clock: fixedClock }).errorCode).toBe('INTERNAL_ERROR');
  });

  it('options of the wrong kind are INVALID_PARAMS naming them', () => {
    expectCtxgateError(() => createErrorMeta('NOT_FOUND', 'm', null as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => createErrorMeta('NOT_FOUND', 'm', { maxMessageChars: '9' as never }), 'INVALID_PARAMS', 'options.maxMessageChars');
    expectCtxgateError(() => toToolError(new Error('x'), { redact: 'yes' as never }), 'INVALID_PARAMS', 'options.redact');
  });
});
