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
    // The zero-width joiners stay where writing needs them: emoji sequences, Persian, Hindi
    // conjuncts; elsewhere (between Latin letters, at an end) they only hide text.
    expect(sanitizeField('👨\u200D👩\u200D👧 🏳\uFE0F\u200D🌈')).toBe('👨\u200D👩\u200D👧 🏳\uFE0F\u200D🌈');
    expect(sanitizeField('می\u200Cخواهم क्\u200Dष')).toBe('می\u200Cخواهم क्\u200Dष');
    expect(sanitizeField('pass\u200Dword a\u200Cb \u200Dx y\u200D 👍🏽\u200D ab\u200B\u200Dcd')).toBe('password ab x y 👍🏽 abcd');
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
  it('pagination cursors, token usage and tokenizers are not credentials: an agent needs them; tokens under credential names still go', () => {
    expect(
      dropSensitiveFields({
        nextPageToken: 'CAUQAA', NextToken: 'eyJuZXh0', page_token: 'p2', continuationToken: 'c3', syncToken: 's4',
        tokens: { input: 3, output: 9 }, tokenizer: 'cl100k_base', tokenization: 'bpe',
        access_token: 'a', refreshToken: 'r', idToken: 'i', csrf_token: 'c', token: 't', 'x-auth-token': 'x', apiToken: 'z',
        // Plurals of credentials are credentials.
        access_tokens: ['a1'], refresh_tokens: ['r1'], apiTokens: { gh: 'g' }, authTokens: ['t1'], github_tokens: ['g1'],
      }),
    ).toEqual({ nextPageToken: 'CAUQAA', NextToken: 'eyJuZXh0', page_token: 'p2', continuationToken: 'c3', syncToken: 's4', tokens: { input: 3, output: 9 }, tokenizer: 'cl100k_base', tokenization: 'bpe' });
  });

  it("a model's usage report is kept whole: plurals of tokens after a usage word are counts, not credentials", () => {
    const usage = {
      prompt_tokens: 12, completion_tokens: 30, total_tokens: 42,
      prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 8 },
      input_tokens_details: { cached_tokens: 2 }, output_tokens_details: { reasoning_tokens: 1 },
      inputTokensDetails: { cachedTokens: 2 }, max_tokens: '1024', cache_read_input_tokens: '0',
    };
    expect(dropSensitiveFields({ usage, github_tokens: ['g1'], session_tokens: { a: 'x' } })).toEqual({ usage });
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
    // Any value is still accepted as data, BigInts included; a cycle is not (see below).
    expect(dropSensitiveFields({ n: 1n, token: 'x' })).toEqual({ n: 1n });
    expect(redactForLog({ n: 1n })).toEqual({ n: 1n });
  });

  it('a redactor that returns no string is INVALID_PARAMS naming options.redact, by kind only', () => {
    const error = expectCtxgateError(() => redactForLog({ q: 'secret-value' }, { redact: () => 42 as never }), 'INVALID_PARAMS', 'options.redact');
    expect(error.message).toBe('options.redact: must return a string (returned a number).');
  });
});

describe('shared and cyclic data in dropSensitiveFields and redactForLog', () => {
  /** `{ name: 'x', a: c, b: c }`: copied 2^32 times before cycles were detected. */
  function doublyCyclic(): Record<string, unknown> {
    const c: Record<string, unknown> = { name: 'x' };
    c.a = c;
    c.b = c;
    return c;
  }

  it('regression: an object that contains itself twice is UNSUPPORTED_VALUE at the path where it recurs in dropSensitiveFields, and [cycle] in a log record; not a hang', () => {
    const error = expectCtxgateError(() => dropSensitiveFields(doublyCyclic()), 'UNSUPPORTED_VALUE');
    expect(error.details).toEqual({ path: '$.a', what: 'a cycle' });
    expect(error.message).toBe('Cannot copy a cycle at $.a: the value refers to itself, and only JSON data can be filtered or logged; remove the back-reference.');
    expect(redactForLog(doublyCyclic())).toEqual({ name: '[1 chars]', a: '[cycle]', b: '[cycle]' });
    expect(redactForLog(doublyCyclic(), { redact: (t) => t })).toEqual({ name: 'x', a: '[cycle]', b: '[cycle]' });
    const list: unknown[] = [1];
    list.push({ items: list });
    expect(expectCtxgateError(() => dropSensitiveFields({ list }), 'UNSUPPORTED_VALUE').details).toEqual({ path: '$.list[1].items', what: 'a cycle' });
    expect(redactForLog({ list })).toEqual({ list: [1, { items: '[cycle]' }] });
  });

  it('a cycle under a credential key is dropped or masked without being walked', () => {
    const c = doublyCyclic();
    expect(dropSensitiveFields({ ok: 1, token: c })).toEqual({ ok: 1 });
    expect(redactForLog({ ok: 1, secret: c })).toEqual({ ok: 1, secret: '[REDACTED]' });
  });

  it('a shared (acyclic) object is copied once: 20 levels of doubling cost 42 key tests and 1 redaction, not 2^21 and 2^20', () => {
    let node: Record<string, unknown> = { name: 'leaf', token: 't' };
    for (let i = 0; i < 20; i++) node = { a: node, b: node };
    let keyTests = 0;
    const pattern = { test: (key: string) => (keyTests++, key === 'token') } as unknown as RegExp;
    let redactions = 0;
    const redact = (t: string) => (redactions++, t.toUpperCase());
    const dropped = dropSensitiveFields(node, pattern) as Record<string, unknown>;
    expect(keyTests).toBe(42);
    const logged = redactForLog(node, { redact, sensitiveKeys: pattern }) as Record<string, unknown>;
    expect(redactions).toBe(1);
    expect(keyTests).toBe(84);
    // The copies share what the input shared, and hold what a copy of the expanded tree holds.
    expect(dropped.a).toBe(dropped.b);
    let bottom: unknown = logged;
    for (let i = 0; i < 20; i++) bottom = (bottom as { b: unknown }).b;
    expect(bottom).toEqual({ name: 'LEAF', token: '[REDACTED]' });
  });

  it('an object shared at two depths is cut at the depth cap only where it lies too deep', () => {
    const shared = { x: { y: 'v' } };
    let deep: unknown = shared;
    for (let i = 0; i < 31; i++) deep = { d: deep };
    const input = { near: shared, far: deep };
    const expanded = JSON.parse(JSON.stringify(input)) as unknown;
    expect(dropSensitiveFields(input)).toEqual(dropSensitiveFields(expanded));
    const far = dropSensitiveFields(input) as { near: unknown; far: unknown };
    expect(far.near).toEqual({ x: { y: 'v' } });
    let cut: unknown = far.far;
    for (let i = 0; i < 31; i++) cut = (cut as { d: unknown }).d;
    expect(cut).toEqual({ x: '[too deep]' });
  });

  it('property: a DAG maps to the same data as its expanded tree', () => {
    const keys = fc.constantFrom('a', 'b', 'token', 'name', 'apiKey', 'n');
    // Node i may refer to nodes before it only, so the graph is acyclic; sharing is frequent.
    const field = fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.constant(null), fc.nat(20).map((j) => ({ ref: j })), fc.array(fc.nat(20).map((j) => ({ ref: j })), { maxLength: 2 }));
    fc.assert(
      fc.property(fc.array(fc.array(fc.tuple(keys, field), { maxLength: 3 }), { minLength: 1, maxLength: 7 }), (specs) => {
        const nodes: Record<string, unknown>[] = [];
        const resolve = (f: unknown, i: number): unknown =>
          Array.isArray(f) ? f.map((g) => resolve(g, i)) : f !== null && typeof f === 'object' ? (i === 0 ? null : nodes[(f as { ref: number }).ref % i]) : f;
        specs.forEach((spec, i) => {
          const node: Record<string, unknown> = {};
          for (const [k, f] of spec) node[k] = resolve(f, i);
          nodes.push(node);
        });
        const dag = nodes[nodes.length - 1];
        const tree = JSON.parse(JSON.stringify(dag)) as unknown;
        expect(dropSensitiveFields(dag)).toEqual(dropSensitiveFields(tree));
        const redact = (t: string) => `<${t}>`;
        expect(redactForLog(dag, { redact })).toEqual(redactForLog(tree, { redact }));
        expect(redactForLog(dag)).toEqual(redactForLog(tree));
      }),
    );
  });
});

describe('stripHtml: one linear pass, no markup left', () => {
  const TAG = /<\/?[A-Za-z][^<>]*>|<![^<>]*>|<\?[^<>]*\?>/;
  const LINE_BREAK_TAG = /<(br|\/p|\/div|\/li|\/tr|\/h[1-6])\b[^>]*>/i;
  const BLOCK_OPENING = /<(script|style|iframe|object|embed|noscript|template|svg|math)\b/i;
  const markup = fc
    .array(
      fc.constantFrom('<', '>', '/', '!', '-', '--', '?', ' ', '\n', 'a', 'b', 'x=1', 'br', 'p', 'scr', 'ipt', 'script', 'SCRIPT', 'style', 'svg', '<!--', '-->', '<?', '?>', '</script>', '<br>', '</p >', '&lt;', 'é'),
      { maxLength: 40 },
    )
    .map((parts) => parts.join(''));

  it('keeps the behaviour the first tests pin, and joins line-ending and nested tags as before', () => {
    expect(stripHtml('a<br/>b</P>c</h2 >d<h2>e')).toBe('a\nb\nc\nde');
    expect(stripHtml('<a href="x"><b>bold</b></a> &amp; <?xml version="1.0"?><!DOCTYPE html>t')).toBe('bold &amp; t');
    expect(stripHtml('<<<<a>a>a>a>text')).toBe('text');
    expect(stripHtml('x<STYLE type="a">p{}</style >y<svg><g/></svg>z')).toBe('xyz');
    expect(stripHtml('1 < 2 > 0 and a<-b')).toBe('1 < 2 > 0 and a<-b');
    expect(stripHtml('keep <!-- gone --> this <!-- and the rest')).toBe('keep  this ');
  });

  it('a tag that only appears once another is removed is removed as a tag; one never closed is dropped to the end', () => {
    // As before (the contract suite pins it): the joined `<script>` is a tag, not an element.
    expect(stripHtml('a<scr<b>ipt>alert(1)</script>b')).toBe('aalert(1)b');
    // Comments go before tags, so this one is an element, dropped with its content.
    expect(stripHtml('a<scr<!-- -->ipt x=1>alert(1)')).toBe('a');
    // Before, these gave 'a<script x' and 'a<script x<1>y', which a browser reads as a script
    // element, and a second pass changed them: stripping was not idempotent.
    expect(stripHtml('a<scr<b>ipt x')).toBe('a');
    expect(stripHtml('a<scr<b>ipt x<1>y')).toBe('ay');
  });

  it('property: the result holds no tag, line-ending tag, block element opening or comment opening', () => {
    fc.assert(
      fc.property(markup, (text) => {
        const out = stripHtml(text);
        expect(out).not.toMatch(TAG);
        expect(out).not.toMatch(LINE_BREAK_TAG);
        expect(out).not.toMatch(BLOCK_OPENING);
        expect(out).not.toContain('<!--');
      }),
      { numRuns: 2000 },
    );
  });

  it('property: stripping is idempotent, and text without `<` is left as it is', () => {
    fc.assert(
      fc.property(markup, (text) => {
        const once = stripHtml(text);
        expect(stripHtml(once)).toBe(once);
        expect(sanitizeOutput(once)).toBe(once);
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!text.includes('<'));
        expect(stripHtml(text)).toBe(text);
      }),
    );
  });

  // Each input took time quadratic in its length before (120 KB of the first or the third: about
  // 3 s, 320 KB of the second: 1.8 s, each doubling of the length four times as long), so at 12 MB
  // the old code would run for 40 minutes to 8 hours. Linear, together they take well under a
  // second: this test can only pass when the pass is linear.
  it('regression: adversarial inputs of 12 MB are stripped in one linear pass', () => {
    const n = 4_000_000;
    expect(stripHtml('<'.repeat(n) + 'a>'.repeat(n))).toBe('');
    expect(stripHtml('<script>'.repeat(1_500_000))).toBe('');
    const opens = '<br'.repeat(n);
    expect(stripHtml(opens)).toBe(opens);
    expect(sanitizeOutput(`${'<'.repeat(n)}${'a>'.repeat(n)}kept text`, { maxLength: 5 })).toBe('kept…');
  });
});
