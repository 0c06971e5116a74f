// Node 20 lacks Map.groupBy, Object.groupBy and Promise.withResolvers, which Vitest 5 uses when it
// reports failures and writes snapshots. Loaded with `node --import` by the test scripts only; the
// library itself never relies on them.
if (!Map.groupBy) {
  Map.groupBy = (items, key) => {
    const map = new Map();
    let i = 0;
    for (const item of items) {
      const k = key(item, i++);
      const list = map.get(k);
      if (list) list.push(item);
      else map.set(k, [item]);
    }
    return map;
  };
}
if (!Object.groupBy) {
  Object.groupBy = (items, key) => {
    const out = Object.create(null);
    let i = 0;
    for (const item of items) (out[key(item, i++)] ??= []).push(item);
    return out;
  };
}
if (!Promise.withResolvers) {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
