import type { JsonTape } from './json-tape.ts';
import { recordTape, tapeMatches } from './json-tape.ts';
import type { AgentContext, Namespace } from './model.ts';
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
  /** RFC 8785 text of the namespace. */
  canonical?: string;
  /** The namespace passed the JSON-safety walk and its schema, as a member of its context. */
  valid?: boolean;
}

/**
 * Per context object, one memo per namespace. Weak, so a context that is dropped takes its memos
 * with it. Contexts are mutable plain objects and may be changed without the store seeing it, so
 * an entry is never trusted by identity: {@link namespaceMemos} re-proves it with the tape on every
 * use, and replaces it when the namespace changed.
 */
const memos = new WeakMap<object, Map<Namespace, NamespaceMemo>>();

/**
 * The memos of the seven namespaces of `context`, in {@link NAMESPACES} order: the remembered one
 * where the namespace still matches its tape, a fresh one (recorded now, remembered) where it does
 * not, and a throwaway one where the namespace is not plain JSON data and so cannot be proven
 * unchanged later.
 */
export function namespaceMemos(context: AgentContext): NamespaceMemo[] {
  let byNamespace = memos.get(context);
  if (byNamespace === undefined) memos.set(context, (byNamespace = new Map()));
  const out: NamespaceMemo[] = [];
  for (const ns of NAMESPACES) {
    const value: unknown = context[ns];
    const known = byNamespace.get(ns);
    if (known?.tape !== undefined && tapeMatches(value, known.tape)) {
      out.push(known);
      continue;
    }
    const tape = recordTape(value);
    const fresh: NamespaceMemo = { tape };
    if (tape === undefined) byNamespace.delete(ns);
    else byNamespace.set(ns, fresh);
    out.push(fresh);
  }
  return out;
}
