import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { initCore } from '../../src/core/core.ts';
import { isCtxgateError } from '../../src/errors.ts';
import { estimator } from '../../src/tokens/estimator.ts';
import { utf8ByteLength } from '../../src/policy/bytes.ts';
import { splitLines, truncateText } from '../../src/policy/truncate-text.ts';
import { wrapTextOutput } from '../../src/policy/wrap-text.ts';
import { encodedBytes, expectCtxgateError, fixedClock, quarterCounter } from './helpers.ts';

const log = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';

describe('text outputs: truncation by lines keeps head and tail', () => {
  it('100 lines cut to 10: 5 head, marker, 4 tail, exact omitted count', () => {
    const r = truncateText(log(100), { maxLines: 10 });
    expect(r.text).toBe(
      ['line 1', 'line 2', 'line 3', 'line 4', 'line 5', '… [91 lines omitted] …', 'line 97', 'line 98', 'line 99', 'line 100', ''].join('\n'),
    );
    expect(r.meta).toEqual({ truncated: true, mode: 'lines', totalLines: 100, keptLines: 9, omittedLines: 91, omittedChars: r.meta.omittedChars });
    expect(r.meta.omittedChars).toBe(log(100).length - r.text.length + '… [91 lines omitted] …\n'.length);
    expect(splitLines(r.text)).toHaveLength(10);
  });

  it('text within limits is returned unchanged, without truncated', () => {
    const r = truncateText(log(5), { maxLines: 5, maxBytes: 1000 });
    expect(r).toEqual({ text: log(5), meta: { totalLines: 5, keptLines: 5, omittedLines: 0, omittedChars: 0 } });
  });

  it('headRatio 0 keeps only the tail (where errors are)', () => {
    const r = truncateText(log(50), { maxLines: 4, headRatio: 0 });
    expect(r.text).toBe('… [47 lines omitted] …\nline 48\nline 49\nline 50\n');
  });
});

describe('text outputs: truncation by tokens (TokenCounter)', () => {
  it('fits the token limit, marker included, and reports omitted tokens of the cut text', () => {
    const text = log(200);
    const r = truncateText(text, { maxTokens: 60, counter: quarterCounter });
    expect(quarterCounter(r.text).tokens).toBeLessThanOrEqual(60);
    expect(r.meta.truncated).toBe(true);
    expect(r.meta.tokenEncoder).toBe('test/quarter');
    expect(r.text.startsWith('line 1\n')).toBe(true);
    expect(r.text.endsWith('line 200\n')).toBe(true);
    const marker = /… \[(\d+) lines omitted\] …\n/.exec(r.text)!;
    const head = r.text.slice(0, marker.index);
    const tail = r.text.slice(marker.index + marker[0].length);
    const middle = text.slice(head.length, text.length - tail.length);
    expect(r.meta.omittedLines).toBe(Number(marker[1]));
    expect(splitLines(middle)).toHaveLength(r.meta.omittedLines);
    expect(r.meta.omittedTokens).toBe(quarterCounter(middle).tokens);
  });

  it('maxTokens without a counter counts with the built-in estimator; a non-function counter is INVALID_PARAMS', async () => {
    await initCore();
    const text = Array.from({ length: 200 }, (_, i) => `line ${i}: the quick brown fox`).join('\n');
    const r = truncateText(text, { maxTokens: 50 });
    const count = estimator();
    expect(count(r.text).tokens).toBeLessThanOrEqual(50);
    expect(r.meta.tokenEncoder).toBe('ctxgate-est/1:o200k_base');
    expect(truncateText('short', { maxLines: 1 }).meta.omittedTokens).toBeUndefined();
    try {
      truncateText('x', { maxTokens: 1, counter: 1 as never });
      expect.unreachable();
    } catch (e) {
      expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
      expect((e as Error).message).toMatch(/^counter:/);
    }
  });
});

describe('text outputs: a single huge line is cut inside, by characters', () => {
  it('keeps head and tail characters with an exact omitted count', () => {
    const line = 'a'.repeat(5000) + 'b'.repeat(5000);
    const r = truncateText(line, { maxBytes: 200 });
    expect(utf8ByteLength(r.text)).toBeLessThanOrEqual(200);
    expect(r.meta.mode).toBe('chars');
    const m = /^(a*)…\[(\d+) chars omitted\]…(b*)$/.exec(r.text)!;
    expect(Number(m[2])).toBe(10000 - m[1]!.length - m[3]!.length);
    expect(r.meta.omittedChars).toBe(Number(m[2]));
    expect(r.meta).toMatchObject({ totalLines: 1, keptLines: 0, omittedLines: 1 });
  });
});

describe('property: text truncation invariants', () => {
  const lineArb = fc.string({ maxLength: 30, unit: 'binary' }).map((s) => s.replace(/\n/g, ''));
  it('limits hold; keptLines + omittedLines == totalLines; head is a prefix, tail a suffix', () => {
    fc.assert(
      fc.property(
        fc.array(lineArb, { maxLength: 60 }),
        fc.boolean(),
        fc.option(fc.integer({ min: 1, max: 20 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 400 }), { nil: undefined }),
        fc.option(fc.integer({ min: 0, max: 80 }), { nil: undefined }),
        (lines, finalNewline, maxLines, maxBytes, maxTokens) => {
          const text = lines.join('\n') + (finalNewline && lines.length > 0 ? '\n' : '');
          const opts = { counter: quarterCounter, ...(maxLines !== undefined ? { maxLines } : {}), ...(maxBytes !== undefined ? { maxBytes } : {}), ...(maxTokens !== undefined ? { maxTokens } : {}) };
          const r = truncateText(text, opts);
          if (maxBytes !== undefined && r.text !== '') expect(utf8ByteLength(r.text)).toBeLessThanOrEqual(maxBytes);
          if (maxTokens !== undefined && r.text !== '') expect(quarterCounter(r.text).tokens).toBeLessThanOrEqual(maxTokens);
          if (maxLines !== undefined) expect(splitLines(r.text).length).toBeLessThanOrEqual(maxLines);
          expect(r.meta.keptLines + r.meta.omittedLines).toBe(r.meta.totalLines);
          expect(r.meta.totalLines).toBe(splitLines(text).length);
          expect('truncated' in r.meta).toBe(r.text !== text);
          if (r.meta.truncated) {
            const at = r.text.search(/… \[\d+ lines omitted\] …|…\[\d+ chars omitted\]…/);
            const markerMatch = /… \[\d+ lines omitted\] …\n?|…\[\d+ chars omitted\]…/.exec(r.text);
            if (markerMatch) {
              const head = r.text.slice(0, at);
              const tail = r.text.slice(at + markerMatch[0].length);
              expect(text.startsWith(head)).toBe(true);
              expect(text.endsWith(tail)).toBe(true);
              expect(r.meta.omittedChars).toBe([...text].length - [...head].length - [...tail].length);
            }
          } else expect(r.text).toBe(text);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe('wrapTextOutput', () => {
  it('a 5 MB command output fits 10 KB of JSON with head, tail and exact counts', () => {
    const text = Array.from({ length: 100_000 }, (_, i) => `${String(i).padStart(6, '0')} ${'"quoted" \\ and \t tabs ü '.repeat(2)}`).join('\n');
    const out = wrapTextOutput(text, { clock: fixedClock });
    expect(encodedBytes(out)).toBeLessThanOrEqual(10 * 1024);
    expect(encodedBytes(out)).toBeGreaterThan(9 * 1024);
    const meta = out._meta;
    expect(meta).toMatchObject({ truncated: true, truncatedFrom: 100_000, timestamp: '2026-01-22T12:00:00.000Z', totalLines: 100_000 });
    expect(meta.count! + meta.omittedLines!).toBe(100_000);
    expect((out.output as string).startsWith('000000 ')).toBe(true);
    expect((out.output as string).includes('099999 ')).toBe(true);
  });

  it('small text is kept whole; count is the number of lines', () => {
    expect(wrapTextOutput('ok\ndone\n', { clock: fixedClock })).toEqual({ output: 'ok\ndone\n', _meta: { count: 2, timestamp: '2026-01-22T12:00:00.000Z' } });
  });

  it('property: the JSON never exceeds maxBytes', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000, unit: 'binary' }), fc.integer({ min: 256, max: 2000 }), (text, maxBytes) => {
        const out = wrapTextOutput(text, { maxBytes, clock: fixedClock });
        expect(encodedBytes(out)).toBeLessThanOrEqual(maxBytes);
      }),
      { numRuns: 200 },
    );
  });
});

describe('arguments of the wrong kind', () => {
  it('names text, options and a limit of the wrong kind', () => {
    expectCtxgateError(() => splitLines(42 as never), 'INVALID_PARAMS', 'text');
    expectCtxgateError(() => truncateText(['a'] as never, { maxLines: 1 }), 'INVALID_PARAMS', 'text');
    expectCtxgateError(() => truncateText('a\nb', undefined as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => truncateText('a\nb', { maxLines: Symbol('n') as never }), 'INVALID_PARAMS', 'maxLines');
    expectCtxgateError(() => truncateText('abc', { maxBytes: 1, headRatio: '0.5' as never }), 'INVALID_PARAMS', 'headRatio');
    expectCtxgateError(() => wrapTextOutput('abc', null as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => wrapTextOutput('abc', { key: 7 as never }), 'INVALID_PARAMS', 'options.key');
  });
});
