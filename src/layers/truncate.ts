/**
 * The one truncation rule every cut in the layered views follows (the rule of spec 003's
 * `truncateToTokenBudget`): cut at the last sentence end (`. ` or `.\n`) that fits, else at the
 * last word boundary that fits, else at the last character (code point) that fits, and append
 * `...`. The result is always shorter than the input and never empty before the `...`.
 *
 * "Fits" is a predicate, so the same rule serves token budgets (where only a render of the whole
 * view can say whether it fits) and character caps.
 */

/** Where a truncation cut. */
export type TruncationBoundary = 'sentence' | 'word' | 'char';

/** A truncated text and the kind of boundary it was cut at. */
export interface Truncation {
  text: string;
  boundary: TruncationBoundary;
}

/** Appended to every truncated text. */
export const ELLIPSIS = '...';

function sentenceCuts(text: string): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < text.length - 1; i++) {
    if (text[i] === '.' && (text[i + 1] === ' ' || text[i + 1] === '\n')) cuts.push(i);
  }
  return cuts;
}

function wordCuts(text: string): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < text.length; i++) {
    if (/\s/.test(text[i] as string) && !/\s/.test(text[i - 1] as string)) cuts.push(i);
  }
  return cuts;
}

function charCuts(text: string): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Never split a surrogate pair: a lone half would not survive UTF-8 encoding intact.
    if (code >= 0xdc00 && code <= 0xdfff && (text.charCodeAt(i - 1) & 0xfc00) === 0xd800) continue;
    cuts.push(i);
  }
  return cuts;
}

/** The text cut at `cut`, or why there is none: nothing left (early cuts) or not shorter (late ones). */
function candidate(text: string, cut: number): string | 'empty' | 'too-long' {
  const kept = text.slice(0, cut).trimEnd();
  if (kept === '') return 'empty';
  const out = kept + ELLIPSIS;
  return out.length < text.length ? out : 'too-long';
}

/**
 * The longest cut of `text` under the rule above for which `fits` is true, or `null` when no cut
 * fits. `text` itself is not tried: call this only when it does not fit. `fits` is assumed to be
 * monotone (shorter text fits at least as well) for speed, but every returned text was checked.
 */
export function truncateToFit(text: string, fits: (candidate: string) => boolean): Truncation | null {
  const kinds: Array<[TruncationBoundary, number[]]> = [
    ['sentence', sentenceCuts(text)],
    ['word', wordCuts(text)],
    ['char', charCuts(text)],
  ];
  for (const [boundary, cuts] of kinds) {
    // Candidates are built lazily: materialising one per character would be quadratic.
    let lo = 0;
    let hi = cuts.length - 1;
    let best: string | null = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const cut = candidate(text, cuts[mid] as number);
      if (cut === 'empty') {
        lo = mid + 1;
      } else if (cut !== 'too-long' && fits(cut)) {
        best = cut;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (best !== null) return { text: best, boundary };
  }
  return null;
}

/** `text` cut to at most `maxChars` UTF-16 units by the rule above (unchanged when it fits). */
export function clipChars(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  return truncateToFit(text, (c) => c.length <= maxChars)?.text ?? '';
}
