import type { CanonicalParts } from './namespace-pass.ts';
import type { JsonTape } from './json-tape.ts';
import { recordTapeWithSizes, tapeMatches } from './json-tape.ts';
import type { AgentContext } from './model.ts';
import { NAMESPACES } from './model.ts';

/**
 * What is known about one namespace of one context, valid for as long as the namespace still
 * matches {@link NamespaceMemo.tape}. Each fact is a pure function of the namespace's JSON data
 * (and member order), so a namespace proven unchanged by the tape has the same facts.
 */
export interface NamespaceMemo {
  /** The namespace as it was when these facts were computed; undefined for a throwaway memo. */
  readonly tape: JsonTape | undefined;
  /** Bytes of `JSON.stringify(namespace)` as UTF-8. */
  jsonBytes?: number;
  /** An upper bound of `jsonBytes`, counted without reading the namespace's strings (json-size.ts). */
  maxJsonBytes?: number;
  /**
   * RFC 8785 text of the namespace (its long strings are the namespace's own string values, shared,
   * not copied; see namespace-pass.ts).
   */
  canonical?: string;
  /** The parts `canonical` was put together from, from which its size is counted without joining it. */
  canonicalParts?: CanonicalParts;
  /** The namespace passed the JSON-safety walk and its schema, as a member of its context. */
  valid?: boolean;
}

/**
 * Per context object, one memo per namespace (in {@link NAMESPACES} order). Weak, so a context
 * that is dropped takes its memos with it. Contexts are mutable plain objects and may be changed
 * without the store seeing it, so an entry is never trusted by identity: {@link provenMemo}
 * re-proves it with the tape on every use.
 */
const memos = new WeakMap<object, (NamespaceMemo | undefined)[]>();

/**
 * The remembered memo of namespace number `index` of `context` if the namespace still matches its
 * tape; otherwise undefined, and the stale memo is forgotten.
 */
export function provenMemo(context: AgentContext, index: number): NamespaceMemo | undefined {
  const known = memos.get(context)?.[index];
  if (known === undefined) return undefined;
  if (known.tape !== undefined && tapeMatches(context[NAMESPACES[index]!], known.tape)) return known;
  memos.get(context)![index] = undefined;
  return undefined;
}

/** Remembers `memo` (which must carry the tape of the namespace as it is now) for namespace number `index`. */
export function rememberMemo(context: AgentContext, index: number, memo: NamespaceMemo): void {
  let byIndex = memos.get(context);
  if (byIndex === undefined) memos.set(context, (byIndex = new Array<NamespaceMemo | undefined>(NAMESPACES.length).fill(undefined)));
  byIndex[index] = memo;
}

/**
 * The memos of the seven namespaces of `context`, in {@link NAMESPACES} order, each true of the
 * namespace as it is now: the remembered one where the namespace still matches its tape, else a
 * fresh one holding the namespace's tape (recorded now, remembered) and the upper bound of its JSON
 * size, and its exact JSON size too if `exact` (counted in the same walk), or a throwaway one
 * without a tape where the namespace is not plain JSON data and so cannot be proven unchanged later.
 */
export function currentMemos(context: AgentContext, exact = false): NamespaceMemo[] {
  const out: NamespaceMemo[] = [];
  for (let i = 0; i < NAMESPACES.length; i++) {
    const known = provenMemo(context, i);
    if (known !== undefined) {
      out.push(known);
      continue;
    }
    const recorded = recordTapeWithSizes(context[NAMESPACES[i]!], exact);
    if (recorded === undefined) {
      out.push({ tape: undefined });
      continue;
    }
    const fresh: NamespaceMemo = { tape: recorded.tape, maxJsonBytes: recorded.maxJsonBytes, jsonBytes: recorded.jsonBytes };
    rememberMemo(context, i, fresh);
    out.push(fresh);
  }
  return out;
}
