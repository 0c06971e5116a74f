import { beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildContext, createCtxgate, isCtxgateError, type BuildContextInput, type BuildContextResult, type Engine, type ProjectIndex } from '../../src/index.ts';
import { sha256HexSync } from '../../src/core/sha256.ts';
import { initCore } from '../../src/core/core.ts';
import { derivedUuid } from '../../src/builder/ids.ts';
import { createHash } from 'node:crypto';
import { baseInput, contentsOf, dependencies, FAKE_DB_PASSWORD, FAKE_GITHUB_TOKEN, projectFiles, symbols } from '../fixtures/project.ts';
import { rejection, thrown } from '../fixtures/thrown.ts';

let engine: Engine;
let index: ProjectIndex;
const files = projectFiles();
const contents = contentsOf(files);

beforeAll(async () => {
  await initCore();
  engine = await createCtxgate();
  index = await engine.indexProject(files, { symbols, dependencies });
});

const input = (o: Partial<BuildContextInput> = {}): BuildContextInput => ({ ...baseInput(), projectIndex: index, ...o }) as BuildContextInput;
const build = (o: Partial<BuildContextInput> = {}, c: ReadonlyMap<string, Uint8Array | string> = contents): Promise<BuildContextResult> => buildContext(input(o), { contents: c, engine });
const budget = (maxInputTokens: number, responseTokenReserve = 0, softLimitThresholdPct = 80) => ({
  tokenBudget: { provider: 'test', model: 'test', maxInputTokens, maxOutputTokens: 1000, responseTokenReserve, softLimitThresholdPct },
});
/**
 * A budget at `limit`, or, if that refuses as too large, exactly the size the refused bundle was cut
 * to: fitting under it takes the same steps and stops with the same slices.
 */
const fittedBudget = async (o: Partial<BuildContextInput>, limit: number) => {
  const e = await build({ ...o, ...budget(limit) }).then(
    () => undefined,
    (x: any) => x,
  );
  if (e === undefined) return budget(limit);
  expect(isCtxgateError(e, 'CONTEXT_TOO_LARGE')).toBe(true);
  return budget(e.details.budgetReport.estimatedInputTokens);
};
const paths = (r: BuildContextResult) => r.bundle.blocks.map((b) => `${b.priority} ${b.blockType} ${b.title}`);

describe('INV-CONTEXT-1 stable ordering', () => {
  it('sorts by priority, then block type in the fixed order, then key bytewise', async () => {
    const r = await build();
    expect(paths(r)).toEqual([
      'P0 system system rules',
      'P0 constraints constraints',
      'P0 file src/services/UserService.ts',
      'P0 diff_hint task',
      'P1 file src/db/client.ts',
      'P1 file src/generated/table.ts',
      'P1 file src/services/IUserService.ts',
      'P2 file package.json',
      'P2 file src/api/controller.ts',
    ]);
  });
});

describe('INV-CONTEXT-2 same inputs, same bundle', () => {
  it('shuffling every input list gives the identical bundle, manifest and fingerprint', async () => {
    const reference = JSON.stringify(await build());
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), async (r) => {
        let k = 0;
        const shuffle = <T>(xs: readonly T[]): T[] => {
          const out = [...xs];
          for (let i = out.length - 1; i > 0; i--) {
            const j = r[k++ % r.length]! % (i + 1);
            [out[i], out[j]] = [out[j]!, out[i]!];
          }
          return out;
        };
        const shuffledIndex: ProjectIndex = { ...index, files: shuffle(index.files), symbols: shuffle(index.symbols ?? []), dependencies: shuffle(index.dependencies ?? []) };
        const again = await buildContext(input({ projectIndex: shuffledIndex }), { contents: new Map(shuffle([...contents])), engine });
        expect(JSON.stringify(again)).toBe(reference);
      }),
      { numRuns: 15 },
    );
  });

  it('a different constraint changes the config and bundle fingerprints but not the index fingerprint', async () => {
    const a = await build();
    const b = await build({ constraints: { project: ['MUST_NOT add dependencies', 'no new files'] } });
    expect(b.manifest.fingerprints.projectIndexFingerprint).toBe(a.manifest.fingerprints.projectIndexFingerprint);
    expect(b.manifest.fingerprints.configFingerprint).not.toBe(a.manifest.fingerprints.configFingerprint);
    expect(b.manifest.fingerprints.bundleFingerprint).not.toBe(a.manifest.fingerprints.bundleFingerprint);
  });
});

describe('INV-CONTEXT-3 no silent truncation', () => {
  it('every block that does not fit is reported as removed or sliced, and token totals add up', async () => {
    const r = await build(budget(1200));
    const blockTokens = r.bundle.blocks.reduce((n, b) => n + b.meta.tokens, 0);
    expect(r.budgetReport.estimatedInputTokens).toBe(blockTokens);
    const removed = r.manifest.selection.excludedCandidates.filter((e) => e.reason === 'token_budget').map((e) => e.path);
    expect(removed.length).toBeGreaterThan(0);
    for (const path of removed) {
      expect(r.redactionReport.redactions).toContainEqual(expect.objectContaining({ type: 'block_removed', target: path, reason: 'budget' }));
      expect(r.bundle.blocks.some((b) => b.title === path)).toBe(false);
    }
    for (const b of r.bundle.blocks.filter((x) => x.meta.slicing && x.meta.slicing !== 'FULL_FILE')) {
      expect(r.redactionReport.redactions).toContainEqual(expect.objectContaining({ type: 'content_sliced', target: b.title }));
    }
  });
});

describe('INV-CONTEXT-4 secrets never sent', () => {
  it('redacts the planted token with a stable placeholder and reports it; the value appears nowhere', async () => {
    const r = await build();
    const client = r.bundle.blocks.find((b) => b.title === 'src/db/client.ts')!;
    expect(client.content).toContain("const token = '[REDACTED:github-pat:1]';");
    expect(r.redactionReport.redactions).toContainEqual({ type: 'pattern_redacted', target: 'src/db/client.ts', reason: 'secret', details: 'github-pat (high) at 3:16 → [REDACTED:github-pat:1]' });
    const all = JSON.stringify(r);
    expect(all.includes(FAKE_GITHUB_TOKEN)).toBe(false);
    expect(all.includes(FAKE_DB_PASSWORD)).toBe(false);
  });

  it("reads a file's language from its path: in code an unquoted name at a line's end is code, in YAML the secret itself", async () => {
    const utf8 = (t: string) => new TextEncoder().encode(t);
    const body = 'export interface Request {\n  readonly credentials: RequestCredentials\n  readonly mode: RequestMode\n}\n';
    const yaml = 'smtp:\n  user: mailer\n  credentials: RequestCredentials\n';
    const more = [...files, { path: 'src/http/fetch.d.ts', bytes: utf8(body) }, { path: 'config/mail.yaml', bytes: utf8(yaml) }];
    const moreIndex = await engine.indexProject(more, { symbols, dependencies });
    const r = await buildContext(input({ projectIndex: moreIndex, planStep: { id: 's', targetFiles: ['src/http/fetch.d.ts', 'config/mail.yaml'] } }), { contents: contentsOf(more), engine });
    expect(r.bundle.blocks.find((b) => b.title === 'src/http/fetch.d.ts')!.content).toBe(body);
    expect(r.bundle.blocks.find((b) => b.title === 'config/mail.yaml')!.content).toBe('smtp:\n  user: mailer\n  credentials: [REDACTED:generic-secret:1]\n');
    expect(r.redactionReport.redactions.filter((d) => d.type === 'pattern_redacted' && d.target !== 'src/db/client.ts')).toEqual([
      { type: 'pattern_redacted', target: 'config/mail.yaml', reason: 'secret', details: 'generic-secret (medium) at 3:16 → [REDACTED:generic-secret:1]' },
    ]);
    // Refused instead under mediumConfidence 'refuse': the refusal says the text was a file's.
    const refused = await rejection(
      buildContext(input({ projectIndex: moreIndex, planStep: { id: 's', targetFiles: ['config/mail.yaml'] }, secrets: { highConfidence: 'redact', mediumConfidence: 'refuse' } }), { contents: contentsOf(more), engine }),
    );
    expect(refused.details).toEqual({ path: 'config/mail.yaml', source: 'file', findings: [{ ruleId: 'generic-secret', line: 3, column: 16, confidence: 'medium' }] });
  });

  it('.env is excluded by the never-send path rule (bad example of the spec)', async () => {
    const r = await build();
    expect(r.manifest.selection.excludedCandidates).toContainEqual({ path: '.env', reason: 'deny_rule' });
    expect(r.redactionReport.redactions).toContainEqual(expect.objectContaining({ type: 'path_excluded', target: '.env', reason: 'deny_rule' }));
  });

  it('each path exclusion names the rule and its list; a target on a never-send path is refused naming it', async () => {
    const r = await build();
    expect(r.redactionReport.redactions).toContainEqual({ type: 'path_excluded', target: '.env', reason: 'deny_rule', details: 'never-send default "**/*.env"' });
    const e = await rejection(build({ planStep: { id: 's', targetFiles: ['.env'] } }));
    expect(isCtxgateError(e, 'SECRET_RISK')).toBe(true);
    expect(e.message).toBe('Target .env is excluded by the never-send default "**/*.env"; it cannot be sent. Move secrets out of it, or re-include it with an allow rule.');
    expect(e.details).toEqual({ path: '.env', rule: '**/*.env' });
    // Credential files beyond the spec's list: left out by default, their templates sent.
    const utf8 = (t: string) => new TextEncoder().encode(t);
    const more = [...files, { path: '.env.local', bytes: utf8('SESSION_SIGNING=q7Lm2Vx9Rt4Kp8Zn\n') }, { path: '.env.example', bytes: utf8('SESSION_SIGNING=\n') }];
    const edges = [...dependencies, ...['.env.local', '.env.example'].map((to) => ({ from: 'src/services/UserService.ts', to, kind: 'import' as const }))];
    const moreIndex = await engine.indexProject(more, { symbols, dependencies: edges });
    const withMore = await buildContext(input({ projectIndex: moreIndex }), { contents: contentsOf(more), engine });
    expect(withMore.redactionReport.redactions).toContainEqual({ type: 'path_excluded', target: '.env.local', reason: 'deny_rule', details: 'credential-file default "**/.env.*"' });
    expect(withMore.manifest.selection.excludedCandidates).toContainEqual({ path: '.env.local', reason: 'deny_rule' });
    expect(withMore.manifest.selection.excludedCandidates.map((c) => c.path)).not.toContain('.env.example');
    expect(withMore.bundle.blocks.map((b) => b.title)).toContain('.env.example');
    expect(JSON.stringify(withMore)).not.toContain('q7Lm2Vx9Rt4Kp8Zn');
    // The caller re-includes one with an allow rule; the content gate still scans what is sent.
    const allowed = await buildContext(input({ projectIndex: await engine.indexProject(more, { symbols, dependencies: edges }, { allow: ['.env.local'] }), sandbox: { allow: ['.env.local'] } }), { contents: contentsOf(more), engine });
    expect(allowed.manifest.selection.excludedCandidates.map((c) => c.path)).not.toContain('.env.local');
    expect(allowed.bundle.blocks.map((b) => b.title)).toContain('.env.local');
    // A deny rule given to indexProject only: the build cannot name it, so it says where it was given.
    const indexDenied = await engine.indexProject(more, { symbols, dependencies: edges }, { deny: ['.env.example'] });
    const denied = await buildContext(input({ projectIndex: indexDenied }), { contents: contentsOf(more), engine });
    expect(denied.redactionReport.redactions).toContainEqual({
      type: 'path_excluded',
      target: '.env.example',
      reason: 'deny_rule',
      details: 'excluded by the indexer: a sandbox deny rule given to indexProject (give buildContext the same sandbox to have the rule named)',
    });
    const named = await buildContext(input({ projectIndex: indexDenied, sandbox: { deny: ['.env.example'] } }), { contents: contentsOf(more), engine });
    expect(named.redactionReport.redactions).toContainEqual({ type: 'path_excluded', target: '.env.example', reason: 'deny_rule', details: 'deny rule ".env.example"' });
  });

  it('policy "exclude" removes a non-target file with a secret, and refuses a target with one', async () => {
    const r = await build({ secrets: { highConfidence: 'exclude', mediumConfidence: 'redact' } });
    expect(r.manifest.selection.excludedCandidates).toContainEqual({ path: 'src/db/client.ts', reason: 'secret_risk' });
    const e = await rejection(build({ secrets: { highConfidence: 'exclude' }, planStep: { id: 's', targetFiles: ['src/db/client.ts'] } }));
    expect(isCtxgateError(e, 'SECRET_RISK')).toBe(true);
    expect(e.name).toBe('SecretRiskError');
    expect(e.message).toMatch(/move the secrets out of the project or add a deny rule/);
    expect(e.details.findings).toEqual([{ ruleId: 'github-pat', line: 3, column: 16, confidence: 'high' }]);
    expect(JSON.stringify(e.details) + e.message).not.toContain(FAKE_GITHUB_TOKEN);
  });

  it('a slice cut to fit the budget is redacted too: a target region and signatures from the index', async () => {
    // client.ts holds the token on line 3; the target symbol is that line alone, and the index's
    // signatures for table.ts (P1, imported by client.ts) carry the token as well.
    const withSecrets: ProjectIndex = {
      ...index,
      // Edited after indexing: its fingerprint is recomputed, not the stale one carried over.
      projectIndexFingerprint: undefined,
      symbols: [...(index.symbols ?? []), { name: 'dbToken', path: 'src/db/client.ts', kind: 'const', startLine: 3, endLine: 3 }],
      files: index.files.map((f) => (f.path === 'src/generated/table.ts' ? { ...f, signatures: `export const value0..value3999: number // ${FAKE_GITHUB_TOKEN}` } : f)),
    };
    const step = { planStep: { id: 's', targetFiles: ['src/db/client.ts'], targetSymbols: ['dbToken'] }, projectIndex: withSecrets };
    const roomy = await build(step);
    const p0 = roomy.bundle.blocks.filter((b) => b.priority === 'P0').reduce((n, b) => n + b.meta.tokens, 0);
    // With room for the P0 blocks and a little more, the P2 files go and table.ts (P1) is cut to
    // its signatures before it would be removed.
    const p1Sliced = await build({ ...step, ...budget(p0 + 100) });
    const table = p1Sliced.bundle.blocks.find((b) => b.title === 'src/generated/table.ts')!;
    expect(table.meta.slicing).toBe('SIGNATURES_ONLY');
    expect(table.content).toBe('export const value0..value3999: number // [REDACTED:github-pat:1]');
    // One token short of the P0 blocks and table.ts's signatures: table.ts is kept as sliced (step 3)
    // and the target is cut to its region (step 4, last resort).
    const tight = await build({ ...step, ...budget(p0 + table.meta.tokens - 1) });
    expect(tight.bundle.blocks.find((b) => b.title === 'src/generated/table.ts')!.meta.slicing).toBe('SIGNATURES_ONLY');
    const target = tight.bundle.blocks.find((b) => b.title === 'src/db/client.ts')!;
    expect(target.meta.slicing).toBe('TARGET_REGION_ONLY');
    expect(target.content).toBe("// lines 3-3\nconst token = '[REDACTED:github-pat:1]';");
    expect(p1Sliced.redactionReport.redactions).toContainEqual(expect.objectContaining({ type: 'pattern_redacted', target: 'src/generated/table.ts', reason: 'secret' }));
    for (const r of [roomy, tight, p1Sliced]) expect(JSON.stringify(r)).not.toContain(FAKE_GITHUB_TOKEN);
  });

  it('secrets in the system rules, the task (intent and plan step) and the last error are redacted and reported', async () => {
    const r = await build({
      systemRules: `Use the deploy key ${FAKE_GITHUB_TOKEN} only for reads.`,
      intent: { id: 'i-1', text: `rotate ${FAKE_GITHUB_TOKEN}` },
      planStep: { id: 's-1', description: `replace ${FAKE_GITHUB_TOKEN} in client.ts`, targetFiles: ['src/services/UserService.ts'] },
      lastError: { message: `401 for token ${FAKE_GITHUB_TOKEN}`, path: 'src/db/client.ts', line: 3 },
    });
    const content = (title: string) => r.bundle.blocks.find((b) => b.title === title)!.content;
    expect(content('system rules')).toBe('Use the deploy key [REDACTED:github-pat:1] only for reads.');
    expect(content('task')).toBe('intent i-1: rotate [REDACTED:github-pat:1]\nplan step s-1: replace [REDACTED:github-pat:1] in client.ts');
    expect(content('last error')).toBe('src/db/client.ts:3: 401 for token [REDACTED:github-pat:1]');
    const redacted = r.redactionReport.redactions.filter((d) => d.type === 'pattern_redacted').map((d) => d.target);
    expect(redacted).toEqual(expect.arrayContaining(['system rules', 'task', 'last error']));
    // Nothing else in the result (manifest, reports, explain) carries the value either.
    expect(JSON.stringify(r)).not.toContain(FAKE_GITHUB_TOKEN);
  });

  it('fingerprints and ids are not computed over a secret: another value of the same kind gives the same ones, another word does not', async () => {
    const other = ['ghp', '_', 'Zq8mK2vX9pL4nR7tY1wE3sD6fG0hJ5kA2bC4'].join('');
    const withToken = (token: string, word = 'rotate') =>
      build({
        systemRules: `Use the deploy key ${token} only for reads.`,
        constraints: { user: [`use token ${token}`], project: ['keep the API stable'] },
        intent: { id: 'i-1', text: `${word} ${token}` },
        planStep: { id: 's-1', description: `replace ${token} in client.ts`, targetFiles: ['src/services/UserService.ts'] },
        createdAt: '2026-11-24T00:00:00.000Z',
      });
    const [a, b, c] = await Promise.all([withToken(FAKE_GITHUB_TOKEN), withToken(other), withToken(FAKE_GITHUB_TOKEN, 'revoke')]);
    // What is sent is the same for both values, and so is every digest of it.
    expect(b.bundle.blocks).toEqual(a.bundle.blocks);
    expect(b.manifest.fingerprints).toEqual(a.manifest.fingerprints);
    expect([b.bundle.bundleId, b.bundle.correlationId]).toEqual([a.bundle.bundleId, a.bundle.correlationId]);
    // The caller's text still counts: one other word changes the bundle fingerprint, not the configuration's.
    expect(c.manifest.fingerprints.bundleFingerprint).not.toBe(a.manifest.fingerprints.bundleFingerprint);
    expect(c.manifest.fingerprints.configFingerprint).toBe(a.manifest.fingerprints.configFingerprint);
  });

  it('a secret in the constraints is redacted too (all text that would be sent is scanned)', async () => {
    const r = await build({ constraints: { user: [`use token ${FAKE_GITHUB_TOKEN}`] } });
    const c = r.bundle.blocks.find((b) => b.blockType === 'constraints')!;
    expect(c.content).toBe('{"user":["use token [REDACTED:github-pat:1]"]}');
  });
});

describe('budget rules', () => {
  it('records the estimator id and decides ok / warn_soft_limit / refuse_hard_limit at the exact limits', async () => {
    const r = await build();
    const total = r.budgetReport.estimatedInputTokens;
    expect(r.budgetReport.notes[0]).toBe('token estimator: ctxgate-est/1:o200k_base');
    // hard = max − reserve; soft = floor(hard × pct / 100)
    const atSoft = await build(budget(total * 2, total, 50)); // hard = total, soft = floor(total/2)
    expect(atSoft.budgetReport).toMatchObject({ hardLimitTokens: total, softLimitTokens: Math.floor(total / 2), decision: 'warn_soft_limit' });
    expect(atSoft.budgetReport.notes.some((n) => n.startsWith('warning:'))).toBe(true);
    const ok = await build(budget(total, 0, 100));
    expect(ok.budgetReport.decision).toBe('ok');
    expect(ok.budgetReport.estimatedInputTokens).toBe(total);
  });

  it('exact counting is available and labelled', async () => {
    const r = await build({ tokenizer: { mode: 'exact', encoding: 'cl100k_base' } });
    expect(r.budgetReport.notes[0]).toBe('token estimator: exact:cl100k_base (js-tiktoken)');
  });
});

describe('selection step 0: candidates', () => {
  it('an ambiguous target symbol refuses with the candidate list; a user selection resolves it', async () => {
    const e = await rejection(build({ planStep: { id: 's', targetSymbols: ['findUser'] } }));
    expect(isCtxgateError(e, 'AMBIGUOUS_TARGET')).toBe(true);
    expect(e.details.candidates).toEqual([
      { name: 'findUser', path: 'src/services/UserService.ts', startLine: 5, kind: 'method' },
      { name: 'findUser', path: 'src/legacy/users.ts', startLine: 1, kind: 'function' },
    ]);
    const ok = await build({ planStep: { id: 's', targetSymbols: ['findUser'] }, userSelectedTargets: { symbols: [{ name: 'findUser', path: 'src/services/UserService.ts' }] } });
    expect(ok.manifest.selection.targetSymbols).toEqual(['findUser']);
  });

  it('unknown targets are INVALID_PARAMS naming the field', async () => {
    const a = await rejection(build({ planStep: { id: 's', targetSymbols: ['nope'] } }));
    expect(a.details.field).toBe('planStep.targetSymbols[0]');
    const b = await rejection(build({ planStep: { id: 's', targetFiles: ['src/missing.ts'] } }));
    expect(b.details.field).toBe('planStep.targetFiles[0]');
  });

  it('a target outside the project root is refused', async () => {
    const e = await rejection(build({ planStep: { id: 's', targetFiles: ['../etc/passwd'] } }));
    expect(isCtxgateError(e, 'OUTSIDE_SANDBOX')).toBe(true);
  });
});

describe('selection step 2: ranking', () => {
  it('scores with the spec weights and penalties', async () => {
    const r = await build();
    const score = Object.fromEntries(r.explain.filter((e) => e.score !== null).map((e) => [e.path, e.score]));
    expect(score).toEqual({
      'src/services/UserService.ts': 100, // target
      'src/db/client.ts': 60, // direct dependency
      'src/services/IUserService.ts': 55, // interface
      'src/generated/table.ts': 60 - 10 * (2 - 1) - Math.floor(280669 / 200_000), // two hops, size penalty
      'src/api/controller.ts': 40, // caller one hop
      'package.json': 30, // config at the project root
    });
  });

  it('a target symbol scores 90 and its file is sliced to the symbol region when the budget needs it', async () => {
    const r = await build({ planStep: { id: 's', targetSymbols: ['loginAsync'] } });
    expect(r.explain.find((e) => e.path === 'src/services/UserService.ts')).toMatchObject({ score: 90, reason: 'target_symbol' });
  });
});

describe('selection step 4: fit to budget, in order', () => {
  const decisions = async (max: number) => {
    const r = await build({ ...budget(max), planStep: { id: 's', targetFiles: ['src/services/UserService.ts'], targetSymbols: ['loginAsync'] } });
    return r;
  };

  it('removes P2 first (lowest rank first), then slices P1 to signatures and removes the P1 it cannot slice, then slices the target', async () => {
    const full = await decisions(1_000_000);
    const tokens = Object.fromEntries(full.bundle.blocks.map((b) => [b.title, b.meta.tokens]));
    const total = full.budgetReport.estimatedInputTokens;
    // Just under the full size: only the lowest-ranked P2 block (package.json) goes.
    const r1 = await decisions(total - 1);
    expect(r1.manifest.selection.excludedCandidates.filter((e) => e.reason === 'token_budget').map((e) => e.path)).toEqual(['package.json']);
    // Without all P2 it still does not fit: P1 files are sliced to signatures before any P1 is removed.
    const withoutP2 = total - tokens['package.json']! - tokens['src/api/controller.ts']!;
    const r2 = await decisions(withoutP2 - 1);
    expect(r2.bundle.blocks.find((b) => b.title === 'src/generated/table.ts')!.meta.slicing).toBe('SIGNATURES_ONLY');
    expect(r2.manifest.selection.excludedCandidates.filter((e) => e.reason === 'token_budget').map((e) => e.path).sort()).toEqual(['package.json', 'src/api/controller.ts']);
    // Very tight: P1 files are cut to signatures, client.ts (no signatures) is removed, and then the
    // target is cut to the loginAsync region (lines 9-13). A sliced P1 is never removed after: what
    // still does not fit is refused (spec 001, Fit-to-Budget steps 3-5).
    const p0 = ['system rules', 'constraints', 'task'].reduce((n, t) => n + tokens[t]!, 0);
    const refused = await rejection(decisions(p0 + 100));
    expect(isCtxgateError(refused, 'CONTEXT_TOO_LARGE')).toBe(true);
    const r3 = await decisions(refused.details.budgetReport.estimatedInputTokens);
    const target = r3.bundle.blocks.find((b) => b.title === 'src/services/UserService.ts')!;
    expect(target.meta.slicing).toBe('TARGET_REGION_ONLY');
    const lines = new TextDecoder().decode(files[0]!.bytes).split('\n');
    expect(target.content).toBe(`// lines 9-13\n${lines.slice(8, 13).join('\n')}`);
    expect(r3.bundle.blocks.filter((b) => b.priority === 'P1').map((b) => [b.title, b.meta.slicing])).toEqual([
      ['src/generated/table.ts', 'SIGNATURES_ONLY'],
      ['src/services/IUserService.ts', 'SIGNATURES_ONLY'],
    ]);
    expect(r3.manifest.selection.excludedCandidates.filter((e) => e.reason === 'token_budget').map((e) => e.path).sort()).toEqual(['package.json', 'src/api/controller.ts', 'src/db/client.ts']);
    // The report lists exactly the slices that were sent.
    expect(r3.redactionReport.redactions.filter((x) => x.type === 'content_sliced').map((x) => x.target).sort()).toEqual(['src/generated/table.ts', 'src/services/IUserService.ts', 'src/services/UserService.ts']);
    expect(r3.redactionReport.redactions).toContainEqual(expect.objectContaining({ type: 'content_sliced', target: 'src/services/UserService.ts', reason: 'budget' }));
  });

  it('refuses ContextTooLarge with its budget report when P0 cannot fit even after slicing', async () => {
    const e = await rejection(build(budget(50)));
    expect(isCtxgateError(e, 'CONTEXT_TOO_LARGE')).toBe(true);
    expect(e.name).toBe('ContextTooLargeError');
    expect(e.details.budgetReport).toMatchObject({ decision: 'refuse_hard_limit', hardLimitTokens: 50, maxInputTokens: 50 });
    // It names the largest block and why it is whole: the target names no symbol to cut it to.
    expect(e.details.largestBlocks[0]).toEqual({ title: 'src/services/UserService.ts', priority: 'P0', tokens: 112, slicing: 'FULL_FILE' });
    expect(e.message).toBe(
      'The required context needs 294 tokens but the hard limit is 50 (max input 50 − reserve 0). The largest required block is src/services/UserService.ts (112 tokens, whole: name a symbol in it (planStep.targetSymbols) to send only its lines, or give the index its signatures or summary). Narrow the scope: target a single file or a symbol, or use a model with a larger context.',
    );
  });
});

describe('slicing rules', () => {
  it('never guesses: without line ranges or signatures a file is kept whole or removed', async () => {
    const noHelp: ProjectIndex = { ...index, projectIndexFingerprint: undefined, symbols: [], files: index.files.map(({ signatures, summary, ...f }) => f) };
    const r = await build({ ...budget(700), projectIndex: noHelp });
    for (const b of r.bundle.blocks) if (b.meta.slicing) expect(b.meta.slicing).toBe('FULL_FILE');
  });

  // The P0 blocks other than files (system rules, constraints, task) under a target-symbol step.
  const fixedP0 = async (o: Partial<BuildContextInput>) =>
    (await build(o)).bundle.blocks.filter((b) => b.priority === 'P0' && b.blockType !== 'file').reduce((n, b) => n + b.meta.tokens, 0);

  it('never slices with boundaries from a stale index: the changed target stays whole, and the build refuses', async () => {
    const step = { planStep: { id: 's', targetFiles: ['src/services/UserService.ts'], targetSymbols: ['loginAsync'] } };
    const tight = await fittedBudget(step, (await fixedP0(step)) + 100);
    const current = await build({ ...step, ...tight });
    expect(current.bundle.blocks.find((b) => b.title === 'src/services/UserService.ts')!.meta.slicing).toBe('TARGET_REGION_ONLY');
    // One line added at the top: the index's line 9-13 no longer hold loginAsync.
    const edited = new TextEncoder().encode(`// edited\n${new TextDecoder().decode(files[0]!.bytes)}`);
    const e = await rejection(build({ ...step, ...tight }, new Map([...contents, ['src/services/UserService.ts', edited]])));
    expect(isCtxgateError(e, 'CONTEXT_TOO_LARGE')).toBe(true);
    expect(e.details.largestBlocks).toContainEqual(expect.objectContaining({ title: 'src/services/UserService.ts', slicing: 'FULL_FILE' }));
    // The refusal names the file that stays whole, and why.
    const whole = e.details.largestBlocks.find((b: { title: string }) => b.title === 'src/services/UserService.ts');
    expect(e.message).toContain(`The largest required block is src/services/UserService.ts (${whole.tokens} tokens, whole: the index gives no current line ranges, signatures or summary to slice it by). `);
  });

  it('overlapping target symbols give one region, not the same lines twice', async () => {
    // UserService spans lines 4-14 and holds loginAsync (9-13).
    const step = { planStep: { id: 's', targetFiles: ['src/services/UserService.ts'], targetSymbols: ['UserService', 'loginAsync'] } };
    const r = await build({ ...step, ...(await fittedBudget(step, (await fixedP0(step)) + 110)) });
    const target = r.bundle.blocks.find((b) => b.title === 'src/services/UserService.ts')!;
    expect(target.meta.slicing).toBe('TARGET_REGION_ONLY');
    const lines = new TextDecoder().decode(files[0]!.bytes).split('\n');
    expect(target.content).toBe(`// lines 4-14\n${lines.slice(3, 14).join('\n')}`);
  });

  it('does not "slice" a P1 file to signatures larger than the file: having no smaller slice it is removed, and the sliced file stays', async () => {
    const long = `export interface IUserService { ${'findUser(id: string): Promise<unknown>; '.repeat(40)}}`;
    const bigSignatures: ProjectIndex = { ...index, projectIndexFingerprint: undefined, files: index.files.map((f) => (f.path === 'src/services/IUserService.ts' ? { ...f, signatures: long } : f)) };
    const roomy = await build({ projectIndex: bigSignatures });
    const p2 = roomy.bundle.blocks.filter((b) => b.priority === 'P2').reduce((n, b) => n + b.meta.tokens, 0);
    // Without the P2 files and with table.ts (the lowest-ranked P1) cut to its signatures, one token
    // over: IUserService.ts (next in reverse rank) has no smaller slice, so it is the one removed;
    // table.ts, already sliced, stays.
    const cut = await build({ projectIndex: bigSignatures, ...budget(roomy.budgetReport.estimatedInputTokens - p2 - 1) });
    const tokens = (r: BuildContextResult, title: string) => r.bundle.blocks.find((b) => b.title === title)!.meta.tokens;
    const saved = tokens(roomy, 'src/generated/table.ts') - tokens(cut, 'src/generated/table.ts');
    const r = await build({ projectIndex: bigSignatures, ...budget(roomy.budgetReport.estimatedInputTokens - p2 - saved - 1) });
    expect(r.bundle.blocks.filter((b) => b.priority === 'P1').map((b) => [b.title, b.meta.slicing])).toEqual([
      ['src/db/client.ts', 'FULL_FILE'],
      ['src/generated/table.ts', 'SIGNATURES_ONLY'],
    ]);
    expect(r.explain.filter((x) => x.outcome === 'dropped').map((x) => x.path).sort()).toEqual(['package.json', 'src/api/controller.ts', 'src/services/IUserService.ts']);
  });
});

describe('selection step 4: P3 goes first', () => {
  it('the open file (P3) is removed before any P2 when over budget', async () => {
    const notes = new TextEncoder().encode('# Notes\n\nLogin should ignore case.\n');
    const withNotes = await engine.indexProject([...files, { path: 'docs/notes.md', bytes: notes }], { symbols, dependencies });
    const c = new Map([...contents, ['docs/notes.md', notes]]);
    const roomy = await build({ projectIndex: withNotes, activeFile: 'docs/notes.md' }, c);
    expect(roomy.bundle.blocks.find((b) => b.title === 'docs/notes.md')!.priority).toBe('P3');
    const r = await build({ projectIndex: withNotes, activeFile: 'docs/notes.md', ...budget(roomy.budgetReport.estimatedInputTokens - 1) }, c);
    expect(r.explain.find((x) => x.path === 'docs/notes.md')).toMatchObject({ outcome: 'dropped', reason: 'token_budget', detail: 'P3 removed to fit the budget' });
    expect(r.explain.filter((x) => x.outcome === 'dropped').map((x) => x.path)).toEqual(['docs/notes.md']);
  });
});

describe('edge cases', () => {
  it('1: duplicate candidates are deduped by normalised path', async () => {
    const dup: ProjectIndex = { ...index, projectIndexFingerprint: undefined, files: [...index.files, { ...index.files.find((f) => f.path === 'src/db/client.ts')!, path: 'src/./db//client.ts' }] };
    const r = await build({ projectIndex: dup });
    expect(r.manifest.selection.includedFiles.filter((f) => f.path === 'src/db/client.ts')).toHaveLength(1);
    expect(r.manifest.selection.excludedCandidates).toContainEqual({ path: 'src/db/client.ts', reason: 'duplicate' });
  });

  it('2: a file changed since indexing is read from the filesystem and its hash updated', async () => {
    const changed = new TextEncoder().encode('export interface IUserService { renamed(): void }\n');
    const r = await build({}, new Map([...contents, ['src/services/IUserService.ts', changed]]));
    const f = r.manifest.selection.includedFiles.find((x) => x.path === 'src/services/IUserService.ts')!;
    expect(f.hash).toBe(sha256HexSync(changed));
    expect(r.bundle.blocks.find((b) => b.title === 'src/services/IUserService.ts')!.meta.source).toBe('filesystem');
    expect(r.budgetReport.notes.some((n) => n.startsWith('index stale for src/services/IUserService.ts'))).toBe(true);
  });

  it('2: a candidate that cannot be read refuses with READ_FAILED', async () => {
    const c = new Map(contents);
    c.delete('src/db/client.ts');
    const e = await rejection(build({}, c));
    expect(isCtxgateError(e, 'READ_FAILED')).toBe(true);
    expect(e.details.path).toBe('src/db/client.ts');
  });

  it("contents keyed as the files were listed (./src/…, doubled slashes, NFD) are matched by normalised path; the index's own spelling wins", async () => {
    const reference = await build();
    // Every key spelt otherwise than the index names the file: the same bundle.
    const respelt = new Map([...contents].map(([path, bytes], i) => [i % 2 === 0 ? `./${path}` : path.replace('/', '//'), bytes]));
    expect(respelt.has('src/services/UserService.ts')).toBe(false);
    expect((await build({}, respelt)).manifest.fingerprints).toEqual(reference.manifest.fingerprints);
    // An NFD name (as macOS hands names out) matches the index's NFC path.
    const nfcIndex = await engine.indexProject([{ path: 'src/caf\u00e9.ts', text: 'export const cafe = 1;\n' }]);
    const nfd = await buildContext(
      { ...baseInput(), projectIndex: nfcIndex, planStep: { id: 's', targetFiles: ['src/caf\u00e9.ts'] } } as BuildContextInput,
      { contents: new Map([['src/cafe\u0301.ts', 'export const cafe = 1;\n']]), engine },
    );
    expect(nfd.bundle.blocks.find((b) => b.title === 'src/caf\u00e9.ts')!.content).toBe('export const cafe = 1;\n');
    // The key written as the index names it wins over another spelling of the same file.
    const both = new Map<string, Uint8Array | string>([...contents, ['./src/services/UserService.ts', 'export const other = 1;\n']]);
    expect((await build({}, both)).manifest.fingerprints).toEqual(reference.manifest.fingerprints);
    // Two other spellings of one file with different contents: which one is meant is unknowable.
    const clash = new Map<string, Uint8Array | string>(contents);
    const user = clash.get('src/services/UserService.ts')!;
    clash.delete('src/services/UserService.ts');
    clash.set('./src/services/UserService.ts', user);
    clash.set('src//services/UserService.ts', 'export const other = 1;\n');
    const e = await rejection(build({}, clash));
    expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
    expect(e.message).toBe(
      'options.contents: 2 keys name src/services/UserService.ts once normalised (./ prefixes, doubled slashes, Unicode forms), with different contents; keep one, or key it as the index names it.',
    );
    // The same content under two spellings is no clash.
    clash.set('src//services/UserService.ts', user);
    expect((await build({}, clash)).manifest.fingerprints).toEqual(reference.manifest.fingerprints);
  });

  it('3: an unsupported encoding excludes the file; as the target it refuses', async () => {
    const weird = new Uint8Array([0x66, 0x6f, 0x81, 0x8d, 0x90, 0x9d, 0x6f]); // not UTF-8, undefined in windows-1252
    const c = new Map([...contents, ['src/db/client.ts', weird]]);
    const r = await build({}, c);
    expect(r.manifest.selection.excludedCandidates).toContainEqual({ path: 'src/db/client.ts', reason: 'binary' });
    const e = await rejection(build({ planStep: { id: 's', targetFiles: ['src/db/client.ts'] } }, c));
    expect(isCtxgateError(e, 'UNSUPPORTED_ENCODING')).toBe(true);
  });

  it('when several candidates would refuse, the first in path order decides, whichever check it fails', async () => {
    const weird = new Uint8Array([0x66, 0x6f, 0x81, 0x8d, 0x90, 0x9d, 0x6f]);
    const targets = { planStep: { id: 's', targetFiles: ['src/db/client.ts', 'src/services/UserService.ts'] } };
    // client.ts (earlier) cannot be decoded, UserService.ts (later) cannot be read.
    const first = new Map([...contents, ['src/db/client.ts', weird]]);
    first.delete('src/services/UserService.ts');
    expect(isCtxgateError(await rejection(build(targets, first)), 'UNSUPPORTED_ENCODING')).toBe(true);
    // client.ts (earlier) cannot be read, UserService.ts (later) cannot be decoded.
    const second = new Map([...contents, ['src/services/UserService.ts', weird]]);
    second.delete('src/db/client.ts');
    const e = await rejection(build(targets, second));
    expect(isCtxgateError(e, 'READ_FAILED')).toBe(true);
    expect(e.details.path).toBe('src/db/client.ts');
  });

  it('4: binary content is excluded (fail closed)', async () => {
    const r = await build();
    expect(r.manifest.selection.excludedCandidates).toContainEqual({ path: 'assets/logo.png', reason: 'binary' });
  });
});

describe('block ids and content hashes', () => {
  it('every block id derives from the SHA-256 of exactly the UTF-8 of the content sent, whatever the file encoding', async () => {
    const enc = new TextEncoder();
    const files = [
      { path: 'a/plain.ts', bytes: enc.encode('export const a = 1;\n') },
      { path: 'a/accents.md', bytes: enc.encode('# Café — naïve résumé\n') },
      { path: 'a/bom.ts', bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...enc.encode('export const bom = true;\n')]) },
      { path: 'a/legacy.txt', bytes: new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x0a]) }, // "café €" in windows-1252
      { path: 'a/text.ts', text: 'export const fromText = "é";\n' },
      { path: 'a/secret.ts', bytes: enc.encode(`export const token = "${FAKE_GITHUB_TOKEN}";\n`) },
    ];
    const idx = await engine.indexProject(files);
    const paths = files.map((f) => f.path);
    const r = await buildContext(
      { ...baseInput(), projectIndex: idx, planStep: { id: 's', targetFiles: paths } } as BuildContextInput,
      { contents: new Map(files.map((f) => [f.path, f.bytes ?? f.text!])), engine },
    );
    const fileBlocks = r.bundle.blocks.filter((b) => b.blockType === 'file');
    expect(fileBlocks.map((b) => b.title).sort()).toEqual([...paths].sort());
    expect(fileBlocks.find((b) => b.title === 'a/bom.ts')!.content).toBe('export const bom = true;\n');
    expect(fileBlocks.find((b) => b.title === 'a/legacy.txt')!.content).toBe('café €\n');
    expect(fileBlocks.find((b) => b.title === 'a/secret.ts')!.content).not.toContain(FAKE_GITHUB_TOKEN);
    for (const b of r.bundle.blocks) {
      expect(b.blockId).toBe(derivedUuid('block', b.blockType, b.priority, b.title, createHash('sha256').update(b.content, 'utf8').digest('hex')));
    }
    // The manifest keeps the hash of the bytes read, which differs from the content's where decoding changed them.
    const bom = r.manifest.selection.includedFiles.find((f) => f.path === 'a/bom.ts')!;
    expect(bom.hash).toBe(createHash('sha256').update(files[2]!.bytes!).digest('hex'));
    // A file given as text is sized by its UTF-8, in the index and in the manifest: "é" is 2 bytes.
    expect(idx.files.find((f) => f.path === 'a/text.ts')!.byteSize).toBe(30);
    expect(r.manifest.selection.includedFiles.find((f) => f.path === 'a/text.ts')!.byteSize).toBe(30);
  });
});

describe('input validation', () => {
  const cases: [string, (i: any) => void][] = [
    ['purpose', (i) => (i.purpose = 'review')],
    ['tokenBudget.maxInputTokens', (i) => (i.tokenBudget = { ...i.tokenBudget, maxInputTokens: -1 })],
    ['projectIndex.files[0].hash', (i) => (i.projectIndex = { ...i.projectIndex, files: [{ ...i.projectIndex.files[0], hash: 'XYZ' }] })],
    ['constraints.user', (i) => (i.constraints = { user: 'not a list' })],
    ['projectIndex.symbols[0].endLine', (i) => (i.projectIndex = { ...i.projectIndex, symbols: [{ name: 'a', path: 'a.ts', startLine: 5, endLine: 2 }] })],
  ];
  for (const [field, mutate] of cases) {
    it(`a malformed ${field} is INVALID_PARAMS naming it`, async () => {
      const i: any = structuredClone(input());
      mutate(i);
      const e = await rejection(buildContext(i, { contents, engine }));
      expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
      expect(e.details.field).toBe(field);
    });
  }
});

describe('logging restrictions', () => {
  it('log events carry paths, hashes, sizes, reasons and counts, never contents or secrets', async () => {
    const events: unknown[] = [];
    await buildContext(input(), { contents, engine, logger: (e) => events.push(e) });
    const text = JSON.stringify(events);
    expect(events.length).toBeGreaterThan(5);
    expect(text).toContain('src/db/client.ts');
    for (const f of files) {
      const body = new TextDecoder().decode(f.bytes);
      for (const line of body.split('\n').filter((l) => l.trim().length > 12)) expect(text.includes(line)).toBe(false);
    }
    expect(text.includes(FAKE_GITHUB_TOKEN)).toBe(false);
    const hidden: unknown[] = [];
    await buildContext(input(), { contents, engine, hidePathsInLogs: true, logger: (e) => hidden.push(e) });
    expect(JSON.stringify(hidden)).not.toContain('src/db/client.ts');
  });
});

describe('purpose: intent', () => {
  it('intent extraction sees project metadata only, no file contents', async () => {
    const r = await build({ purpose: 'intent', planStep: null });
    expect(r.bundle.blocks.map((b) => b.blockType)).toEqual(['system', 'constraints', 'project_meta', 'diff_hint']);
    // The never-send .env is not named, nor counted (spec 001, Never-Send Paths).
    expect(r.bundle.blocks.find((b) => b.blockType === 'project_meta')!.content).toBe('7 files\nassets/ (1 files)\npackage.json\nsrc/ (5 files)');
  });
});

describe('indexProject in batches', () => {
  it('reports progress and gives the same index and fingerprint as one call', async () => {
    const { indexProject } = await import('../../src/index.ts');
    const progress: [number, number][] = [];
    const batched = await indexProject(projectFiles(), { engine, symbols, dependencies, batchBytes: 1000, onProgress: (d, t) => progress.push([d, t]) });
    expect(batched).toEqual(index);
    expect(progress.length).toBeGreaterThan(2);
    expect(progress[progress.length - 1]).toEqual([8, 8]);
    expect(progress.map((p) => p[0])).toEqual([...progress.map((p) => p[0])].sort((a, b) => a - b));
  });
});

describe('indexProject and projectIndexFingerprint refuse arguments of the wrong kind', () => {
  const invalid = (e: any, field: string): void => {
    expect(isCtxgateError(e, 'INVALID_PARAMS'), String(e)).toBe(true);
    expect(e.details.field).toBe(field);
  };
  const text = (path: string, t: string) => ({ path, text: t });

  it('a path string is INVALID_PARAMS on source, pointing to readProjectFiles (a missing directory too)', async () => {
    const { indexProject } = await import('../../src/index.ts');
    for (const dir of ['src', '/no/such/directory/anywhere']) {
      const e = await rejection(indexProject(dir as never, { engine }));
      invalid(e, 'source');
      expect(e.message).toContain('readProjectFiles');
      expect(e.message).not.toContain(dir);
    }
  });

  it('source of another kind, or an item that is neither a project file nor a File, names it', async () => {
    const { indexProject } = await import('../../src/index.ts');
    invalid(await rejection(indexProject(null as never, { engine })), 'source');
    invalid(await rejection(indexProject({} as never, { engine })), 'source');
    invalid(await rejection(indexProject(42 as never, { engine })), 'source');
    invalid(await rejection(indexProject([text('a.ts', 'x'), 42] as never, { engine })), 'source[1]');
    invalid(await rejection(indexProject([{ path: 'a.ts', bytes: 'not bytes' }] as never, { engine })), 'source[0].bytes');
    invalid(await rejection(indexProject([{ path: 'a.ts', text: 5 }] as never, { engine })), 'source[0].text');
    invalid(await rejection(indexProject([{ path: 'a.ts', text: 'x', role: 7 }] as never, { engine })), 'source[0].role');
    invalid(await rejection(indexProject([new File(['x'], 'a.ts'), 'b.ts'] as never, { engine })), 'source[1]');
    // The engine checks the list it receives in the same way.
    invalid(await rejection(engine.indexProject([{ path: 'a.ts', text: 5 }] as never)), 'files[0].text');
    invalid(await rejection(engine.indexProject('a.ts' as never)), 'files');
  });

  it('options of the wrong kind name the option', async () => {
    const { indexProject } = await import('../../src/index.ts');
    const list = [text('a.ts', 'x')];
    invalid(await rejection(indexProject(list, null as never)), 'options');
    invalid(await rejection(indexProject(list, { engine, batchBytes: 'big' as never })), 'options.batchBytes');
    invalid(await rejection(indexProject(list, { engine, onProgress: 1 as never })), 'options.onProgress');
    invalid(await rejection(indexProject(list, { engine, symbols: {} as never })), 'options.symbols');
    invalid(await rejection(indexProject(list, { engine, dependencies: [null] as never })), 'options.dependencies[0]');
    // Each entry as the builder will read it, refused here rather than by a later build.
    invalid(await rejection(indexProject(list, { engine, symbols: [{ name: 'a', path: 'a.ts', startLine: 0, endLine: 1 }] })), 'options.symbols[0].startLine');
    invalid(await rejection(indexProject(list, { engine, symbols: [{ name: 'a', path: 'a.ts', startLine: 3, endLine: 2 }] })), 'options.symbols[0].endLine');
    invalid(await rejection(indexProject(list, { engine, dependencies: [{ from: 'a.ts', to: 'b.ts', kind: 'uses' }] as never })), 'options.dependencies[0].kind');
    const fn = await rejection(indexProject(list, { engine, symbols: [{ name: 'a', path: 'a.ts', startLine: 1, endLine: 1, meta: { at: new Date(0) } }] as never }));
    invalid(fn, 'options.symbols[0].meta.at');
    expect(fn.message).toBe('options.symbols[0].meta.at: is a Date, not a plain object or array, which JSON cannot represent as is; convert it first (dates as ISO-8601 strings, maps as plain objects)');
    // Members the builder does not read may be any JSON data; an optional member may be left undefined.
    const index = await indexProject(list, { engine, symbols: [{ name: 'a', path: 'a.ts', startLine: 1, endLine: 1, kind: undefined, docs: { lines: [1, 2] } } as never] });
    expect(index.symbols).toEqual([{ name: 'a', path: 'a.ts', startLine: 1, endLine: 1, kind: undefined, docs: { lines: [1, 2] } }]);
    // An entry whose own keys cannot be listed (a proxy whose ownKeys trap throws) is named itself.
    const unlistable = new Proxy({ from: 'a.ts', to: 'b.ts', kind: 'import' }, { ownKeys: () => { throw new Error('no keys'); } });
    invalid(await rejection(indexProject(list, { engine, dependencies: [unlistable] as never })), 'options.dependencies[0]');
    const getter = { name: 'a', path: 'a.ts', startLine: 1, endLine: 1, meta: { get at(): never { throw new Error('no'); } } };
    invalid(await rejection(indexProject(list, { engine, symbols: [getter] as never })), 'options.symbols[0].meta.at');
    invalid(await rejection(indexProject(list, { engine, sandbox: { deny: [1] } as never })), 'options.sandbox.deny[0]');
    invalid(await rejection(indexProject(list, { engine, gitignore: 'yes' as never })), 'options.gitignore');
    invalid(await rejection(indexProject(list, { engine, ignoreCase: 1 as never })), 'options.ignoreCase');
    invalid(await rejection(indexProject(list, { engine: {} as never })), 'options.engine');
  });

  it('Files or a directory handle that cannot be read are READ_FAILED with the cause', async () => {
    const { indexProject } = await import('../../src/index.ts');
    const gone = new DOMException('A requested file or directory could not be found.', 'NotFoundError');
    const handle = {
      kind: 'directory',
      name: 'project',
      values: () => ({
        [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(gone) }),
      }),
    };
    const e = await rejection(indexProject(handle as never, { engine }));
    expect(isCtxgateError(e, 'READ_FAILED')).toBe(true);
    expect(e.cause).toBe(gone);
    const file = new File(['x'], 'a.ts');
    Object.defineProperty(file, 'arrayBuffer', { value: () => Promise.reject(new DOMException('changed', 'NotReadableError')) });
    expect(isCtxgateError(await rejection(indexProject([file], { engine })), 'READ_FAILED')).toBe(true);
  });

  it('data a worker cannot receive (DataCloneError) is INVALID_PARAMS', async () => {
    const { indexProject } = await import('../../src/index.ts');
    const cloneFailure = new DOMException('() => 1 could not be cloned.', 'DataCloneError');
    const fake = { indexProject: () => Promise.reject(cloneFailure), fingerprint: () => Promise.reject(cloneFailure) };
    const e = await rejection(indexProject([text('a.ts', 'x')], { engine: fake as never }));
    expect(isCtxgateError(e, 'INVALID_PARAMS')).toBe(true);
    expect(e.cause).toBe(cloneFailure);
  });

  it('null bytes or text count as absent; valid lists index exactly as before', async () => {
    const withNull = await engine.indexProject([{ path: 'a.txt', bytes: null, text: 'hi\n' } as never]);
    expect(withNull).toEqual(await engine.indexProject([{ path: 'a.txt', text: 'hi\n' }]));
    invalid(await rejection(engine.indexProject([{ path: 'a.txt', bytes: null, text: null } as never])), 'files[0]');
  });

  it('projectIndexFingerprint names index, files and paths; values JSON cannot hold are UNSUPPORTED_VALUE', async () => {
    const { projectIndexFingerprint } = await import('../../src/index.ts');
    invalid(thrown(() => projectIndexFingerprint(undefined as never)), 'index');
    invalid(thrown(() => projectIndexFingerprint({ files: {} } as never)), 'index.files');
    invalid(thrown(() => projectIndexFingerprint({ files: [{ path: 1 }] } as never)), 'index.files[0].path');
    invalid(thrown(() => projectIndexFingerprint({ files: [], symbols: 'x' } as never)), 'index.symbols');
    const big = thrown(() => projectIndexFingerprint({ files: [], symbols: [{ name: 'a', path: 'a', startLine: 1n, endLine: 2 }] } as never));
    expect(isCtxgateError(big, 'UNSUPPORTED_VALUE')).toBe(true);
    expect(big.details.path).toBe('index.symbols[0]');
    expect(projectIndexFingerprint(index)).toBe(index.projectIndexFingerprint);
  });
});
