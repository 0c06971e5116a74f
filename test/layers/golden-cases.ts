// The golden cases: each renders one view of the shared scenario. Expected texts live in ./golden/.
import type { LayeredContextState } from '../../src/layers/model.ts';
import { defineNodeView } from '../../src/layers/recipes.ts';
import { buildActContext, buildNodeView, buildReplyContext, buildThinkContext, buildUnderstandContext } from '../../src/layers/views.ts';
import type { NodeView } from '../../src/layers/views.ts';
import { charCounter } from './fixtures.ts';

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

/** name -> how to build it. */
export const GOLDEN_CASES: Record<string, (s: LayeredContextState) => NodeView> = {
  understand: (s) => buildUnderstandContext(s, { counter: charCounter, budget: 0 }),
  think: (s) => buildThinkContext(s, { counter: charCounter, budget: 0 }),
  act: (s) => buildActContext(s, { counter: charCounter, budget: 0 }),
  reply: (s) => buildReplyContext(s, { counter: charCounter, budget: 0 }),
  'think-budget-260': (s) => buildThinkContext(s, { counter: charCounter, budget: 260 }),
  'act-budget-150': (s) => buildActContext(s, { counter: charCounter, budget: 150 }),
  critic: (s) => buildNodeView(s, CRITIC_VIEW, { counter: charCounter }),
};
