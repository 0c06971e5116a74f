/**
 * The byte-fitting engine behind the output wrappers. Sizes are computed from each item's own JSON
 * once, so finding how many items fit is arithmetic plus a binary search rather than serialising
 * the whole output again and again (a 10,000-item list stays cheap). The final output is always
 * measured once more for real before it is returned.
 */
import { ContextTooLargeError } from '../errors.ts';
import { toJsonText, utf8ByteLength } from './bytes.ts';
import { codePointLength, safeCutIndex, safeCutIndexForward } from '../encoding/utf16.ts';

/** One list to fit: its key in the output and the candidate items, best first. */
export interface ListCandidate {
  readonly key: string;
  readonly items: readonly unknown[];
}

/** Result of {@link fitLists}: how many items of each list fit. */
export interface FitResult {
  readonly counts: readonly number[];
}

const META_KEY_BYTES = utf8ByteLength('"_meta":');

/**
 * Finds how many items of each list fit `maxBytes` once serialised as
 * `{ ...envelope, [key]: items.slice(0, count), _meta: metaFor(counts) }`. Items are dropped from
 * the longest list first (water-filling), from the end of each list. Returns `undefined` when not
 * even empty lists fit.
 */
export function fitLists(
  envelope: Record<string, unknown>,
  lists: readonly ListCandidate[],
  metaFor: (counts: readonly number[]) => unknown,
  maxBytes: number,
): FitResult | undefined {
  const emptied: Record<string, unknown> = { ...envelope };
  for (const l of lists) emptied[l.key] = [];
  delete emptied._meta;
  const shell = toJsonText(emptied);
  const shellBytes = utf8ByteLength(shell) + META_KEY_BYTES + (shell === '{}' ? 0 : 1);
  const prefix = lists.map((l) => {
    const sums = new Array<number>(l.items.length + 1);
    sums[0] = 0;
    for (let i = 0; i < l.items.length; i++) sums[i + 1] = (sums[i] as number) + utf8ByteLength(toJsonText(l.items[i]));
    return sums;
  });
  const total = (counts: readonly number[]): number => {
    let bytes = shellBytes + utf8ByteLength(toJsonText(metaFor(counts)));
    counts.forEach((k, i) => {
      if (k > 0) bytes += (prefix[i] as number[])[k]! + (k - 1);
    });
    return bytes;
  };
  const caps = lists.map((l) => l.items.length);
  if (total(caps) <= maxBytes) return { counts: caps };
  const capped = (c: number) => caps.map((cap) => Math.min(cap, c));
  if (total(capped(0)) > maxBytes) return undefined;
  let lo = 0;
  let hi = Math.max(0, ...caps);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (total(capped(mid)) <= maxBytes) lo = mid;
    else hi = mid - 1;
  }
  const counts = capped(lo);
  // Lists longer than the cap may each take one more item, earlier lists first.
  for (let i = 0; i < counts.length; i++) {
    if ((caps[i] as number) > lo) {
      counts[i] = lo + 1;
      if (total(counts) > maxBytes) counts[i] = lo;
    }
  }
  return { counts };
}

/** Result of {@link shrinkStrings}. */
export interface ShrinkResult<T> {
  readonly value: T;
  /** JSON paths of the strings that were shortened. */
  readonly paths: readonly string[];
}

/**
 * Last resort when dropping list items is not enough: shortens the longest strings (keeping their
 * head and tail around an `…[N chars omitted]…` marker) until the JSON fits. `_meta` is never
 * touched. `rebuild` re-attaches metadata that depends on which paths were shortened.
 * Throws CONTEXT_TOO_LARGE when nothing long enough is left to cut.
 */
export function shrinkStrings<T>(value: T, maxBytes: number, rebuild: (value: T, paths: readonly string[]) => T): ShrinkResult<T> {
  const current = JSON.parse(toJsonText(value)) as T;
  const paths: string[] = [];
  const originals = new Map<string, string>();
  const keeps = new Map<string, number>();
  for (let round = 0; round < 256; round++) {
    const candidate = rebuild(current, paths);
    const size = utf8ByteLength(toJsonText(candidate));
    if (size <= maxBytes) return { value: candidate, paths };
    const longest = findLongestString(current);
    if (longest === undefined || longest.text.length <= 48) {
      throw new ContextTooLargeError(
        `The output needs ${size} bytes but its limit is ${maxBytes}, even after dropping list items and shortening long strings. Raise maxBytes for this tool or return fewer fields.`,
        { details: { bytes: size, maxBytes } },
      );
    }
    const original = originals.get(longest.path) ?? longest.text;
    originals.set(longest.path, original);
    const keep = keeps.get(longest.path) ?? original.length;
    // Characters per byte of this string, so the cut in characters covers the excess in bytes
    // (plus room for the marker, which grows with the omitted count).
    const charsPerByte = longest.text.length / Math.max(1, utf8ByteLength(longest.text));
    const cut = Math.ceil((size - maxBytes + 32) * charsPerByte);
    const nextKeep = Math.max(0, Math.min(keep - 1, keep - cut));
    keeps.set(longest.path, nextKeep);
    longest.set(cutMiddle(original, nextKeep).text);
    if (!paths.includes(longest.path)) paths.push(longest.path);
  }
  throw new ContextTooLargeError(`The output could not be shortened to ${maxBytes} bytes. Raise maxBytes for this tool or return fewer fields.`, {
    details: { maxBytes },
  });
}

/** Result of {@link cutMiddle}. */
export interface MiddleCut {
  readonly text: string;
  /** Code points removed (the marker is not counted). */
  readonly omittedChars: number;
}

/**
 * Keeps about `keepChars` UTF-16 units of `text`, 70% from the head and 30% from the tail, with an
 * `…[N chars omitted]…` marker in between. Never splits a surrogate pair.
 */
export function cutMiddle(text: string, keepChars: number): MiddleCut {
  if (keepChars >= text.length) return { text, omittedChars: 0 };
  const headEnd = safeCutIndex(text, Math.floor(keepChars * 0.7));
  const tailStart = safeCutIndexForward(text, text.length - (keepChars - headEnd));
  const omitted = codePointLength(text.slice(headEnd, tailStart));
  return { text: `${text.slice(0, headEnd)}…[${omitted} chars omitted]…${text.slice(tailStart)}`, omittedChars: omitted };
}

interface StringSlot {
  readonly text: string;
  readonly path: string;
  set(next: string): void;
}

function findLongestString(root: unknown): StringSlot | undefined {
  let best: StringSlot | undefined;
  const visit = (node: unknown, path: string, depth: number): void => {
    if (node === null || typeof node !== 'object' || depth > 64) return;
    const entries: [string | number, unknown][] = Array.isArray(node)
      ? node.map((v, i) => [i, v])
      : Object.entries(node).filter(([k]) => !(depth === 0 && k === '_meta'));
    for (const [k, v] of entries) {
      const childPath = typeof k === 'number' ? `${path}[${k}]` : path === '' ? k : `${path}.${k}`;
      if (typeof v === 'string') {
        if (best === undefined || v.length > best.text.length) {
          const holder = node as Record<string | number, unknown>;
          best = { text: v, path: childPath, set: (next) => (holder[k] = next) };
        }
      } else visit(v, childPath, depth + 1);
    }
  };
  visit(root, '', 0);
  return best;
}
