// The golden cases: each renders one view of a shared scenario. The expected views live in
// ./golden.json (regenerate with `npm run golden`, which runs ./golden.gen.ts, and review the diff).
// Cases named `*-est*` count with the project's real estimator, so they need `await initCore()`.
import type { LayeredContextState } from '../../src/layers/model.ts';
import { defineNodeView } from '../../src/layers/recipes.ts';
import { buildActContext, buildNodeView, buildReplyContext, buildThinkContext, buildUnderstandContext } from '../../src/layers/views.ts';
import type { NodeView } from '../../src/layers/views.ts';
import { estimator } from '../../src/tokens/estimator.ts';
import { charCounter, scenario, unicodeScenario } from './fixtures.ts';

/** A host-declared node: a critic that checks the turn before Reply. */
export const CRITIC_VIEW = defineNodeView({
  node: 'critic',
  budget: 400,
  task: 'Check that what was just accomplished answers the current message. Reply with OK or a list of problems.',
  layers: [
    { layer: 'reasoning', currentTurn: 'full', blocked: true, userExpressed: true },
    { layer: 'conversation', recentTurns: 1, pending: true },
    { layer: 'entity', active: 'refs-labels' },
  ],
});

/** The scenarios the cases render, by name. */
export const SCENARIOS: Record<'recipes' | 'unicode', () => Promise<LayeredContextState>> = {
  recipes: scenario,
  unicode: unicodeScenario,
};

/** One golden case: which scenario, and how to build the view from it. */
export interface GoldenCase {
  scenario: keyof typeof SCENARIOS;
  build: (s: LayeredContextState) => NodeView;
}

const est = () => estimator({ encoding: 'o200k_base' });

/** name -> how to build it. */
export const GOLDEN_CASES: Record<string, GoldenCase> = {
  understand: { scenario: 'recipes', build: (s) => buildUnderstandContext(s, { counter: charCounter, budget: 0 }) },
  think: { scenario: 'recipes', build: (s) => buildThinkContext(s, { counter: charCounter, budget: 0 }) },
  act: { scenario: 'recipes', build: (s) => buildActContext(s, { counter: charCounter, budget: 0 }) },
  reply: { scenario: 'recipes', build: (s) => buildReplyContext(s, { counter: charCounter, budget: 0 }) },
  'think-budget-260': { scenario: 'recipes', build: (s) => buildThinkContext(s, { counter: charCounter, budget: 260 }) },
  'act-budget-150': { scenario: 'recipes', build: (s) => buildActContext(s, { counter: charCounter, budget: 150 }) },
  critic: { scenario: 'recipes', build: (s) => buildNodeView(s, CRITIC_VIEW, { counter: charCounter }) },
  // The real estimator: token counts and the cuts they drive must agree in every runtime.
  'think-est': { scenario: 'recipes', build: (s) => buildThinkContext(s, { counter: est(), budget: 0 }) },
  'think-est-budget-250': { scenario: 'recipes', build: (s) => buildThinkContext(s, { counter: est(), budget: 250 }) },
  'critic-est': { scenario: 'recipes', build: (s) => buildNodeView(s, CRITIC_VIEW, { counter: est() }) },
  // Non-ASCII text: canonical JSON key order, line folding and surrogate-safe cuts.
  'unicode-act': { scenario: 'unicode', build: (s) => buildActContext(s, { counter: charCounter, budget: 0 }) },
  'unicode-understand-est': { scenario: 'unicode', build: (s) => buildUnderstandContext(s, { counter: est(), budget: 0 }) },
  'unicode-reply-budget-150': { scenario: 'unicode', build: (s) => buildReplyContext(s, { counter: charCounter, budget: 150 }) },
  'unicode-think-est-budget-200': { scenario: 'unicode', build: (s) => buildThinkContext(s, { counter: est(), budget: 200 }) },
};
