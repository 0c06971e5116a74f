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
  const n = keys.length;
  if (groups.length !== n) throw invalidParams('groups', `expected ${n} groups (one per key), got ${groups.length}`);
  const encoded = keys.map((k) => encoder.encode(k));
  let keyBytes = 0;
  for (const e of encoded) keyBytes += e.byteLength;
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
  if (p === undefined) throw invalidParams('priority', `must be one of ${PRIORITIES.join(', ')}, got ${JSON.stringify(priority)}`);
  const t = typeRank.get(blockType);
  if (t === undefined) throw invalidParams('blockType', `must be one of ${BLOCK_TYPE_ORDER.join(', ')}, got ${JSON.stringify(blockType)}`);
  return (p << 8) | t;
}

/**
 * The INV-CONTEXT-1 order of context blocks, computed in the core: priority P0→P3, then block type
 * in the fixed order, then the key bytewise; stable. Returns the permutation of input indices.
 */
export function sortBlockKeysSync(items: readonly BlockSortKey[]): Uint32Array {
  return sortByGroupAndKeySync(
    items.map((b) => blockGroup(b.priority, b.blockType)),
    items.map((b) => b.key),
  );
}

/** Bytewise UTF-8 comparison of two strings (code point order), for callers outside the core. */
export function compareUtf8(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}
