// Regenerates test/vectors/bundle-golden.json: `npm run golden`. Not a test; review the diff it makes.
import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { buildContext, createCtxgate, type BuildContextInput } from '../../src/index.ts';
import { baseInput, contentsOf, dependencies, projectFiles, symbols } from '../fixtures/project.ts';

it('writes the golden bundles', async () => {
  const engine = await createCtxgate();
  const files = projectFiles();
  const projectIndex = await engine.indexProject(files, { symbols, dependencies });
  const cases = [
    { name: 'diff step on UserService.ts, generous budget', overrides: {} },
    { name: 'tight budget: P2 removed, P1 sliced or removed, target region', overrides: { planStep: { id: 's', targetFiles: ['src/services/UserService.ts'], targetSymbols: ['loginAsync'] }, tokenBudget: { provider: 't', model: 't', maxInputTokens: 260, maxOutputTokens: 100, responseTokenReserve: 0, softLimitThresholdPct: 80 } } },
    { name: 'intent extraction: project metadata only', overrides: { purpose: 'intent', planStep: null } },
  ];
  const out: any = { source: 'Golden bundles of test/fixtures/project.ts. Regenerate only when the builder changes on purpose (npm run golden), and review the diff.', projectIndexFingerprint: projectIndex.projectIndexFingerprint, cases: [] };
  for (const c of cases) {
    const result = await buildContext({ ...baseInput(), ...(c.overrides as any), projectIndex } as BuildContextInput, { contents: contentsOf(files), engine });
    out.cases.push({ ...c, result });
  }
  const e: any = await buildContext({ ...baseInput(), projectIndex, tokenBudget: { provider: 't', model: 't', maxInputTokens: 50, maxOutputTokens: 10, responseTokenReserve: 0, softLimitThresholdPct: 80 } } as BuildContextInput, { contents: contentsOf(files), engine }).catch((x) => x);
  out.refusalBudgetReport = e.details.budgetReport;
  if (process.env.GOLDEN === '1') writeFileSync('test/vectors/bundle-golden.json', JSON.stringify(out, null, 1) + '\n');
  console.log(out.cases.map((c: any) => [c.name, c.result.budgetReport.decision, c.result.bundle.blocks.map((b: any) => b.title + ':' + b.meta.slicing)]));
});
