/**
 * Spec 000 §4 "Skill tree > 20 skills: group by category". A big tree is shown as groups with
 * counts instead of a long flat list, so the model sees the shape before the detail.
 */
import { expectArray, expectObject, kindOf } from '../args.ts';
import { invalidParams } from '../errors.ts';
import { expectInteger, expectOptionalFunction } from './checks.ts';
import { GLOBAL_LIMITS } from './limits.ts';

/** One category of a grouped tree. */
export interface CategoryGroup<V> {
  readonly category: string;
  readonly count: number;
  readonly items: readonly V[];
}

/** Result of {@link groupByCategory}. */
export type GroupedTree<N, V> =
  | { readonly grouped: false; readonly nodes: readonly N[]; readonly originalCount: number }
  | { readonly grouped: true; readonly groups: readonly CategoryGroup<V>[]; readonly originalCount: number };

/** Options of {@link groupByCategory}. */
export interface GroupByCategoryOptions<N, V> {
  /** A node's category (a field name, or a function). */
  category: string | ((node: N) => string);
  /** Child nodes, to flatten a real tree depth-first before counting (default: the input is flat). */
  children?: (node: N) => readonly N[] | undefined;
  /** Group only trees with more nodes than this (default 20). */
  threshold?: number;
  /** Compact form of a node inside a group (default: the node itself). */
  item?: (node: N) => V;
}

/**
 * Counts the nodes (flattening `children` depth-first, parents first) and, above `threshold`,
 * returns them grouped by category in order of first appearance, each with its count. Nodes
 * without a category go to `"uncategorized"`. `tree` must be an array and `options.category` a
 * field name or a function (else INVALID_PARAMS).
 */
export function groupByCategory<N, V = N>(tree: readonly N[], options: GroupByCategoryOptions<N, V>): GroupedTree<N, V> {
  expectArray(tree, 'tree');
  expectObject(options, 'options');
  if (typeof options.category !== 'string' && typeof options.category !== 'function') {
    throw invalidParams('options.category', `must be a field name or a function of a node (got ${kindOf(options.category)}).`);
  }
  expectOptionalFunction(options.children, 'options.children');
  expectOptionalFunction(options.item, 'options.item');
  const threshold = options.threshold ?? GLOBAL_LIMITS.treeGroupThreshold;
  expectInteger(threshold, 'threshold', 0);
  const flat: N[] = [];
  const walk = (nodes: readonly N[], depth: number): void => {
    if (depth > 256) throw invalidParams('tree', 'is nested deeper than 256 levels or contains a cycle; pass a finite tree');
    for (const n of nodes) {
      flat.push(n);
      const kids = options.children?.(n);
      if (kids && kids.length > 0) {
        if (typeof (kids as { [Symbol.iterator]?: unknown })[Symbol.iterator] !== 'function') {
          throw invalidParams('options.children', `must return an array of child nodes or undefined (returned ${kindOf(kids)}).`);
        }
        walk(kids, depth + 1);
      }
    }
  };
  walk(tree, 0);
  if (flat.length <= threshold) return { grouped: false, nodes: flat, originalCount: flat.length };
  const categoryOf =
    typeof options.category === 'function'
      ? options.category
      : (n: N) => (n === null || n === undefined ? undefined : (n as Record<string, unknown>)[options.category as string]) as string;
  const toItem = options.item ?? ((n: N) => n as unknown as V);
  const groups = new Map<string, V[]>();
  for (const n of flat) {
    const raw = categoryOf(n);
    const cat = typeof raw === 'string' && raw !== '' ? raw : 'uncategorized';
    let g = groups.get(cat);
    if (!g) groups.set(cat, (g = []));
    g.push(toItem(n));
  }
  return {
    grouped: true,
    groups: [...groups.entries()].map(([category, items]) => ({ category, count: items.length, items })),
    originalCount: flat.length,
  };
}
