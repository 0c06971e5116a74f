import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { estimateBlockTokens, estimateTokens } from '../../src/core/tokens.ts';

beforeAll(async () => {
  await initCore();
});

describe('estimateBlockTokens', () => {
  it('counts exactly what estimateTokens counts for `${title}\\n${content}`, for any strings', () => {
    // Full Unicode, lone surrogates included (a title ending in a high surrogate, a content starting
    // with a low one: the newline between them keeps them apart in both forms).
    const piece = fc.oneof(fc.constant('\ud83d'), fc.constant('\ude00'), fc.constant('\n'), fc.string({ unit: 'grapheme', maxLength: 8 }), fc.string({ unit: 'binary', maxLength: 8 }));
    const text = fc.array(piece, { maxLength: 60 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(text, text, fc.constantFrom('o200k_base' as const, 'cl100k_base' as const), (title, content, encoding) => {
        const whole = estimateTokens(`${title}\n${content}`, { encoding });
        expect(estimateBlockTokens(title, content, { encoding })).toEqual(whole);
        // The content given as its UTF-8 bytes (lone surrogates encode as U+FFFD either way).
        expect(estimateBlockTokens(title, content, { encoding }, new TextEncoder().encode(content))).toEqual(whole);
      }),
      { numRuns: 2000 },
    );
  });

  it('counts a block of code as the whole text (known answer)', () => {
    const content = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n';
    const whole = estimateTokens(`src/add.ts\n${content}`);
    expect(whole.tokens).toBeGreaterThan(15);
    expect(estimateBlockTokens('src/add.ts', content)).toEqual(whole);
    expect(estimateBlockTokens('', '')).toEqual(estimateTokens('\n'));
  });

  it('rejects what is not text, naming the field', () => {
    expect(() => estimateBlockTokens(1 as unknown as string, 'x')).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
  });
});
