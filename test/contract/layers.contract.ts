// Conversation layers (spec 002) in every runtime: the golden views render byte for byte, with the
// same token counts and the same cuts, and the runtime-sensitive rules (string order, Unicode
// handling, JSON round trip, the real estimator) agree everywhere.
import { initCore } from '../../src/core/core.ts';
import { isCtxgateError } from '../../src/errors.ts';
import { canonicalJson } from '../../src/layers/compose.ts';
import { registerEntity } from '../../src/layers/entities.ts';
import { layeredContextFromJSON, layeredContextToJSON } from '../../src/layers/schema.ts';
import { fallbackConversationSummary } from '../../src/layers/summarizer.ts';
import { clipChars, truncateToFit } from '../../src/layers/truncate.ts';
import { beginTurn, createLayeredContext, endTurn } from '../../src/layers/turns.ts';
import { buildThinkContext, formatEntityContext } from '../../src/layers/views.ts';
import { estimator } from '../../src/tokens/estimator.ts';
import { charCounter } from '../layers/fixtures.ts';
import { GOLDEN_CASES, SCENARIOS } from '../layers/golden-cases.ts';
import golden from '../layers/golden.json' with { type: 'json' };
import type { Harness } from './harness.ts';

const utf8 = (text: string) => Array.from(new TextEncoder().encode(text));

/** The layered context views, the same in every runtime. */
export function layersContract({ describe, it, expect, runtime }: Harness): void {
  describe(`layers (${runtime})`, () => {
    const expected = golden.cases as Record<string, { text: string; tokens: unknown; budget: unknown }>;

    it('the golden file covers every case', () => {
      expect(Object.keys(expected).sort()).toEqual(Object.keys(GOLDEN_CASES).sort());
    });

    for (const [name, c] of Object.entries(GOLDEN_CASES)) {
      it(`${name}: the golden view, byte for byte, with its token count and cuts`, async () => {
        await initCore();
        const view = c.build(await SCENARIOS[c.scenario]());
        const want = expected[name]!;
        expect(view.text).toBe(want.text);
        expect(utf8(view.text)).toEqual(utf8(want.text));
        expect(view.tokens).toEqual(want.tokens);
        expect(view.budget).toEqual(want.budget);
        expect(JSON.parse(JSON.stringify(view))).toEqual(want);
      });

      it(`${name}: the same view after a JSON round trip of the state`, async () => {
        await initCore();
        const state = await SCENARIOS[c.scenario]();
        const restored = layeredContextFromJSON(JSON.parse(JSON.stringify(layeredContextToJSON(state))));
        expect(restored).toEqual(state);
        expect(c.build(restored).text).toBe(expected[name]!.text);
      });
    }

    it('the estimator counts the rendered view exactly as estimator() counts its text', async () => {
      await initCore();
      const view = GOLDEN_CASES['think-est-budget-250']!.build(await SCENARIOS.recipes());
      expect(view.tokens).toEqual(estimator()(view.text));
      expect(view.tokens.encoder).toBe('ctxgate-est/1:o200k_base');
      expect(view.tokens.tokens).toBeLessThanOrEqual(250);
      // Without a counter, views count with that same estimator.
      const byDefault = buildThinkContext(await SCENARIOS.recipes(), { budget: 0 });
      expect(byDefault.text).toBe(expected['think-est']!.text);
      expect(byDefault.tokens).toEqual(expected['think-est']!.tokens);
    });

    it('orders keys and refs by UTF-16 code units, never by locale', () => {
      expect(canonicalJson({ é: 1, z: 2, Z: 3, a: 4, '10': 5, '9': 6, 'a\u0301': 7 })).toBe('{"10":5,"9":6,"Z":3,"a":4,"a\u0301":7,"z":2,"é":1}');
      let s = beginTurn(createLayeredContext(), { user: 'x', timestamp: '2026-01-01T00:00:00Z' });
      for (const ref of ['éclair', 'b', 'B', 'a10', 'a9', 'Zed', '😀', 'ｚ']) {
        s = registerEntity(s, { ref, type: 't', label: `L-${ref}`, status: 'read' });
      }
      expect(formatEntityContext(s, { layer: 'entity', active: 'refs', generated: 'none', retained: 'none', doNotReRead: true })).toBe(
        '## Entity Context\n### Active\n- B\n- Zed\n- a10\n- a9\n- b\n- éclair\n- 😀\n- ｚ\nDO NOT re-read: B, Zed, a10, a9, b, éclair, 😀, ｚ',
      );
    });

    it('cuts never split a surrogate pair and follow sentence > word > character', () => {
      expect(clipChars('😀😀😀😀', 5)).toBe('😀...');
      expect(clipChars('😀😀😀😀', 4)).toBe('');
      expect(clipChars('日本語のテキストです。次の文。', 12)).toBe('日本語のテキストで...');
      expect(truncateToFit('One. Two three four.', (t) => t.length <= 12)).toEqual({ text: 'One...', boundary: 'sentence' });
      expect(truncateToFit('naïve café au lait', (t) => t.length <= 14)).toEqual({ text: 'naïve café...', boundary: 'word' });
      expect(truncateToFit('👩‍👩‍👧‍👦👩‍👩‍👧‍👦', (t) => t.length <= 7)).toEqual({ text: '👩\u200d...', boundary: 'char' });
    });

    it('the deterministic summariser folds whitespace, including Unicode spaces, the same way', () => {
      const summary = fallbackConversationSummary({
        previousSummary: '',
        turns: [{ turnNum: 1, user: ' a\u3000b\n\tc\u00a0d ', assistantSummary: 'é😀'.repeat(150), routing: null, timestamp: 't' }],
        maxChars: 1000,
      });
      expect(summary).toBe(`Turn 1: user: a b c d | assistant: ${'é😀'.repeat(65)}é...`);
    });

    it('compaction keeps the pending state and the current turn, and refuses a budget they exceed', async () => {
      await initCore();
      let s = createLayeredContext({ recentTurns: 1 });
      for (let t = 1; t <= 4; t++) {
        s = beginTurn(s, { user: `Message ${t}: ${'ü'.repeat(40)}`, timestamp: `2026-01-0${t}T00:00:00Z` });
        s = (await endTurn(s, { assistantSummary: `Answer ${t}.`, ...(t === 2 ? { pending: { type: 'propose', context: 'Keep me', questions: ['OK?'] } } : {}) })).state;
      }
      s = beginTurn(s, { user: 'Current 😀', timestamp: '2026-01-05T00:00:00Z' });
      expect(s.conversation.pending).toEqual({ type: 'propose', context: 'Keep me', questions: ['OK?'] });
      expect(s.conversation.recentTurns.map((t) => t.turnNum)).toEqual([4]);
      expect(s.conversation.historySummary.split('\n').map((l) => l.slice(0, 16))).toEqual(['Turn 1: user: Me', 'Turn 2: user: Me', 'Turn 3: user: Me']);
      const view = buildThinkContext(s, { counter: charCounter, budget: 0 });
      expect(view.text).toContain('Context: Keep me');
      expect(view.text).toContain('User: Current 😀');
      let error: unknown;
      try {
        buildThinkContext(s, { counter: charCounter, budget: 10 });
      } catch (e) {
        error = e;
      }
      expect(isCtxgateError(error, 'CONTEXT_TOO_LARGE')).toBe(true);
      expect((error as { details: { node: string; budgetTokens: number } }).details).toMatchObject({ node: 'think', budgetTokens: 10 });
    });
  });
}
