/**
 * How deep JSON data nests, for the modules that refuse data nested past a fixed limit (tool
 * outputs and limits, agent contexts) instead of letting an engine's stack decide, which differs
 * between runtimes. As with json-fault.ts, callers serialise first and look at the text; the value
 * is walked only to name the place once the text (or JSON.stringify's stack) showed it is too deep.
 */

/**
 * Path segments (`['a', 3]`) of the first array or object in `root` that lies `limit` levels below
 * it (root at level 0), or undefined. A member that refers back to one of its ancestors is not
 * followed: a cycle is not depth, and callers report it their own way. With `followToJSON`, values
 * are replaced by their `toJSON(key)` first, as JSON.stringify does. The recursion stops at the
 * limit, so it never goes deeper than the limit itself.
 */
export function pathBeyondDepth(root: unknown, limit: number, followToJSON = false): PropertyKey[] | undefined {
  const open = new Set<object>();
  const segments: PropertyKey[] = [];
  const visit = (input: unknown, key: string, left: number): boolean => {
    let v = input;
    if (followToJSON && v !== null && typeof v === 'object') {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === 'function') v = toJSON.call(v, key);
    }
    if (v === null || typeof v !== 'object' || open.has(v)) return false;
    if (left <= 0) return true;
    open.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        segments.push(i);
        if (visit(v[i], String(i), left - 1)) return true;
        segments.pop();
      }
    } else {
      for (const k of Object.keys(v)) {
        segments.push(k);
        if (visit((v as Record<string, unknown>)[k], k, left - 1)) return true;
        segments.pop();
      }
    }
    open.delete(v);
    return false;
  };
  return visit(root, '', limit) ? segments : undefined;
}

/** True when JSON `text` nests arrays and objects more than `max` levels deep. Linear in the text. */
export function jsonTextNestingExceeds(text: string, max: number): boolean {
  // Each level takes two characters at least.
  if (text.length <= 2 * max) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: its closing quote is the next one not escaped by an odd run of `\`.
      let j = text.indexOf('"', i + 1);
      while (j !== -1) {
        let slashes = 0;
        while (text.charCodeAt(j - 1 - slashes) === 0x5c) slashes++;
        if (slashes % 2 === 0) break;
        j = text.indexOf('"', j + 1);
      }
      if (j === -1) return false;
      i = j;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > max) return true;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return false;
}
