import { describe, expect, it } from 'vitest';
import { validateBuildInput } from '../../src/builder/schema.ts';

const input = () => ({
  purpose: 'plan',
  intent: { id: 'i1', text: 'rename a function' },
  planStep: { id: 's1', targetFiles: ['src/a.ts'] },
  projectIndex: { files: [{ path: 'src/a.ts', byteSize: 3, hash: 'a'.repeat(64), encoding: 'ascii' }] },
  constraints: {},
  tokenBudget: { provider: 'p', model: 'm', maxInputTokens: 1000, maxOutputTokens: 100, responseTokenReserve: 100, softLimitThresholdPct: 80 },
});

describe('validateBuildInput', () => {
  it('returns its own parsed copy, and that copy again without re-validating it', () => {
    const mine = input();
    const valid = validateBuildInput(mine);
    expect(valid).not.toBe(mine);
    expect(valid).toEqual(mine);
    expect(validateBuildInput(valid)).toBe(valid);
  });

  it("validates a caller's object every time, even one it accepted before", () => {
    const mine = input();
    validateBuildInput(mine);
    (mine.planStep as { targetFiles: unknown }).targetFiles = 'src/a.ts';
    expect(() => validateBuildInput(mine)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'planStep.targetFiles' }) }));
  });
});
