/**
 * The rendered form of a view before budgeting: sections (one per layer, with the spec's
 * `## …` headings), groups (`### …` sub-headings) and pieces (the units a budget can cut).
 * Each piece says how it may be cut and how old it is, which fixes the cut order.
 */

/**
 * `protected`: never cut (the current turn, the pending state, the task, empty-section notes).
 * `truncate`: may be shortened, and dropped only when even the shortest cut does not fit.
 * `drop`: an older item, removed whole before anything is truncated.
 */
export type CutPolicy = 'protected' | 'truncate' | 'drop';

/** One cuttable unit of text (one entity, one turn, one step, one summary…). */
export interface Piece {
  /** Stable id used in budget reports, e.g. `conversation.turn.3`, `entity.active.recipe_1`. */
  id: string;
  text: string;
  policy: CutPolicy;
  /** `[turn, sub]`, compared in order: the smaller is older and cut first. Summaries are `[-1, 0]`. */
  age: [number, number];
}

/** A sub-heading and its pieces. */
export interface Group {
  /** `### …` line, or `null` for pieces directly under the section heading. */
  header: string | null;
  pieces: Piece[];
}

/** One layer's section. */
export interface Section {
  /** The `## …` heading text. */
  title: string;
  groups: Group[];
  /** Shown when the layer has nothing to show at all. */
  empty: string;
}

/** A whole view. */
export interface ViewDocument {
  sections: Section[];
  /** Rendered under `---` / `## Your Task`; never cut. */
  task: string | null;
}

/** What the budget did to each piece: replaced text, or `null` when dropped. */
export type PieceOverrides = ReadonlyMap<string, string | null>;

/** Text of the note left where a group lost whole items to the budget. */
export function omissionNote(count: number): string {
  return `[${count} item${count === 1 ? '' : 's'} omitted to fit the token budget]`;
}

/** Renders a document, applying the budget's overrides. Byte-identical for identical input. */
export function renderDocument(doc: ViewDocument, overrides: PieceOverrides = new Map()): string {
  const parts: string[] = [];
  for (const section of doc.sections) {
    const lines: string[] = [];
    for (const group of section.groups) {
      const texts: string[] = [];
      let omitted = 0;
      for (const piece of group.pieces) {
        const override = overrides.has(piece.id) ? overrides.get(piece.id) : piece.text;
        if (override === null || override === undefined) omitted++;
        else texts.push(override);
      }
      if (texts.length === 0 && omitted === 0) continue;
      if (group.header !== null) lines.push(group.header);
      if (omitted > 0) lines.push(omissionNote(omitted));
      lines.push(...texts);
    }
    parts.push(`## ${section.title}\n${lines.length > 0 ? lines.join('\n') : section.empty}`);
  }
  if (doc.task !== null) parts.push(`---\n## Your Task\n${doc.task}`);
  return parts.join('\n\n');
}
