// The README's code blocks, one case each, found by a distinctive substring of the block (`match`).
// A case either runs its block in Node once per variant, with the globals that stand for the
// user's own things (the prelude) and assertions of what the README claims around it, or says
// why the block is not runnable in Node (`notRunnable`). readme.mjs fails when a README block
// matches no case or a case no block, so a new or removed example cannot go unnoticed.
//
// Variants run in a fresh process in the consumer project (readme-harness/runner.mjs). They get:
//   t    assertions (ok, equal, deepEqual, includes, excludes), each one counted;
//   ctx  pkg: the installed 'ctxgate'; probe: what a block's `import … from 'ctxgate'` gets;
//        import(spec): import from the consumer project;
//        calls(name): what the block's calls of buildContext, indexProject and createCtxgate got
//        and returned; engines: every engine the block used, with its method calls; track(engine):
//        record an engine the prelude made; spy(name): a function recording its calls (in
//        ctx.spies[name]); sha256(bytes or string); outcome: { ok, ns } or { ok: false, error };
//        state: anything setup wants check to see.
// `expect: { rejects: CODE }` says the block itself must reject with that CtxgateError code;
// otherwise it must run to completion.

const PAT = ['ghp', '_', 'R7k2Qp9Xw4Lm8Zt1Vb6Nc3Hd5Jf0Gs2Ae7Ky'].join(''); // a GitHub token's shape, not a real one
const TARGET = 'src/services/UserService.ts';
const USER_SERVICE = `import type { User } from './User';

export class UserService {
  constructor(private readonly users: User[]) {}

  login(name: string): User | undefined {
    return this.users.find((u) => u.name === name);
  }
}
`;
const CDN = 'https://cdn.example.com/ctxgate.wasm';
const ASYNC_DISPOSE = Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose'); // what ctxgate's engines implement
const SHA_ABC = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';

/** Sample arguments for the synchronous forms the README names (readme.mjs checks the list). */
export const SYNC_SAMPLES = {
  sha256HexSync: { args: ['abc'], equals: SHA_ABC },
  sha256ManySync: { args: [['abc']], equals: [SHA_ABC] },
  fingerprintSync: { args: [{ b: 1, a: [true] }] },
  scanSecrets: { args: [`token = ${PAT}`] },
  estimateTokens: { args: ['hello world'] },
  crc32Sync: { args: ['hello'], equals: 0x3610a686 },
};

/** The prelude of the Quick start: the user's source file and their three handlers. */
const quickStartGlobals = (ctx, source) => ({
  source,
  send: ctx.spy('send'),
  showBudget: ctx.spy('showBudget'),
  askToMoveSecrets: ctx.spy('askToMoveSecrets'),
});

/** The Quick start's one buildContext call, and what its indexProject call was given and returned. */
function quickStart(t, ctx) {
  const builds = ctx.calls('buildContext');
  t.equal(builds.length, 1, 'the block calls buildContext once');
  const [indexed] = ctx.calls('indexProject');
  t.ok(indexed && !indexed.error, 'indexProject resolved');
  return { build: builds[0], index: indexed.value, files: indexed.args[0] };
}

/**
 * What the Quick start's `.env` comment promises ("never sent: matched by the default deny rules").
 * `.env` is not reachable from the target, so it never becomes a candidate of buildContext: the
 * manifest's excludedCandidates and `explain` do not list it (they cover candidates only). The deny
 * rule shows in the project index, where it was excluded before its content was read or hashed.
 */
function neverSent(t, ctx, result, files, index) {
  const env = files.find((f) => f.path === '.env');
  t.ok(env, "the README's files include .env");
  const everything = JSON.stringify(result);
  t.excludes(everything, env.text, '.env: its text is nowhere in the bundle, manifest, reports or explain');
  t.excludes(everything, env.text.split('=')[0], '.env: not even its variable name is sent');
  t.ok(
    result.bundle.blocks.every((b) => b.meta.path !== '.env' && b.title !== '.env'),
    '.env: no block is the .env file',
  );
  t.ok(!result.manifest.selection.includedFiles.some((f) => f.path === '.env'), '.env: not among the included files');
  // "matched by the default deny rules": the index excluded it for a deny rule without hashing it,
  // and the path gate with no options (the defaults) denies it for a rule.
  const entry = index.files.find((f) => f.path === '.env');
  t.equal(entry?.excluded, 'deny_rule', '.env: the index excludes it by a deny rule');
  t.equal(entry?.hash, '', '.env: its content was never hashed');
  const decision = ctx.pkg.createPathGate().check('.env');
  t.equal(decision.allowed, false, '.env: the default path gate does not allow it');
  t.equal(decision.reason, 'deny_rule', '.env: the default path gate denies it by a deny rule');
  t.ok(typeof decision.rule === 'string' && decision.rule.length > 0, `.env: the rule is named (${decision.rule})`);
}

export const CASES = [
  {
    id: 'quick-start',
    title: 'Quick start',
    match: 'await buildContext(',
    variants: [
      {
        name: 'a clean source file: sent ordered, within budget, fingerprinted; .env never sent',
        setup: (ctx) => quickStartGlobals(ctx, USER_SERVICE),
        async check(t, ctx) {
          const { build, index, files } = quickStart(t, ctx);
          t.ok(!build.error, `buildContext resolved${build.error ? `: ${build.error.stack}` : ''}`);
          const result = build.value;
          t.equal(ctx.spies.send.length, 1, 'send is called once');
          t.ok(ctx.spies.send[0][0] === result.bundle.blocks, 'send gets bundle.blocks');
          t.equal(ctx.spies.showBudget.length + ctx.spies.askToMoveSecrets.length, 0, 'no refusal handler is called');
          neverSent(t, ctx, result, files, index);
          // The target is sent, whole, as a file block, and the manifest says why.
          const target = result.bundle.blocks.find((b) => b.meta.path === TARGET);
          t.equal(target?.blockType, 'file', 'the target file is a file block');
          t.equal(target?.content, USER_SERVICE, 'the target is sent as written (nothing to redact)');
          t.deepEqual(result.manifest.selection.includedFiles.map((f) => [f.path, f.reason]), [[TARGET, 'target']], 'the manifest includes the target, as the target');
          t.deepEqual(result.redactionReport.redactions, [], 'nothing was redacted');
          // "ordered": by priority, then by block type.
          const rank = (b) => ctx.pkg.PRIORITIES.indexOf(b.priority) * 100 + ctx.pkg.BLOCK_TYPE_ORDER.indexOf(b.blockType);
          const ranks = result.bundle.blocks.map(rank);
          t.ok(ranks.every((r, i) => r >= 0 && (i === 0 || ranks[i - 1] <= r)), `blocks are ordered by priority and type: ${result.bundle.blocks.map((b) => `${b.priority}/${b.blockType}`).join(', ')}`);
          // "within budget".
          const b = result.budgetReport;
          const tokens = result.bundle.blocks.reduce((n, x) => n + x.meta.tokens, 0);
          t.equal(b.decision, 'ok', 'the budget decision is ok');
          t.equal(b.hardLimitTokens, 128000 - 4000, 'the hard limit is max input minus the response reserve');
          t.ok(tokens <= b.estimatedInputTokens && b.estimatedInputTokens <= b.hardLimitTokens, `the blocks' ${tokens} tokens are counted and within the hard limit`);
          // "manifest.fingerprints identify it exactly": the same input gives the same fingerprints
          // and blocks; one changed byte in the source gives another bundle fingerprint.
          const fps = result.manifest.fingerprints;
          for (const k of ['projectIndexFingerprint', 'configFingerprint', 'bundleFingerprint']) t.ok(/^[0-9a-f]{64}$/.test(fps[k]), `manifest.fingerprints.${k} is a SHA-256`);
          await new Promise((r) => setTimeout(r, 5)); // a later createdAt must not matter
          const again = await ctx.pkg.buildContext(...build.args);
          t.deepEqual(again.manifest.fingerprints, fps, 'rebuilding the same input gives the same fingerprints');
          t.deepEqual(again.bundle.blocks, result.bundle.blocks, 'rebuilding the same input gives the same blocks');
          const changed = files.map((f) => (f.path === TARGET ? { ...f, text: f.text.replace('find', 'findLast') } : f));
          const other = await ctx.pkg.buildContext(
            { ...build.args[0], projectIndex: await ctx.pkg.indexProject(changed) },
            { ...build.args[1], contents: new Map(changed.map((f) => [f.path, f.text])) },
          );
          t.ok(other.manifest.fingerprints.bundleFingerprint !== fps.bundleFingerprint, 'a changed source changes the bundle fingerprint');
        },
      },
      {
        name: 'a source holding a token: redacted before it is sent',
        setup: (ctx) => quickStartGlobals(ctx, USER_SERVICE.replace('  constructor', `  private readonly token = '${PAT}';\n\n  constructor`)),
        check(t, ctx) {
          const { build, index, files } = quickStart(t, ctx);
          t.ok(!build.error, 'buildContext resolved');
          const result = build.value;
          t.equal(ctx.spies.send.length, 1, 'send is called once');
          t.ok(ctx.spies.send[0][0] === result.bundle.blocks, 'send gets bundle.blocks');
          t.equal(ctx.spies.showBudget.length + ctx.spies.askToMoveSecrets.length, 0, 'no refusal handler is called');
          t.excludes(JSON.stringify(result), PAT, 'the token is nowhere in what buildContext returns');
          t.includes(result.bundle.blocks.find((b) => b.meta.path === TARGET)?.content ?? '', "token = '[REDACTED:github-pat:1]'", 'the token is replaced by its placeholder');
          const r = result.redactionReport.redactions;
          t.ok(r.length === 1 && r[0].type === 'pattern_redacted' && r[0].target === TARGET && r[0].reason === 'secret' && r[0].details.includes('github-pat'), `the redaction report names the rule: ${JSON.stringify(r)}`);
          neverSent(t, ctx, result, files, index);
        },
      },
      {
        name: 'a source holding a likely password: SECRET_RISK, askToMoveSecrets gets where and which rule, never the value',
        setup: (ctx) => quickStartGlobals(ctx, USER_SERVICE.replace('    return', '    const password = "Tr0ub4dor-and-3";\n    return')),
        check(t, ctx) {
          const { build } = quickStart(t, ctx);
          t.ok(ctx.pkg.isCtxgateError(build.error, 'SECRET_RISK'), `buildContext refused with SECRET_RISK (${build.error?.code})`);
          t.equal(build.error.name, 'SecretRiskError', 'as a SecretRiskError');
          t.equal(ctx.spies.askToMoveSecrets.length, 1, 'askToMoveSecrets is called once');
          const details = ctx.spies.askToMoveSecrets[0][0];
          t.ok(details === build.error.details, 'with e.details');
          t.equal(details.path, TARGET, 'details name the file');
          const source = ctx.state.globals.source.split('\n');
          const line = source.findIndex((l) => l.includes('Tr0ub4dor')) + 1;
          const column = source[line - 1].indexOf('Tr0ub4dor') + 1;
          t.deepEqual(
            details.findings.map((f) => [f.ruleId, f.line, f.column]),
            [['generic-password', line, column]],
            'details say where (line:column) and which rule',
          );
          t.excludes(JSON.stringify(details), 'Tr0ub4dor', 'details never hold the value');
          t.excludes(build.error.message, 'Tr0ub4dor', 'nor does the message');
          t.deepEqual(JSON.parse(JSON.stringify(details)), details, 'details are JSON-safe');
          t.equal(ctx.spies.send.length + ctx.spies.showBudget.length, 0, 'nothing is sent');
        },
      },
      {
        name: 'a source too large for the model: CONTEXT_TOO_LARGE, showBudget gets the budget report',
        setup: (ctx) =>
          quickStartGlobals(
            ctx,
            USER_SERVICE.replace('    return', Array.from({ length: 8000 }, (_, i) => `    const v${i} = name.charCodeAt(${i % 97}) * ${i} + Math.floor(${(i * 7919) % 10007} / 3);\n`).join('') + '    return'),
          ),
        check(t, ctx) {
          const { build } = quickStart(t, ctx);
          t.ok(ctx.pkg.isCtxgateError(build.error, 'CONTEXT_TOO_LARGE'), `buildContext refused with CONTEXT_TOO_LARGE (${build.error?.code})`);
          t.equal(build.error.name, 'ContextTooLargeError', 'as a ContextTooLargeError');
          t.equal(ctx.spies.showBudget.length, 1, 'showBudget is called once');
          const report = ctx.spies.showBudget[0][0];
          t.ok(report === build.error.details.budgetReport, 'with e.details.budgetReport');
          t.equal(report.decision, 'refuse_hard_limit', 'the report says refused');
          t.ok(report.estimatedInputTokens > report.hardLimitTokens, `it needs ${report.estimatedInputTokens} tokens, over the hard limit ${report.hardLimitTokens}`);
          t.equal(ctx.spies.send.length + ctx.spies.askToMoveSecrets.length, 0, 'nothing is sent');
        },
      },
    ],
  },
  {
    id: 'create-ctxgate',
    title: 'createCtxgate with await using',
    match: 'await using cg = await createCtxgate()',
    // `file`: "string, bytes, Blob/File or stream", one variant each.
    variants: [
      ['a string', () => 'hello, ctxgate\n'.repeat(5000)],
      ['bytes (Uint8Array)', (b) => b],
      ['a Blob', (b) => new Blob([b])],
      ['a File', (b) => new File([b], 'notes.txt')],
      ['a ReadableStream', (b) => new ReadableStream({ start: (c) => { for (let i = 0; i < b.length; i += 4096) c.enqueue(b.slice(i, i + 4096)); c.close(); } })],
    ].map(([kind, make]) => ({
      name: `file is ${kind}: hashed in-thread, then disposed`,
      setup(ctx) {
        ctx.state.bytes = new TextEncoder().encode('hello, ctxgate\n'.repeat(5000));
        return { file: make(ctx.state.bytes) };
      },
      async check(t, ctx) {
        const made = ctx.calls('createCtxgate');
        t.equal(made.length, 1, 'createCtxgate is called once');
        t.ok(!made[0].error, 'createCtxgate resolved');
        const [engine] = ctx.engines;
        t.equal(engine.engine.mode, 'inline', 'in-thread on Node');
        const hashes = engine.calls.filter((c) => c.method === 'sha256Hex');
        t.equal(hashes.length, 1, 'cg.sha256Hex is called once');
        t.ok(hashes[0].args[0] === ctx.state.globals.file, 'with file');
        t.equal(hashes[0].value, ctx.sha256(ctx.state.bytes), 'it resolves to the SHA-256 of the bytes, as a hex string');
        t.ok(engine.calls.at(-1)?.method === ASYNC_DISPOSE, '`await using` disposed the engine at the end of the block');
        const after = await engine.engine.sha256Hex('abc').then(() => null, (e) => e);
        t.ok(ctx.pkg.isCtxgateError(after, 'WORKER_CLOSED'), `after the block the engine is closed (${after?.code})`);
      },
    })),
  },
  {
    id: 'wasm-source',
    title: 'createCtxgate from a CDN URL, or in-thread',
    match: 'cdn.example.com',
    // Node has no network here: fetch is replaced by one that serves the packed .wasm for the
    // README's URL and throws for any other, so the URL path runs without leaving the machine.
    // The block imports createCtxgate itself, so it can be copied on its own; the import reaches
    // the recorded package like every block's.
    variants: [
      {
        name: 'the URL serves the .wasm (fetch stubbed, no network): both engines load',
        setup: (ctx) => cdn(ctx, 200),
        async check(t, ctx) {
          t.deepEqual(ctx.state.fetched, [CDN], 'the core is fetched once, from the URL given');
          const made = ctx.calls('createCtxgate');
          t.equal(made.length, 2, 'createCtxgate is called twice');
          t.ok(made[0].args[0].wasm instanceof URL && made[0].args[0].wasm.href === CDN, 'first with the URL');
          t.deepEqual(made[1].args[0], { worker: false }, 'then with worker: false');
          t.ok(made.every((m) => !m.error), 'both resolve');
          for (const [i, e] of ctx.engines.entries()) {
            t.equal(e.engine.mode, 'inline', `engine ${i + 1} runs in-thread`);
            t.equal(await e.engine.sha256Hex('abc'), SHA_ABC, `engine ${i + 1} works`);
          }
        },
      },
      {
        name: 'the URL answers 404: WASM_LOAD_FAILED',
        setup: (ctx) => cdn(ctx, 404),
        expect: { rejects: 'WASM_LOAD_FAILED' },
        check(t, ctx) {
          t.deepEqual(ctx.state.fetched, [CDN], 'the core is fetched once, from the URL given');
          t.equal(ctx.outcome.error.details?.status, 404, 'the error details carry the HTTP status');
          t.equal(ctx.calls('createCtxgate').length, 1, 'the block stops at the failed load');
        },
      },
    ],
  },
  {
    id: 'vite-config',
    title: 'vite.config.js',
    match: 'optimizeDeps',
    notRunnable:
      "Vite's dev-server configuration: what it claims (vite dev starts ctxgate's worker with it, not without) needs `vite dev` and a browser; " +
      'here it is only loaded as a module and its names checked against the packed package',
    variants: [
      {
        name: "it is a module whose optimizeDeps name ctxgate and ctxgate's own dependencies",
        async check(t, ctx) {
          const config = ctx.outcome.ns.default;
          t.ok(config && typeof config === 'object', 'it exports the configuration object');
          t.ok(config.optimizeDeps.exclude.includes('ctxgate'), 'ctxgate is excluded from pre-bundling');
          const pkgJson = await ctx.readPackageJson();
          for (const entry of config.optimizeDeps.include) {
            const m = /^ctxgate > ((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(entry);
            t.ok(m, `${entry} is written as "ctxgate > dependency"`);
            t.ok(Object.hasOwn(pkgJson.dependencies ?? {}, m[1]), `${m[1]} is a dependency of the packed ctxgate`);
            t.ok(await ctx.resolvesFromPackage(m[1] + (m[2] ?? '')), `${m[1] + (m[2] ?? '')} resolves from the installed ctxgate`);
          }
        },
      },
    ],
  },
  {
    id: 'errors',
    title: 'Errors: branch on code',
    match: 'cg.crc32(input)',
    variants: [
      {
        name: 'an in-thread engine and a string: crc32 resolves, restart is not called',
        async setup(ctx) {
          return { cg: ctx.track(await ctx.pkg.createCtxgate()), input: 'hello', restart: ctx.spy('restart') };
        },
        check(t, ctx) {
          const [call] = ctx.engines[0].calls.filter((c) => c.method === 'crc32');
          t.equal(call?.value, 0x3610a686, 'cg.crc32(input) resolves to the CRC-32');
          t.equal(ctx.spies.restart.length, 0, 'restart is not called');
        },
      },
      {
        name: 'a worker engine and a bad input: the error crosses the worker boundary whole, restart is not called',
        async setup(ctx) {
          return { cg: ctx.track(await ctx.pkg.createCtxgate({ worker: await inProcessWorker(ctx) })), input: 42, restart: ctx.spy('restart') };
        },
        check(t, ctx) {
          t.equal(ctx.engines[0].engine.mode, 'worker', 'the engine drives a worker');
          const [call] = ctx.engines[0].calls.filter((c) => c.method === 'crc32');
          const e = call?.error;
          t.ok(e instanceof ctx.pkg.CtxgateError, 'cg.crc32(42) rejects with a CtxgateError');
          t.ok(ctx.pkg.isCtxgateError(e, 'INVALID_PARAMS'), `with code INVALID_PARAMS (${e?.code})`);
          t.equal(e.name, 'CtxgateError', 'a literal name');
          t.equal(e.details.field, 'input', 'details.field names the argument');
          t.deepEqual(JSON.parse(JSON.stringify(e.details)), e.details, 'details are JSON-safe');
          t.equal(ctx.spies.restart.length, 0, 'restart is not called');
        },
      },
      {
        name: 'a worker engine whose worker crashed: WORKER_CRASHED, restart is called',
        async setup(ctx) {
          const worker = await inProcessWorker(ctx);
          const cg = ctx.track(await ctx.pkg.createCtxgate({ worker }));
          // What a browser does when a worker's message cannot be deserialised (Node 20 has no
          // ErrorEvent, so the `error` event cannot be used here).
          worker.dispatchEvent(new Event('messageerror'));
          return { cg, input: 'hello', restart: ctx.spy('restart') };
        },
        async check(t, ctx) {
          const [call] = ctx.engines[0].calls.filter((c) => c.method === 'crc32');
          t.ok(ctx.pkg.isCtxgateError(call?.error, 'WORKER_CRASHED'), `cg.crc32 rejects with WORKER_CRASHED (${call?.error?.code})`);
          t.equal(ctx.spies.restart.length, 1, 'restart is called once');
          const later = await ctx.engines[0].engine.sha256Hex('abc').then(() => null, (e) => e);
          t.ok(ctx.pkg.isCtxgateError(later, 'WORKER_CRASHED'), 'later calls reject too');
        },
      },
    ],
  },
];

/** Replaces fetch: the README's CDN URL answers with the packed .wasm (or `status`), others throw. */
async function cdn(ctx, status) {
  const globals = { createCtxgate: ctx.probe.createCtxgate };
  const bytes = await ctx.readPackageFile('ctxgate/ctxgate.wasm');
  ctx.state.fetched = [];
  globalThis.fetch = async (input) => {
    const url = input instanceof Request ? input.url : String(input);
    ctx.state.fetched.push(url);
    if (url !== CDN) throw new Error(`unexpected fetch of ${url}: this test has no network`);
    return status === 200 ? new Response(bytes, { headers: { 'content-type': 'application/wasm' } }) : new Response('not found', { status });
  };
  return globals;
}

/**
 * A Web Worker stand-in in this process: the packed `ctxgate/worker` entry listening on one end
 * of a MessageChannel (as `self` would in a worker), the engine on the other. Messages are
 * structured-cloned between the two ends exactly as between a page and its worker.
 */
async function inProcessWorker(ctx) {
  const { port1, port2 } = new MessageChannel();
  for (const k of ['addEventListener', 'removeEventListener', 'postMessage']) globalThis[k] = port2[k].bind(port2);
  await ctx.import('ctxgate/worker');
  port2.start();
  port1.terminate = () => {
    port1.close();
    port2.close();
  };
  return port1;
}
