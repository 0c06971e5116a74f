// Runs one README block in this consumer project: node runner.mjs CASES_URL CASE VARIANT BLOCK.
// Sets the variant's globals (the user's own things the block names), imports the block (its
// 'ctxgate' is probe.mjs, see hooks.mjs), checks what the README claims, and prints
// `README-RESULT {"assertions":N}`. Any failure exits non-zero with the reason.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { inspect } from 'node:util';

// A failure prints its stack (with README.md line numbers for the block) and exits non-zero.
process.on('uncaughtException', (error) => {
  console.error(inspect(error, { depth: 4 }));
  process.exit(1);
});

register('./hooks.mjs', import.meta.url);
const { record, track } = await import('./track.mjs');
const [casesUrl, caseId, variantName, blockFile] = process.argv.slice(2);
const pkg = await import('ctxgate');
const { CASES } = await import(casesUrl);
const variant = CASES.find((c) => c.id === caseId)?.variants?.find((v) => v.name === variantName);
if (!variant) throw new Error(`no variant ${JSON.stringify(variantName)} in case ${caseId}`);

let assertions = 0;
const counted = (fn) => (...args) => {
  assertions++;
  fn(...args);
};
const t = {
  ok: counted((value, message) => assert.ok(value, message)),
  equal: counted((actual, expected, message) => assert.equal(actual, expected, message)),
  deepEqual: counted((actual, expected, message) => assert.deepEqual(actual, expected, message)),
  includes: counted((text, part, message) => assert.ok(String(text).includes(part), `${message}\n  ${JSON.stringify(part)} is missing`)),
  excludes: counted((text, part, message) => assert.ok(!String(text).includes(part), `${message}\n  ${JSON.stringify(part)} is there`)),
};
const require = createRequire(import.meta.url);
const ctx = {
  pkg,
  probe: await import('./probe.mjs'),
  import: (specifier) => import(specifier),
  calls: (name) => record.calls.filter((c) => c.fn === name),
  engines: record.engines,
  track,
  spies: {},
  spy(name) {
    const calls = (ctx.spies[name] = []);
    return (...args) => void calls.push(args);
  },
  sha256: (data) => createHash('sha256').update(data).digest('hex'),
  readPackageFile: async (specifier) => new Uint8Array(await readFile(require.resolve(specifier))),
  readPackageJson: async () => JSON.parse(await readFile(require.resolve('ctxgate/package.json'), 'utf8')),
  resolvesFromPackage: async (specifier) => {
    try {
      return Boolean(createRequire(require.resolve('ctxgate/package.json')).resolve(specifier));
    } catch {
      return false;
    }
  },
  state: {},
  outcome: undefined,
};

const globals = (await variant.setup?.(ctx)) ?? {};
ctx.state.globals = globals;
for (const [name, value] of Object.entries(globals)) Object.defineProperty(globalThis, name, { value, writable: true, configurable: true });

ctx.outcome = await import(pathToFileURL(blockFile).href).then(
  (ns) => ({ ok: true, ns }),
  (error) => ({ ok: false, error }),
);
if (variant.expect?.rejects) {
  t.ok(!ctx.outcome.ok, `the block rejects with ${variant.expect.rejects}`);
  t.ok(pkg.isCtxgateError(ctx.outcome.error, variant.expect.rejects), `the block rejects with ${variant.expect.rejects}, not ${ctx.outcome.error?.code ?? ctx.outcome.error}`);
} else if (!ctx.outcome.ok) {
  throw ctx.outcome.error;
}
await variant.check?.(t, ctx);
for (const { engine } of record.engines) await engine.close().catch(() => {});
await pkg.shutdown();
console.log(`README-RESULT ${JSON.stringify({ assertions })}`);
process.exit(0);
