/**
 * Fits a rendered view into a token budget, in one defined order, and reports every cut
 * (spec 001 INV-CONTEXT-3: no silent truncation):
 *
 * 1. Drop whole older items (`drop` pieces), oldest first; among equally old items the one later
 *    in the view goes first. Only as many as needed.
 * 2. Truncate `truncate` pieces in the same order, each by the rule of `truncate.ts` (last
 *    sentence end, else last word boundary, else last character, then `...`); a piece that
 *    cannot fit even at its shortest is dropped and the next one is tried.
 * 3. If the protected remainder (current turn, pending state, task) still does not fit, refuse
 *    with `CONTEXT_TOO_LARGE` instead of cutting what must survive.
 *
 * Every check counts the whole rendered text, so the result fits by the counter's own measure
 * even when the counter is not additive across pieces.
 */
import { ContextTooLargeError } from '../errors.ts';
import type { TokenCount, TokenCounter } from '../tokens/counter.ts';
import { compareAge } from './compose.ts';
import { renderDocument } from './document.ts';
import type { Piece, ViewDocument } from './document.ts';
import { truncateToFit } from './truncate.ts';
import type { TruncationBoundary } from './truncate.ts';

/** One cut the budget made. */
export interface BudgetCut {
  /** The piece's id, e.g. `conversation.turn.3`. */
  id: string;
  action: 'dropped' | 'truncated';
  /** Where a truncation cut; `null` for drops. */
  boundary: TruncationBoundary | null;
  /** Tokens of the piece alone before the cut. */
  tokensBefore: number;
  /** Tokens of the piece alone after the cut (0 when dropped). */
  tokensAfter: number;
}

/** What the budget did to a view. */
export interface ViewBudgetReport {
  /** The budget applied; 0 means unlimited. */
  budgetTokens: number;
  /** Tokens of the view before any cut. */
  tokensBefore: number;
  /** Tokens of the rendered view. */
  tokensAfter: number;
  /** True when anything was cut. */
  wasCut: boolean;
  /** Cuts in the order they were made. */
  cuts: BudgetCut[];
}

/** A view fitted to its budget. */
export interface FittedView {
  text: string;
  tokens: TokenCount;
  budget: ViewBudgetReport;
}

/** Cut order: older first; among equals, the one later in the view first. */
function cutOrder(pieces: Array<{ piece: Piece; index: number }>): Piece[] {
  return [...pieces].sort((a, b) => compareAge(a.piece.age, b.piece.age) || b.index - a.index).map((p) => p.piece);
}

/** Fits `doc` into `budget` tokens (0 = unlimited) as described above. */
export function fitDocument(doc: ViewDocument, budget: number, counter: TokenCounter, node: string): FittedView {
  const full = renderDocument(doc);
  const before = counter(full);
  const report: ViewBudgetReport = { budgetTokens: budget, tokensBefore: before.tokens, tokensAfter: before.tokens, wasCut: false, cuts: [] };
  if (budget === 0 || before.tokens <= budget) return { text: full, tokens: before, budget: report };

  const indexed = doc.sections.flatMap((s) => s.groups.flatMap((g) => g.pieces)).map((piece, index) => ({ piece, index }));
  const droppable = cutOrder(indexed.filter((p) => p.piece.policy === 'drop'));
  const truncatable = cutOrder(indexed.filter((p) => p.piece.policy === 'truncate'));
  const overrides = new Map<string, string | null>();
  const measure = (o: ReadonlyMap<string, string | null>) => counter(renderDocument(doc, o));
  const dropFirst = (k: number) => new Map(droppable.slice(0, k).map((p) => [p.id, null] as const));
  const fits = (o: ReadonlyMap<string, string | null>) => measure(o).tokens <= budget;

  // Phase 1: the fewest whole older items. Binary search assumes dropping more never costs more;
  // the chosen count is verified, and the loop falls back to dropping them all.
  let dropped = droppable.length;
  if (droppable.length > 0) {
    let lo = 1;
    let hi = droppable.length;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (fits(dropFirst(mid))) {
        found = mid;
        hi = mid - 1;
      } else {
        lo = mid + 1;
      }
    }
    if (found !== -1) dropped = found;
  }
  for (const piece of droppable.slice(0, dropped)) {
    overrides.set(piece.id, null);
    report.cuts.push({ id: piece.id, action: 'dropped', boundary: null, tokensBefore: counter(piece.text).tokens, tokensAfter: 0 });
  }

  // Phase 2: shorten what may not be dropped whole, oldest first.
  for (const piece of truncatable) {
    if (fits(overrides)) break;
    const cut = truncateToFit(piece.text, (candidate) => fits(new Map(overrides).set(piece.id, candidate)));
    const tokensBefore = counter(piece.text).tokens;
    if (cut !== null) {
      overrides.set(piece.id, cut.text);
      report.cuts.push({ id: piece.id, action: 'truncated', boundary: cut.boundary, tokensBefore, tokensAfter: counter(cut.text).tokens });
      break;
    }
    overrides.set(piece.id, null);
    report.cuts.push({ id: piece.id, action: 'dropped', boundary: null, tokensBefore, tokensAfter: 0 });
  }

  const text = renderDocument(doc, overrides);
  const tokens = counter(text);
  if (tokens.tokens > budget) {
    throw new ContextTooLargeError(
      `The ${node} view needs ${tokens.tokens} tokens even with every cuttable item removed, over its budget of ${budget}. ` +
        'What remains is protected (the current turn, the pending state, the task): raise the budget or shorten those.',
      { details: { node, budgetTokens: budget, tokensBefore: before.tokens, minimumTokens: tokens.tokens } },
    );
  }
  report.tokensAfter = tokens.tokens;
  report.wasCut = report.cuts.length > 0;
  return { text, tokens, budget: report };
}
