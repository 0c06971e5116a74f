import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCtxgateError } from '../../src/errors.ts';
import { curateEntities, registerEntity } from '../../src/layers/entities.ts';
import { ENTITY_STATUSES } from '../../src/layers/model.ts';
import type { LayeredContextState, PendingState } from '../../src/layers/model.ts';
import { layeredContextFromJSON, layeredContextToJSON } from '../../src/layers/schema.ts';
import { recordStep, recordThink, recordTurnMeta } from '../../src/layers/trace.ts';
import { beginTurn, createLayeredContext, endTurn } from '../../src/layers/turns.ts';
import { BUILTIN_VIEWS, buildNodeView } from '../../src/layers/views.ts';
import { charCounter, wordCounter } from './fixtures.ts';

// Text with sentence ends, newlines and long words, so every truncation boundary gets exercised.
const prose = fc
  .array(fc.constantFrom('alpha', 'beta.', 'Gamma', 'd', 'eeeeeeeeeeeeeeeeeeee', '\n', '. ', 'ü', '😀', 'x,y'), { maxLength: 30 })
  .map((parts) => parts.join(' '));

const pendingArb: fc.Arbitrary<PendingState | null> = fc.option(
  fc.record({ type: fc.constantFrom('propose', 'clarify', 'ask_user'), context: prose, questions: fc.array(prose, { maxLength: 2 }) }),
  { nil: null },
) as fc.Arbitrary<PendingState | null>;

const turnArb = fc.record({
  user: prose,
  assistant: prose,
  pending: fc.option(pendingArb, { nil: undefined }),
  entities: fc.array(
    fc.record({ ref: fc.constantFrom('r1', 'r2', 'r3', 'g1', 'g2'), label: prose, status: fc.constantFrom(...ENTITY_STATUSES), data: fc.option(fc.dictionary(fc.constantFrom('a', 'b'), prose), { nil: undefined }) }),
    { maxLength: 3 },
  ),
  steps: fc.array(fc.record({ outcome: prose, note: fc.option(prose, { nil: null }) }), { maxLength: 3 }),
  curate: fc.option(fc.record({ ref: fc.constantFrom('r1', 'r2', 'g1'), action: fc.constantFrom('retain', 'promote', 'demote'), reason: fc.constantFrom('because', 'user said so') }), { nil: undefined }),
  phase: fc.option(fc.constantFrom('exploring', 'narrowing'), { nil: undefined }),
  blocked: fc.option(prose, { nil: undefined }),
});

type TurnInput = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;

interface Built {
  state: LayeredContextState;
  /** The pending state the last endTurn left (what compaction must keep). */
  pending: PendingState | null;
  lastEnded: string | null;
}

/** Plays turns; the last one stays open when `open` is true. */
async function play(turns: Array<TurnInput>, open: boolean, settings = {}): Promise<Built> {
  let state = createLayeredContext(settings);
  let pending: PendingState | null = null;
  let lastEnded: string | null = null;
  for (const [i, t] of turns.entries()) {
    state = beginTurn(state, { user: t.user, timestamp: 't' });
    state = recordThink(state, { decision: 'plan_direct', goal: t.user });
    for (const e of t.entities) state = registerEntity(state, { ref: e.ref, type: 'things', label: e.label, status: e.status, ...(e.data ? { data: e.data } : {}) });
    for (const s of t.steps) state = recordStep(state, { type: 'read', subdomain: 'things', description: 'd', outcome: s.outcome, note: s.note });
    if (t.curate && state.entities.some((e) => e.ref === t.curate!.ref)) state = curateEntities(state, [t.curate]);
    state = recordTurnMeta(state, { ...(t.phase ? { conversationPhase: t.phase } : {}), ...(t.blocked ? { blockedReason: t.blocked } : {}) });
    if (open && i === turns.length - 1) break;
    state = (await endTurn(state, { assistantSummary: t.assistant, ...(t.pending !== undefined ? { pending: t.pending } : {}) })).state;
    if (t.pending !== undefined) pending = t.pending;
    lastEnded = t.user;
  }
  return { state, pending, lastEnded };
}

const nodes = fc.constantFrom('understand', 'think', 'act', 'reply') as fc.Arbitrary<keyof typeof BUILTIN_VIEWS>;

describe('properties', () => {
  it('a rendered view never exceeds its budget; when it cannot fit it refuses, and only because of protected content', async () => {
    const seen = { fit: 0, cut: 0, truncated: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 5 }), nodes, fc.integer({ min: 1, max: 400 }), fc.boolean(), async (turns, node, budget, words) => {
        const { state } = await play(turns, true);
        const counter = words ? wordCounter : charCounter;
        try {
          const v = buildNodeView(state, BUILTIN_VIEWS[node], { counter, budget });
          expect(v.tokens.tokens).toBeLessThanOrEqual(budget);
          expect(v.tokens).toEqual(counter(v.text));
          expect(v.budget.tokensAfter).toBe(v.tokens.tokens);
          expect(v.budget.wasCut).toBe(v.budget.tokensBefore > budget);
          if (v.budget.wasCut) seen.cut++;
          else seen.fit++;
          if (v.budget.cuts.some((c) => c.action === 'truncated')) seen.truncated++;
          // Pending state (for nodes that see it) and the current turn always survive.
          expect(v.text).toContain(`User: ${state.conversation.current!.user}`);
          const p = state.conversation.pending;
          if (p && node !== 'act') expect(v.text).toContain(`Context: ${p.context}`);
        } catch (error) {
          expect(isCtxgateError(error, 'CONTEXT_TOO_LARGE')).toBe(true);
          // The protected remainder alone (everything cuttable removed) really exceeds the budget.
          expect((error as { details: { minimumTokens: number } }).details.minimumTokens).toBeGreaterThan(budget);
          seen.refused++;
        }
      }),
      { numRuns: 150, seed: 8 },
    );
    // The generator must reach every branch, or the property proves little.
    expect(Object.values(seen).every((n) => n > 0)).toBe(true);
  });

  it('compaction keeps the pending state, the turn just ended and at most recentTurns turns', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 7 }), fc.integer({ min: 1, max: 3 }), async (turns, recentTurns) => {
        const { state, pending, lastEnded } = await play(turns, false, { recentTurns, recentTraces: recentTurns, summaryMaxChars: 300 });
        expect(state.conversation.pending).toEqual(pending);
        expect(state.conversation.recentTurns.at(-1)?.user).toBe(lastEnded);
        expect(state.conversation.recentTurns.length).toBe(Math.min(recentTurns, turns.length));
        expect(state.reasoning.turnSummaries.length).toBe(Math.min(recentTurns, turns.length));
        expect(state.conversation.historySummary.length).toBeLessThanOrEqual(300);
        expect(state.reasoning.reasoningSummary.length).toBeLessThanOrEqual(300);
      }),
      { numRuns: 100 },
    );
  });

  it('the same state renders byte-identically, also after a JSON round trip', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 4 }), nodes, fc.integer({ min: 0, max: 300 }), async (turns, node, budget) => {
        const { state } = await play(turns, true);
        const restored = layeredContextFromJSON(JSON.stringify(layeredContextToJSON(state)));
        const render = (s: LayeredContextState) => {
          try {
            return buildNodeView(s, BUILTIN_VIEWS[node], { counter: charCounter, budget }).text;
          } catch (error) {
            return (error as Error).message;
          }
        };
        expect(render(restored)).toBe(render(state));
        expect(render(state)).toBe(render(state));
      }),
      { numRuns: 100 },
    );
  });
});
