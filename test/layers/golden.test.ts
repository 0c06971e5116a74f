import { describe, expect, it } from 'vitest';
import { layeredContextFromJSON, layeredContextToJSON } from '../../src/layers/schema.ts';
import { scenario } from './fixtures.ts';
import { GOLDEN_CASES } from './golden-cases.ts';
import act from './golden/act.txt?raw';
import actBudget150 from './golden/act-budget-150.txt?raw';
import critic from './golden/critic.txt?raw';
import reply from './golden/reply.txt?raw';
import think from './golden/think.txt?raw';
import thinkBudget260 from './golden/think-budget-260.txt?raw';
import understand from './golden/understand.txt?raw';

const EXPECTED: Record<string, string> = {
  understand,
  think,
  act,
  reply,
  'think-budget-260': thinkBudget260,
  'act-budget-150': actBudget150,
  critic,
};

describe('golden renders (spec 002 prompt injection pattern)', () => {
  it('covers every case', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(GOLDEN_CASES).sort());
  });

  for (const name of Object.keys(GOLDEN_CASES)) {
    it(`${name} matches golden/${name}.txt byte for byte`, async () => {
      const state = await scenario();
      expect(GOLDEN_CASES[name]!(state).text).toBe(EXPECTED[name]);
    });

    it(`${name} renders identically after a JSON round trip`, async () => {
      const state = await scenario();
      const restored = layeredContextFromJSON(JSON.stringify(layeredContextToJSON(state)));
      expect(GOLDEN_CASES[name]!(restored).text).toBe(EXPECTED[name]);
    });
  }
});
