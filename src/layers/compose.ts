/**
 * Applies a recipe to a state: selects what the node may see of each layer (the structured
 * selection a host can inspect) and lays it out in the spec's prompt format (the document the
 * budget then cuts). Pure and deterministic: no clock, no locale, no iteration over unordered keys.
 *
 * A selection never shares an object with the state: strings and numbers are copied by value, and
 * JSON data (entity data, step results) and lists are copied where a view shows them, so a host
 * that edits a view cannot change the state it came from. Nothing a view does not show is copied.
 */
import { compareRefs, doNotReReadRefs, sortIntoTiers } from './entities.ts';
import type { Group, Piece, Section, ViewDocument } from './document.ts';
import type {
  ConversationTurn,
  CurationDecision,
  CurationSummary,
  CurrentTurn,
  EntityRecord,
  EntitySnapshot,
  JsonValue,
  LayeredContextState,
  PendingState,
  StepSummary,
  TurnExecutionSummary,
} from './model.ts';
import type {
  ConversationLayerRecipe,
  EntityDetail,
  EntityLayerRecipe,
  ReasoningLayerRecipe,
  StepDetail,
  ViewRecipe,
} from './recipes.ts';

/** An entity as a view sees it: only the fields its detail level allows. */
export type EntityProjection = Partial<EntitySnapshot> & { data?: JsonValue | null };

/** A step as a view sees it: only the fields its detail level allows. */
export type StepProjection = Partial<StepSummary> & { stepNum: number };

/** What a view selected of the entity layer. */
export interface EntitySelection {
  active: EntityProjection[];
  generated: EntityProjection[];
  retained: EntityProjection[];
  /** Refs Think must not read again, or `null` when the recipe does not ask for the list. */
  doNotReRead: string[] | null;
}

/** What a view selected of the conversation layer (`null` fields were not asked for or are empty). */
export interface ConversationSelection {
  historySummary: string | null;
  engagementSummary: string | null;
  recentTurns: ConversationTurn[];
  pending: PendingState | null;
  /** The turn in progress; always included when there is one. */
  current: CurrentTurn | null;
}

/** A turn's execution as a view sees it. */
export interface TurnProjection {
  turnNum: number;
  thinkDecision?: string | null;
  thinkGoal?: string | null;
  steps: StepProjection[];
  blockedReason?: string | null;
}

/** What a view selected of the reasoning layer. */
export interface ReasoningSelection {
  reasoningSummary: string | null;
  completedTurns: TurnProjection[];
  currentTurn: TurnProjection | null;
  curation: CurationSummary | null;
  curationHistory: CurationDecision[] | null;
  conversationPhase: string | null;
  userExpressed: string | null;
  lastTurnLine: string | null;
  prevStepNote: string | null;
}

/** The structured selection of a view: one entry per layer in the recipe, `null` for the others. */
export interface ViewSelection {
  entity: EntitySelection | null;
  conversation: ConversationSelection | null;
  reasoning: ReasoningSelection | null;
}

/** Section headings, exactly as spec 002's prompt injection pattern names them. */
export const SECTION_TITLES = {
  entity: 'Entity Context',
  conversation: 'Conversation History',
  reasoning: 'What Happened (Reasoning Trace)',
} as const;

/** A line break, as editors and some renderers show one: CR, LF, U+2028, U+2029. */
const LINE_BREAK = /[\r\n\u2028\u2029]/;

/**
 * Keeps a one-line field on one line, so a newline in a label cannot fake a heading: each run of
 * whitespace that holds a line break becomes one space. Matched run by run (`\s+` never overlaps
 * itself), because a pattern like `\s*[\r\n]+` retries from every blank of a long run without a
 * line break: quadratic in the run's length.
 */
function line(text: string): string {
  const value = str(text);
  if (!LINE_BREAK.test(value)) return value;
  return value.replace(/\s+/g, (run) => (LINE_BREAK.test(run) ? ' ' : run));
}

/**
 * A string field of the state as it is rendered. Deeper parts of a state are not walked at entry
 * (guard.ts); a field of the wrong kind must still fail rather than render as `undefined`, and
 * readingState turns the failure into INVALID_PARAMS naming the field.
 */
function str(value: string): string {
  if (typeof value !== 'string') throw new TypeError('a rendered field is not a string');
  return value;
}

/** A number field of the state as it is rendered (see {@link str}). */
function num(value: number): number {
  if (typeof value !== 'number') throw new TypeError('a rendered field is not a number');
  return value;
}

/** JSON with object keys sorted bytewise, so the same data always renders the same text. */
export function canonicalJson(value: JsonValue): string {
  if (value === null || typeof value !== 'object') {
    // undefined, a function or a symbol has no JSON text: a malformed state, not the text "undefined".
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) throw new TypeError('a rendered field is not JSON data');
    return text;
  }
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value).sort(compareRefs);
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k] as JsonValue)}`).join(',')}}`;
}

function projectEntity(e: EntityRecord, detail: EntityDetail): EntityProjection {
  switch (detail) {
    case 'refs':
      return { ref: e.ref };
    case 'labels':
      return { label: e.label };
    case 'refs-labels':
      return { ref: e.ref, label: e.label };
    default: {
      const snapshot: EntityProjection = {
        ref: e.ref,
        type: e.type,
        label: e.label,
        status: e.status,
        turnCreated: e.turnCreated,
        turnLastRef: e.turnLastRef,
        retentionReason: e.retentionReason,
      };
      // Records come from the state itself (sortIntoTiers): the data is copied, never shared.
      if (detail === 'data') snapshot.data = structuredClone(e.data);
      return snapshot;
    }
  }
}

function entityText(e: EntityRecord, detail: EntityDetail): string {
  switch (detail) {
    case 'refs':
      return `- ${line(e.ref)}`;
    case 'labels':
      return `- ${line(e.label)}`;
    case 'refs-labels':
      return `- ${line(e.ref)}: ${line(e.label)}`;
    default: {
      const retained = e.retentionReason === null ? '' : `; retained: ${line(e.retentionReason)}`;
      const head =
        `- ${line(e.ref)} [${line(e.type)}] ${line(e.label)} ` +
        `(status: ${str(e.status)}; created turn ${num(e.turnCreated)}; last referenced turn ${num(e.turnLastRef)}${retained})`;
      return detail === 'data' && e.data !== null ? `${head}\n  data: ${canonicalJson(e.data)}` : head;
    }
  }
}

/** Pieces of a list: every item may be dropped except the newest, which may only be truncated. */
function listPieces(items: Array<{ id: string; text: string; age: [number, number] }>): Piece[] {
  let newest = -1;
  items.forEach((item, i) => {
    const best = items[newest];
    if (best === undefined || compareAge(item.age, best.age) >= 0) newest = i;
  });
  return items.map((item, i) => ({ ...item, policy: i === newest ? 'truncate' : 'drop' }));
}

/** Orders ages: negative when `a` is older. */
export function compareAge(a: readonly [number, number], b: readonly [number, number]): number {
  return a[0] - b[0] || a[1] - b[1];
}

const TIER_HEADERS = {
  active: '### Active',
  generated: '### Generated (not saved)',
  retained: '### Retained (long-term memory)',
} as const;

function entityLayer(state: LayeredContextState, recipe: EntityLayerRecipe): { selection: EntitySelection; section: Section } {
  const ctx = sortIntoTiers(state);
  const selection: EntitySelection = { active: [], generated: [], retained: [], doNotReRead: null };
  const groups: Group[] = [];
  for (const tier of ['active', 'generated', 'retained'] as const) {
    const detail = recipe[tier];
    if (detail === 'none') continue;
    selection[tier] = ctx[tier].map((e) => projectEntity(e, detail));
    const pieces = listPieces(
      ctx[tier].map((e) => ({ id: `entity.${tier}.${e.ref}`, text: entityText(e, detail), age: [e.turnLastRef, 0] })),
    );
    if (pieces.length > 0) groups.push({ header: TIER_HEADERS[tier], pieces });
  }
  if (recipe.doNotReRead) {
    const refs = doNotReReadRefs(ctx);
    selection.doNotReRead = refs;
    if (refs.length > 0) {
      groups.push({
        header: null,
        pieces: [{ id: 'entity.doNotReRead', text: `DO NOT re-read: ${refs.map(line).join(', ')}`, policy: 'truncate', age: [state.turn, 0] }],
      });
    }
  }
  return { selection, section: { title: SECTION_TITLES.entity, groups, empty: 'No entities in context.' } };
}

function turnText(t: ConversationTurn, routing: boolean): string {
  const n = num(t.turnNum);
  const lines = [`Turn ${n} user: ${str(t.user)}`, `Turn ${n} assistant: ${str(t.assistantSummary)}`];
  if (routing && t.routing !== null) lines.push(`Turn ${n} routing: ${canonicalJson(t.routing)}`);
  return lines.join('\n');
}

function pendingText(p: PendingState): string {
  const lines = [`Type: ${str(p.type)}`, `Context: ${str(p.context)}`];
  if (p.questions.length > 0) lines.push('Questions:', ...p.questions.map((q) => `- ${line(q)}`));
  return lines.join('\n');
}

function conversationLayer(
  state: LayeredContextState,
  recipe: ConversationLayerRecipe,
): { selection: ConversationSelection; section: Section } {
  const c = state.conversation;
  const recent = recipe.recentTurns > 0 ? c.recentTurns.slice(-recipe.recentTurns) : [];
  const selection: ConversationSelection = {
    historySummary: recipe.summary && c.historySummary !== '' ? c.historySummary : null,
    engagementSummary: recipe.engagement && c.engagementSummary !== '' ? c.engagementSummary : null,
    recentTurns: structuredClone(recent),
    pending: recipe.pending ? structuredClone(c.pending) : null,
    current: structuredClone(c.current),
  };
  const groups: Group[] = [];
  if (selection.engagementSummary !== null) {
    groups.push({
      header: '### Engagement',
      pieces: [{ id: 'conversation.engagement', text: selection.engagementSummary, policy: 'truncate', age: [-1, 0] }],
    });
  }
  if (selection.historySummary !== null) {
    groups.push({
      header: '### Earlier conversation (summary)',
      pieces: [{ id: 'conversation.summary', text: selection.historySummary, policy: 'drop', age: [-1, 0] }],
    });
  }
  if (recent.length > 0) {
    groups.push({
      header: '### Recent turns',
      pieces: listPieces(
        recent.map((t) => ({ id: `conversation.turn.${t.turnNum}`, text: turnText(t, recipe.routing), age: [t.turnNum, 0] })),
      ),
    });
  }
  if (selection.pending !== null) {
    groups.push({
      header: "### Pending (awaiting the user's response)",
      pieces: [{ id: 'conversation.pending', text: pendingText(selection.pending), policy: 'protected', age: [state.turn, 0] }],
    });
  }
  if (c.current !== null) {
    groups.push({
      header: `### Current turn (turn ${num(c.current.turnNum)})`,
      pieces: [{ id: 'conversation.current', text: `User: ${str(c.current.user)}`, policy: 'protected', age: [state.turn, 0] }],
    });
  }
  return { selection, section: { title: SECTION_TITLES.conversation, groups, empty: 'No conversation yet.' } };
}

function projectStep(s: StepSummary, detail: StepDetail): StepProjection {
  if (detail === 'outcomes') return { stepNum: s.stepNum, outcome: s.outcome };
  const out: StepProjection = {
    stepNum: s.stepNum,
    type: s.type,
    subdomain: s.subdomain,
    description: s.description,
    outcome: s.outcome,
    entitiesInvolved: [...s.entitiesInvolved],
    note: s.note,
  };
  if (detail === 'data') out.result = structuredClone(s.result);
  return out;
}

function stepText(s: StepSummary, detail: StepDetail): string {
  if (detail === 'outcomes') return `- ${str(s.outcome)}`;
  const refs = s.entitiesInvolved.length > 0 ? ` (entities: ${s.entitiesInvolved.map(line).join(', ')})` : '';
  const lines = [`${num(s.stepNum)}. [${str(s.type)}] ${line(s.subdomain)}: ${str(s.description)} -> ${str(s.outcome)}${refs}`];
  if (s.note !== null) lines.push(`   Note: ${str(s.note)}`);
  if (detail === 'data' && s.result !== null) lines.push(`   Result: ${canonicalJson(s.result)}`);
  return lines.join('\n');
}

function decisionText(t: TurnExecutionSummary): string | null {
  if (t.thinkDecision === null) return null;
  return t.thinkGoal ? `${str(t.thinkDecision)} (${line(t.thinkGoal)})` : str(t.thinkDecision);
}

function completedTurnText(t: TurnExecutionSummary, detail: StepDetail, blocked: boolean): string {
  const decision = decisionText(t);
  const lines = [decision === null ? `Turn ${num(t.turnNum)}:` : `Turn ${num(t.turnNum)}: ${decision}`];
  if (t.steps.length === 0) lines.push('No steps executed.');
  for (const s of t.steps) lines.push(stepText(s, detail));
  if (blocked && t.blockedReason !== null) lines.push(`Blocked: ${str(t.blockedReason)}`);
  return lines.join('\n');
}

function projectTurn(t: TurnExecutionSummary, detail: StepDetail, blocked: boolean): TurnProjection {
  const out: TurnProjection = { turnNum: t.turnNum, steps: t.steps.map((s) => projectStep(s, detail)) };
  if (detail !== 'outcomes') {
    out.thinkDecision = t.thinkDecision;
    out.thinkGoal = t.thinkGoal;
  }
  if (blocked) out.blockedReason = t.blockedReason;
  return out;
}

function curationText(c: CurationSummary): string {
  const lines: string[] = [];
  const add = (verb: string, refs: string[]) => {
    for (const ref of refs) lines.push(`- ${verb} ${line(ref)}: ${line(c.reasons[ref] ?? '')}`);
  };
  add('retained', c.retained);
  add('promoted', c.promoted);
  add('demoted', c.demoted);
  return lines.length > 0 ? lines.join('\n') : 'No curation decisions this turn.';
}

/** The newest non-null value of a per-turn field: this turn first, then completed turns. */
function latest(state: LayeredContextState, pick: (t: TurnExecutionSummary) => string | null): string | null {
  const current = state.reasoning.current;
  if (current !== null && pick(current) !== null) return pick(current);
  for (let i = state.reasoning.turnSummaries.length - 1; i >= 0; i--) {
    const v = pick(state.reasoning.turnSummaries[i] as TurnExecutionSummary);
    if (v !== null) return v;
  }
  return null;
}

function lastTurnDigest(t: TurnExecutionSummary): string {
  const what = t.steps.length > 0 ? t.steps.map((s) => `${str(s.type)} ${line(s.subdomain)}`).join(', ') : (decisionText(t) ?? 'no steps');
  return `Last turn (turn ${num(t.turnNum)}): ${what}${t.blockedReason !== null ? ' (blocked)' : ''}`;
}

function reasoningLayer(state: LayeredContextState, recipe: ReasoningLayerRecipe): { selection: ReasoningSelection; section: Section } {
  const r = state.reasoning;
  const now = state.turn;
  const completed =
    recipe.completedTurns === 'none' || recipe.completedTurnsLimit === 0 ? [] : r.turnSummaries.slice(-recipe.completedTurnsLimit);
  const current = recipe.currentTurn === 'none' ? null : r.current;
  const lastCompleted = r.turnSummaries[r.turnSummaries.length - 1];
  const lastStep = r.current?.steps[r.current.steps.length - 1];
  const selection: ReasoningSelection = {
    reasoningSummary: recipe.summary && r.reasoningSummary !== '' ? r.reasoningSummary : null,
    completedTurns: completed.map((t) => projectTurn(t, recipe.completedTurns, recipe.blocked)),
    currentTurn: current === null ? null : projectTurn(current, recipe.currentTurn, recipe.blocked),
    curation: recipe.curation === 'current' && r.current !== null ? structuredClone(r.current.entityCuration) : null,
    curationHistory: recipe.curation === 'history' ? structuredClone(state.curationLog) : null,
    conversationPhase: recipe.phase ? latest(state, (t) => t.conversationPhase) : null,
    userExpressed: recipe.userExpressed ? latest(state, (t) => t.userExpressed) : null,
    lastTurnLine: recipe.lastTurnLine && lastCompleted !== undefined ? lastTurnDigest(lastCompleted) : null,
    prevStepNote: recipe.prevStepNote && lastStep !== undefined ? lastStep.note : null,
  };

  const groups: Group[] = [];
  const facts: Piece[] = [];
  const fact = (id: string, text: string | null) => {
    if (text !== null) facts.push({ id: `reasoning.${id}`, text, policy: 'truncate', age: [now, 0] });
  };
  fact('phase', selection.conversationPhase === null ? null : `Conversation phase: ${line(selection.conversationPhase)}`);
  fact('userExpressed', selection.userExpressed === null ? null : `User expressed: ${line(selection.userExpressed)}`);
  fact('lastTurn', selection.lastTurnLine);
  if (facts.length > 0) groups.push({ header: null, pieces: facts });

  if (selection.reasoningSummary !== null) {
    groups.push({
      header: '### Earlier reasoning (summary)',
      pieces: [{ id: 'reasoning.summary', text: selection.reasoningSummary, policy: 'drop', age: [-1, 0] }],
    });
  }
  if (completed.length > 0) {
    groups.push({
      header: '### Previous turns',
      pieces: listPieces(
        completed.map((t) => ({
          id: `reasoning.turn.${t.turnNum}`,
          text: completedTurnText(t, recipe.completedTurns, recipe.blocked),
          age: [t.turnNum, 0],
        })),
      ),
    });
  }
  if (current !== null) {
    const detail = recipe.currentTurn;
    const header = detail === 'outcomes' ? `### Just accomplished (turn ${num(current.turnNum)})` : `### This turn so far (turn ${num(current.turnNum)})`;
    const pieces: Piece[] = [];
    const decision = detail === 'outcomes' ? null : decisionText(current);
    if (decision !== null) pieces.push({ id: 'reasoning.current.decision', text: `Plan: ${decision}`, policy: 'truncate', age: [now, 0] });
    if (current.steps.length === 0) {
      pieces.push({ id: 'reasoning.current.none', text: 'No steps executed yet.', policy: 'protected', age: [now, 0] });
    }
    pieces.push(
      ...listPieces(
        current.steps.map((s) => ({ id: `reasoning.current.step.${s.stepNum}`, text: stepText(s, detail), age: [now, s.stepNum] })),
      ),
    );
    if (recipe.blocked && current.blockedReason !== null) {
      pieces.push({ id: 'reasoning.current.blocked', text: `Blocked: ${str(current.blockedReason)}`, policy: 'truncate', age: [now, Number.MAX_SAFE_INTEGER] });
    }
    groups.push({ header, pieces });
  }
  if (selection.prevStepNote !== null && selection.prevStepNote !== undefined) {
    groups.push({
      header: null,
      pieces: [{ id: 'reasoning.prevStepNote', text: `Previous step note: ${str(selection.prevStepNote)}`, policy: 'truncate', age: [now, Number.MAX_SAFE_INTEGER] }],
    });
  }
  if (selection.curation !== null) {
    groups.push({
      header: '### Curation this turn',
      pieces: [{ id: 'reasoning.curation', text: curationText(selection.curation), policy: 'truncate', age: [now, 0] }],
    });
  }
  if (selection.curationHistory !== null && selection.curationHistory.length > 0) {
    groups.push({
      header: '### Curation decisions (own history)',
      pieces: listPieces(
        selection.curationHistory.map((d, i) => ({
          id: `reasoning.curationLog.${i}`,
          text: `- Turn ${num(d.turn)}: ${str(d.action)} ${line(d.ref)}: ${line(d.reason)}`,
          age: [d.turn, i],
        })),
      ),
    });
  }
  return { selection, section: { title: SECTION_TITLES.reasoning, groups, empty: 'Nothing has happened yet.' } };
}

/** Applies `recipe` to `state`: the structured selection and the unbudgeted document. */
export function composeView(state: LayeredContextState, recipe: ViewRecipe): { selection: ViewSelection; document: ViewDocument } {
  const selection: ViewSelection = { entity: null, conversation: null, reasoning: null };
  const sections: Section[] = [];
  for (const layer of recipe.layers) {
    if (layer.layer === 'entity') {
      const out = entityLayer(state, layer);
      selection.entity = out.selection;
      sections.push(out.section);
    } else if (layer.layer === 'conversation') {
      const out = conversationLayer(state, layer);
      selection.conversation = out.selection;
      sections.push(out.section);
    } else {
      const out = reasoningLayer(state, layer);
      selection.reasoning = out.selection;
      sections.push(out.section);
    }
  }
  return { selection, document: { sections, task: recipe.task } };
}
