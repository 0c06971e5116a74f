import { expectArray, expectString, kindOf, notOneOf, wrongItem } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { withCore } from './core.ts';

/** Block priorities, highest first (spec 001). */
export const PRIORITIES = ['P0', 'P1', 'P2', 'P3'] as const;
/** A block priority. */
export type Priority = (typeof PRIORITIES)[number];

/** Block types in their fixed tie-break order (spec 001, INV-CONTEXT-1). */
export const BLOCK_TYPE_ORDER = ['system', 'constraints', 'project_meta', 'file', 'symbol', 'error_context', 'diff_hint'] as const;
/** A context block type. */
export type BlockType = (typeof BLOCK_TYPE_ORDER)[number];

/** What the block sort looks at. `key` is the path for files, the symbol for symbols, else the title. */
export interface BlockSortKey {
  readonly priority: Priority;
  readonly blockType: BlockType;
  readonly key: string;
}

const encoder = new TextEncoder();
const priorityRank = new Map<string, number>(PRIORITIES.map((p, i) => [p, i]));
const typeRank = new Map<string, number>(BLOCK_TYPE_ORDER.map((t, i) => [t, i]));

/**
 * Sorts by a numeric group, then by key compared bytewise in UTF-8, stable, in the core. Returns
 * the permutation: `result[k]` is the input index of the k-th item. Synchronous: needs the core.
 *
 * All keys go into the core in one copy. Bytewise UTF-8 order equals code point order, which
 * differs from JavaScript's `<` on strings (UTF-16 code units) for characters above U+FFFF versus
 * U+E000–U+FFFF.
 */
export function sortByGroupAndKeySync(groups: ArrayLike<number>, keys: readonly string[]): Uint32Array {
  if (groups === null || typeof groups !== 'object' || typeof groups.length !== 'number') {
    throw invalidParams('groups', `must be an array or a typed array of numbers (got ${kindOf(groups)}).`, {
      expected: 'an array of numbers',
      got: kindOf(groups),
    });
  }
  expectArray(keys, 'keys');
  const n = keys.length;
  if (groups.length !== n) throw invalidParams('groups', `expected ${n} groups (one per key), got ${groups.length}`);
  // One pass encodes the keys and checks both lists' items (`>>> 0` below would throw a TypeError
  // on a symbol or a bigint; the encoder would turn a non-string into some text).
  const encoded = new Array<Uint8Array>(n);
  let keyBytes = 0;
  for (let i = 0; i < n; i++) {
    const k = keys[i];
    if (typeof k !== 'string') throw wrongItem('keys', i, 'a string', k);
    if (typeof groups[i] !== 'number') throw wrongItem('groups', i, 'a number', groups[i]);
    const e = encoder.encode(k);
    encoded[i] = e;
    keyBytes += e.byteLength;
  }
  return withCore((core) => {
    const metaBytes = n * 12;
    const ptr = core.writeBytes(new Uint8Array(metaBytes + keyBytes));
    const view = core.view(ptr, metaBytes + keyBytes);
    const meta = new DataView(view.buffer, view.byteOffset, metaBytes);
    let at = 0;
    for (let i = 0; i < n; i++) {
      const e = encoded[i]!;
      meta.setUint32(i * 12, groups[i]! >>> 0, true);
      meta.setUint32(i * 12 + 4, at, true);
      meta.setUint32(i * 12 + 8, e.byteLength, true);
      view.set(e, metaBytes + at);
      at += e.byteLength;
    }
    core.raw.sortBlocks(ptr, ptr + metaBytes, n);
    const out = core.readOutput();
    return new Uint32Array(out.buffer, out.byteOffset, n);
  });
}

/** The sort group of a block: priority first, then the fixed block-type rank. */
export function blockGroup(priority: string, blockType: string): number {
  const p = priorityRank.get(priority);
  if (p === undefined) throw notOneOf('priority', PRIORITIES, priority);
  const t = typeRank.get(blockType);
  if (t === undefined) throw notOneOf('blockType', BLOCK_TYPE_ORDER, blockType);
  return (p << 8) | t;
}

/**
 * Checks a list of block sort keys, as {@link sortBlockKeysSync} does while it walks them: an array
 * of objects with a known `priority` and `blockType` and a string `key`. INVALID_PARAMS otherwise,
 * naming `items` (with the index in details), `priority`, `blockType` or `key`. For callers that
 * send the list elsewhere (the worker) and want the error in their own thread.
 */
export function checkBlockSortKeys(items: unknown): asserts items is readonly BlockSortKey[] {
  blockSortGroups(items);
}

/** The sort groups of `items`, checking each item on the way. */
function blockSortGroups(items: unknown): { groups: number[]; keys: string[] } {
  expectArray(items, 'items');
  const n = items.length;
  const groups = new Array<number>(n);
  const keys = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const b = items[i] as BlockSortKey;
    if (b === null || typeof b !== 'object') throw wrongItem('items', i, 'an object', b);
    groups[i] = blockGroup(b.priority, b.blockType);
    const key = b.key;
    if (typeof key !== 'string') throw invalidParams('key', `must be a string (got ${kindOf(key)}).`, { index: i, expected: 'a string', got: kindOf(key) });
    keys[i] = key;
  }
  return { groups, keys };
}

/**
 * The INV-CONTEXT-1 order of context blocks, computed in the core: priority P0→P3, then block type
 * in the fixed order, then the key bytewise; stable. Returns the permutation of input indices.
 */
export function sortBlockKeysSync(items: readonly BlockSortKey[]): Uint32Array {
  const { groups, keys } = blockSortGroups(items);
  return sortByGroupAndKeySync(groups, keys);
}

/** Bytewise UTF-8 comparison of two strings (code point order), for callers outside the core. */
export function compareUtf8(a: string, b: string): number {
  expectString(a, 'a');
  expectString(b, 'b');
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
