// Tiny DOM helpers. Text always goes in through text nodes, never innerHTML, so nothing a
// project file contains can become markup.

type Child = Node | string | number | null | undefined | false;
type Children = Child | readonly Children[];
type Attrs = Record<string, string | number | boolean | null | undefined | EventListener>;

/** Creates an element with attributes (`on*` keys become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Children[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') el.addEventListener(key.slice(2), value);
    else if (key === 'class') el.className = String(value);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** Appends children (flattened; falsy ones skipped). */
export function append(el: Node, children: readonly Children[]): void {
  for (const c of (children as unknown[]).flat(Infinity as 1) as Child[]) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(typeof c === 'string' || typeof c === 'number' ? document.createTextNode(String(c)) : c);
  }
}

/**
 * A path as code that a narrow table breaks after its slashes, not between any two letters
 * (`src/da/ta/…`): a line-break opportunity follows each `/`, and the CSS breaks inside a segment
 * only when it alone is wider than the cell.
 */
export function pathCode(path: string): HTMLElement {
  return h('code', { class: 'path' }, path.split('/').map((part, i, all) => (i < all.length - 1 ? [part, '/', h('wbr')] : part)));
}

/** Replaces an element's children. */
export function replace(el: Element, ...children: Children[]): void {
  el.replaceChildren();
  append(el, children);
}

/** The element with this id (throws if the page shell lacks it: a build mistake, not a user one). */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`#${id} missing from index.html`);
  return el as T;
}

/** Groups digits for people: 12345 -> "12,345". */
export const fmt = (n: number): string => n.toLocaleString('en-US');

/** Bytes for people. */
export function fmtBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

/** Runs `fn` once `ms` after the last call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, ms: number): (...args: A) => void {
  let t: ReturnType<typeof setTimeout> | undefined;
  return (...args) => {
    clearTimeout(t);
    t = setTimeout(() => fn(...args), ms);
  };
}

/** Lets the browser paint and handle input between batches. */
export const nextFrame = (): Promise<void> => new Promise((r) => setTimeout(r, 0));

/** Placeholders written by ctxgate's redaction, e.g. `[REDACTED:github-pat:1]`. */
export const PLACEHOLDER = /\[REDACTED:[A-Za-z0-9_.-]+:\d+\]/g;

/**
 * Renders text with every redaction placeholder wrapped in a <mark>. The placeholder is shown;
 * the secret it replaced never reached this thread.
 */
export function withPlaceholders(text: string, idPrefix?: string): DocumentFragment {
  const frag = document.createDocumentFragment();
  let last = 0;
  let n = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    const at = m.index ?? 0;
    if (at > last) frag.append(text.slice(last, at));
    const mark = h('mark', { class: 'redacted', title: 'Secret removed by ctxgate; only the placeholder is sent' }, m[0]);
    if (idPrefix) mark.id = `${idPrefix}-${n++}`;
    frag.append(mark);
    last = at + m[0].length;
  }
  if (last < text.length) frag.append(text.slice(last));
  return frag;
}

/** Copies text, with a fallback for pages without the async clipboard. */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const ta = h('textarea', { 'aria-hidden': 'true', style: 'position:fixed;left:-9999px' });
    ta.value = text;
    document.body.append(ta);
    ta.select();
    const ok = document.execCommand('copy');
    ta.remove();
    return ok;
  }
}
