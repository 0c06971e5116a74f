// README prose claims, checked in this consumer project (Node or Deno):
//   claims.mjs sync '{"names":{"fn":{"args":[…],"equals":…}},"remedy":"loadCore"}'
//     each synchronous form throws NOT_INITIALIZED, synchronously, until `await remedy()`; then works.
//   claims.mjs api '{"names":["buildContext","ctxgate/fs",…],"rules":182}'
//     each name is an export of 'ctxgate' (or an importable subpath); RULES has that many rules.
// Prints `README-RESULT {"assertions":N}`; any failure throws.
import * as ctxgate from 'ctxgate';

const [mode, json] = globalThis.Deno ? Deno.args : process.argv.slice(2);
const input = JSON.parse(json);
let assertions = 0;
const ok = (value, message) => {
  assertions++;
  if (!value) throw new Error(message);
};
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

if (mode === 'sync') {
  const { names, remedy } = input;
  for (const [name, sample] of Object.entries(names)) {
    ok(typeof ctxgate[name] === 'function', `${name} is an exported function`);
    let thrown;
    try {
      const out = ctxgate[name](...sample.args);
      ok(!(out && typeof out.then === 'function'), `${name} is synchronous`);
    } catch (error) {
      thrown = error;
    }
    ok(ctxgate.isCtxgateError(thrown, 'NOT_INITIALIZED'), `${name} before the core loads throws NOT_INITIALIZED, got ${thrown?.code ?? thrown ?? 'a result'}`);
  }
  ok(typeof ctxgate[remedy] === 'function', `${remedy} is an exported function`);
  await ctxgate[remedy]();
  for (const [name, sample] of Object.entries(names)) {
    let out;
    try {
      out = ctxgate[name](...sample.args);
    } catch (error) {
      ok(false, `${name} after \`await ${remedy}()\` still throws ${error?.code ?? error}`);
    }
    ok(!(out && typeof out.then === 'function'), `${name} after \`await ${remedy}()\` returns a value, not a promise`);
    if ('equals' in sample) ok(same(out, sample.equals), `${name}(${sample.args.map((a) => JSON.stringify(a)).join(', ')}) = ${JSON.stringify(out)}, expected ${JSON.stringify(sample.equals)}`);
  }
  await ctxgate.shutdown();
} else if (mode === 'api') {
  for (const name of input.names) {
    if (name.startsWith('ctxgate/')) {
      const loaded = await import(name).then((m) => Object.keys(m).length > 0, () => false);
      ok(loaded, `${name} can be imported and exports something`);
    } else {
      ok(name in ctxgate && ctxgate[name] !== undefined, `${name} is exported by 'ctxgate'`);
    }
  }
  ok(ctxgate.RULES.length === input.rules, `README says ${input.rules} rules, RULES has ${ctxgate.RULES.length}`);
} else {
  throw new Error(`unknown mode ${mode}`);
}
console.log(`README-RESULT ${JSON.stringify({ assertions })}`);
if (!globalThis.Deno) process.exit(0);
