// Module resolution hook for README blocks (registered by runner.mjs): a block's
// `import … from 'ctxgate'` gets probe.mjs, the installed package with its calls recorded.
// Everything else, including probe.mjs's own import of 'ctxgate', resolves as usual.
const probe = new URL('./probe.mjs', import.meta.url).href;

export async function resolve(specifier, context, nextResolve) {
  if (specifier === 'ctxgate' && context.parentURL?.includes('/readme-blocks/')) return { url: probe, shortCircuit: true };
  return nextResolve(specifier, context);
}
