import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCtxgateError } from '../../src/errors.ts';
import { dropSensitiveFields, escapeMarkdown, limitLength, redactForLog, sanitizeField, sanitizeOutput, stripHtml } from '../../src/policy/sanitize.ts';
import { expectCtxgateError } from './helpers.ts';

describe('spec 000 §6 input sanitisation: sanitizeField', () => {
  it('removes control, bidi and zero-width characters, normalises and trims', () => {
    expect(sanitizeField('  Cafe\u0301 \u202Eevil\u202C\u200B\u0007 \r\nnext  ')).toBe('Café evil \nnext');
  });
  it('cuts to maxLength, or rejects', () => {
    expect(sanitizeField('abcdef', { maxLength: 4 })).toBe('abc…');
    try {
      sanitizeField('abcdef', { maxLength: 4, onTooLong: 'reject', field: 'project.name' });
      expect.unreachable();
    } catch (e) {
      expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
      expect((e as Error).message).toBe('project.name: is longer than 4 characters; shorten it');
    }
  });
  it('single-line mode and non-strings', () => {
    expect(sanitizeField('a\n\tb', { multiline: false })).toBe('a b');
    expect(() => sanitizeField(42)).toThrow(/value: must be a string; got number/);
  });
});

describe('spec 000 §6 output sanitisation', () => {
  it('strips HTML tags, scripts and styles, keeps entities literal', () => {
    expect(stripHtml('<p>Hello <b>pilot</b></p><script>alert(1)</script><style>p{}</style>&lt;x&gt;<!-- c -->end')).toBe('Hello pilot\n&lt;x&gt;end');
    expect(stripHtml('<scr<b>ipt>alert(1)</script>')).not.toMatch(/<script/i);
    expect(stripHtml('a<script>never closed')).toBe('a');
  });
  it('property: stripped text contains no tag', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom('<', '>', 'a', 'b', '/', 'script', ' ', '!', '-', 'x=1'), { maxLength: 40 }), (parts) => {
        expect(stripHtml(parts.join(''))).not.toMatch(/<\/?[A-Za-z][^<>]*>/);
      }),
    );
  });
  it('limits lengths by characters', () => {
    expect(limitLength('😀😀😀😀', 3)).toBe('😀😀…');
    expect(limitLength('abc', 3)).toBe('abc');
  });
  it('escapes Markdown markers, block markers only at line start', () => {
    expect(escapeMarkdown('# Title\n*bold* _it_ [x](y) `c` a|b 3.5 - 4\n- item\n1. one')).toBe(
      '\\# Title\n\\*bold\\* \\_it\\_ \\[x\\](y) \\`c\\` a\\|b 3.5 - 4\n\\- item\n1\\. one',
    );
  });
  it('sanitizeOutput combines the steps', () => {
    expect(sanitizeOutput('<i>*x*</i> long text', { escapeMarkdown: true, maxLength: 8 })).toBe('\\*x\\* l…');
  });
  it('OAuth tokens never in tool output: credential fields are dropped, token counts kept', () => {
    expect(
      dropSensitiveFields({ name: 'Pilot', accessToken: 'eyJ…', refresh_token: 'r', usedTokens: 5, nested: [{ apiKey: 'k', ok: 1 }] }),
    ).toEqual({ name: 'Pilot', usedTokens: 5, nested: [{ ok: 1 }] });
  });
});

describe('spec 000 §6 logging sanitisation', () => {
  const redact = (t: string) => t.replace(/ghp_[A-Za-z0-9]+/g, '[REDACTED:github-token]');
  it('redacts through the injected redactor and masks credential keys (corporation keys)', () => {
    expect(redactForLog({ query: 'use ghp_abc123 please', corpKey: 'xyz', limit: 5, maxTokens: 100 }, { redact })).toEqual({
      query: 'use [REDACTED:github-token] please',
      corpKey: '[REDACTED]',
      limit: 5,
      maxTokens: 100,
    });
  });
  it('without a redactor, strings are replaced by their length', () => {
    expect(redactForLog({ q: 'secret?' })).toEqual({ q: '[7 chars]' });
  });
  it('a __proto__ key stays data', () => {
    const out = redactForLog(JSON.parse('{"__proto__":{"polluted":true}}'), { redact }) as Record<string, unknown>;
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('arguments of the wrong kind', () => {
  it('text functions name text; options and their fields by name', () => {
    for (const fn of [stripHtml, escapeMarkdown, (t: string) => limitLength(t, 3), (t: string) => sanitizeOutput(t)]) {
      expectCtxgateError(() => fn(42 as never), 'INVALID_PARAMS', 'text');
      expectCtxgateError(() => fn({} as never), 'INVALID_PARAMS', 'text');
    }
    expectCtxgateError(() => limitLength('abc', Symbol('n') as never), 'INVALID_PARAMS', 'maxChars');
    expectCtxgateError(() => sanitizeOutput('abc', null as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => sanitizeOutput('abc', { maxLength: -1 }), 'INVALID_PARAMS', 'options.maxLength');
    expectCtxgateError(() => sanitizeField('abc', { field: 5 as never }), 'INVALID_PARAMS', 'options.field');
  });

  it('dropSensitiveFields and redactForLog: a pattern must be a RegExp, options an object', () => {
    expectCtxgateError(() => dropSensitiveFields({ token: 'x' }, 'token' as never), 'INVALID_PARAMS', 'pattern');
    expectCtxgateError(() => dropSensitiveFields({ token: 'x' }, null as never), 'INVALID_PARAMS', 'pattern');
    expectCtxgateError(() => redactForLog({ a: 'x' }, null as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => redactForLog({ a: 'x' }, { sensitiveKeys: 'token' as never }), 'INVALID_PARAMS', 'options.sensitiveKeys');
    expectCtxgateError(() => redactForLog({ a: 'x' }, { redact: 'yes' as never }), 'INVALID_PARAMS', 'options.redact');
    // Any value is still accepted as data, cycles and BigInts included.
    const cyclic: Record<string, unknown> = { n: 1n };
    cyclic.self = cyclic;
    expect(() => dropSensitiveFields(cyclic)).not.toThrow();
    expect(() => redactForLog(cyclic)).not.toThrow();
  });
});
