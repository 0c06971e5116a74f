import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { initCore } from '../../src/core/core.ts';
import { scanSecrets } from '../../src/secrets/scan.ts';
import { compileUserRules, matchUserRules, type CompiledUserRule, type MatchWork } from '../../src/secrets/user-rules.ts';

beforeAll(async () => {
  await initCore();
});

const isWordUnit = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/** The rule's meaning read off directly: every prefix hit, its body measured from scratch. */
function naive(text: string, rule: CompiledUserRule): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = 0;
  for (let at = text.indexOf(rule.prefix, from); at !== -1; at = text.indexOf(rule.prefix, from)) {
    from = at + 1;
    if (at > 0 && isWordUnit(text.charCodeAt(at - 1))) continue;
    const bodyStart = at + rule.prefix.length;
    let n = 0;
    while (bodyStart + n < text.length && rule.allowed[text.charCodeAt(bodyStart + n)]) n++;
    if (n < rule.minLength || n > rule.maxLength) continue;
    out.push([at, bodyStart + n]);
    from = bodyStart + n;
  }
  return out;
}

const rule = (prefix: string, charset: string, minLength: number, maxLength: number) =>
  compileUserRules([{ id: 'acme-token', prefix, charset, minLength, maxLength }])[0]!;

describe('user secret rules', () => {
  it('match what the rule means: property against a from-scratch reading of each hit', () => {
    const unit = fc.constantFrom('t', 'o', 'k', '_', 'a', 'Z', '9', '-', ' ', '\n', 'é', '😀');
    fc.assert(
      fc.property(
        fc.array(unit, { maxLength: 400 }).map((u) => u.join('')),
        fc.constantFrom('tok_', 'tok', 'ok_', '_tok'),
        fc.constantFrom('A-Za-z0-9_', 'a-z', 'a-z_\\-', 'A-Za-z0-9_\\- é'),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 30 }),
        (text, prefix, charset, minLength, extra) => {
          const r = rule(prefix, charset, minLength, minLength + extra);
          expect(matchUserRules(text, [r]).map((m) => [m.start, m.end])).toEqual(naive(text, r));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('read each code unit of a run once, even when the prefix is made of the rule characters', () => {
    // Before, every `tok_` hit measured its body again up to maxLength + 1 units: about 1,025 steps
    // per hit here, seconds per megabyte for one rule.
    const text = 'tok_'.repeat(50_000);
    const work: MatchWork = { steps: 0 };
    // Only the run's last hit whose body fits maxLength is a match: 4 + 1,024 units at the end.
    const found = matchUserRules(text, [rule('tok_', 'A-Za-z0-9_', 20, 1024)], work);
    expect(found.map((m) => [m.start, m.end])).toEqual([[text.length - 1028, text.length]]);
    expect(work.steps).toBeGreaterThanOrEqual(text.length - 4);
    expect(work.steps).toBeLessThanOrEqual(text.length + 1);
  });

  it('still find the tail of a long run and the token after it, at their exact spans', () => {
    const value = 'tok_' + 'Q7fZk2Lm9XwR4pTb8NvY3cHs';
    const text = 'tok_'.repeat(20_000) + ' ' + value + '\n';
    const found = scanSecrets(text, {
      extraRules: [{ id: 'acme-token', prefix: 'tok_', charset: 'A-Za-z0-9_', minLength: 20, maxLength: 1024 }],
    });
    expect(found).toEqual([
      { ruleId: 'acme-token', confidence: 'high', start: 80_000 - 1028, end: 80_000, line: 1, column: 80_000 - 1027 },
      { ruleId: 'acme-token', confidence: 'high', start: 80_001, end: 80_001 + value.length, line: 1, column: 80_002 },
    ]);
  });
});
