import { describe, expect, it } from 'vitest';
import { CtxgateError, ContextViolationError, invalidParams } from '../../src/errors.ts';
import { ARIA_LIMITS } from '../../src/policy/aria-limits.ts';
import { createErrorMeta, STANDARD_TOOL_ERROR_CODES, toToolError } from '../../src/policy/tool-error.ts';
import { encodedBytes, expectCtxgateError, fixedClock } from './helpers.ts';

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

describe('errors fit the tool byte limit (spec 000 §2: per-tool limits are enforced)', () => {
  it("600 control characters fit sde.search's 2,048 bytes (they took 3,112), the envelope kept whole", () => {
    const control = '\u0001'.repeat(600);
    // 500 characters kept, each written \u0001 (6 bytes): over sde.search's limit without it.
    expect(encodedBytes(createErrorMeta('INVALID_PARAMS', control, { clock: fixedClock }))).toBe(3112);
    const e = createErrorMeta('INVALID_PARAMS', control, { clock: fixedClock, limits: ARIA_LIMITS.tools['sde.search'] });
    expect(encodedBytes(e)).toBeLessThanOrEqual(2048);
    // The longest cut that fits: the 115-byte envelope, 321 control characters (6 bytes each) and the ellipsis (3 bytes).
    expect(e.message).toBe(`${'\u0001'.repeat(321)}…`);
    expect(encodedBytes(e)).toBe(2044);
    expect({ ...e, message: '' }).toEqual({ error: true, errorCode: 'INVALID_PARAMS', message: '', _meta: { count: 0, timestamp: '2026-01-22T12:00:00.000Z' } });
  });

  it('at the smallest limit (256 bytes) the message gives way, with its ellipsis; maxBytes wins over limits', () => {
    const e = createErrorMeta('NOT_FOUND', '😀'.repeat(400), { clock: fixedClock, maxBytes: 256, limits: ARIA_LIMITS.tools['sde.search'] });
    expect(encodedBytes(e)).toBeLessThanOrEqual(256);
    // 110 bytes of envelope, 35 emoji of 4 bytes, the ellipsis: 253 bytes (one more emoji would be 257).
    expect(e.message).toBe(`${'😀'.repeat(35)}…`);
    expect(encodedBytes(e)).toBe(253);
    expect(encodedBytes(toToolError(new CtxgateError('NOT_FOUND', 'x'.repeat(2000)), { maxBytes: 256 }))).toBeLessThanOrEqual(256);
  });

  it('a byte limit below 256, where not even the envelope fits, is INVALID_PARAMS', () => {
    expectCtxgateError(() => createErrorMeta('NOT_FOUND', 'm', { maxBytes: 255 }), 'INVALID_PARAMS', 'options.maxBytes');
    expectCtxgateError(() => createErrorMeta('NOT_FOUND', 'm', { limits: 5 as never }), 'INVALID_PARAMS', 'options.limits');
  });
});
