// The record of what a README block called, shared by probe.mjs and runner.mjs.
export const record = (globalThis[Symbol.for('ctxgate.readme.record')] ??= { calls: [], engines: [] });

/** Calls fn, noting the arguments and what it returned or threw (sync or async) in `entry`. */
export function observe(entry, fn, self, args) {
  entry.args = args;
  let out;
  try {
    out = fn.apply(self, args);
  } catch (error) {
    entry.error = error;
    throw error;
  }
  if (out && typeof out.then === 'function') {
    return out.then(
      (value) => ((entry.value = value), value),
      (error) => {
        entry.error = error;
        throw error;
      },
    );
  }
  entry.value = out;
  return out;
}

/** The engine as is, with every method call recorded (`await using` included). */
export function track(engine) {
  const entry = { engine, calls: [] };
  record.engines.push(entry);
  return new Proxy(engine, {
    get(target, key) {
      const value = Reflect.get(target, key, target);
      if (typeof value !== 'function') return value;
      return (...args) => {
        const call = { method: key }; // a string, or a symbol such as Symbol.asyncDispose
        entry.calls.push(call);
        return observe(call, value, target, args);
      };
    },
  });
}
