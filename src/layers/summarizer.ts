/**
 * Summariser hooks. ctxgate makes no model calls: when old turns fold into the history or
 * reasoning summary, the host may supply a (possibly async) summariser, typically a small model
 * call. Without one, or when it fails, the deterministic fallbacks below are used, so the same
 * turns always fold into the same text.
 */
import { expectArray, expectNullableString, expectNumber, expectNumberNotNaN, expectObject, expectString } from '../args.ts';
import type { ConversationTurn, TurnExecutionSummary } from './model.ts';
import { clipChars } from './truncate.ts';

/** Input of a conversation summariser. */
export interface ConversationSummaryInput {
  /** The running summary so far ('' at first). */
  previousSummary: string;
  /** Turns leaving the recent window, oldest first. */
  turns: ConversationTurn[];
  /** The summary is clipped to this many characters. */
  maxChars: number;
}

/** Input of a reasoning summariser. */
export interface ReasoningSummaryInput {
  /** The running reasoning summary so far ('' at first). */
  previousSummary: string;
  /** Execution summaries leaving the recent window, oldest first. */
  summaries: TurnExecutionSummary[];
  /** The summary is clipped to this many characters. */
  maxChars: number;
}

/** Host-supplied summarisers; each returns the new running summary (old + folded). */
export interface Summarizer {
  conversation?: (input: ConversationSummaryInput) => string | Promise<string>;
  reasoning?: (input: ReasoningSummaryInput) => string | Promise<string>;
}

const OMITTED = '[older history omitted]';

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Keeps the newest lines that fit `maxChars`, marking that older ones went; the newest line is
 * always kept (clipped if it alone is too long). Linear: the joined length is kept as a running
 * sum while lines are dropped from the front, and only the kept lines are ever joined.
 */
function fitLines(lines: string[], maxChars: number): string {
  // Length of lines[first..] joined with '\n', plus the marker line once anything was dropped.
  let joined = lines.reduce((n, l) => n + l.length, 0) + Math.max(0, lines.length - 1);
  let first = 0;
  const size = () => joined + (first > 0 ? OMITTED.length + 1 : 0);
  while (lines.length - first > 1 && size() > maxChars) {
    joined -= (lines[first] as string).length + 1;
    first++;
  }
  const body = lines.slice(first).join('\n');
  if (first === 0) return clipChars(body, maxChars);
  return clipChars(`${OMITTED}\n${body}`, maxChars);
}

/** The fields both summariser inputs share; `list` names the array of folded items. */
function expectSummaryInput(input: unknown, list: 'turns' | 'summaries'): void {
  expectObject(input, 'input');
  expectString(input.previousSummary, 'input.previousSummary');
  expectArray(input[list], `input.${list}`);
  // Any number works as a cap (Infinity: none); NaN or another kind is a caller's mistake.
  expectNumberNotNaN(input.maxChars, 'input.maxChars', 'a number of characters');
}

function previousLines(summary: string): string[] {
  return summary === '' ? [] : summary.split('\n').filter((l) => l !== OMITTED);
}

/**
 * The deterministic conversation summariser: one line per folded turn
 * (`Turn 3: user: … | assistant: …`), each side clipped to 200 characters, appended to the
 * previous summary; the oldest lines go first when the cap is reached.
 */
export function fallbackConversationSummary(input: ConversationSummaryInput): string {
  expectSummaryInput(input, 'turns');
  input.turns.forEach((t: unknown, i) => {
    const at = `input.turns[${i}]`;
    expectObject(t, at);
    expectNumber(t.turnNum, `${at}.turnNum`);
    expectString(t.user, `${at}.user`);
    expectString(t.assistantSummary, `${at}.assistantSummary`);
  });
  const lines = previousLines(input.previousSummary);
  for (const t of input.turns) {
    lines.push(`Turn ${t.turnNum}: user: ${clipChars(oneLine(t.user), 200)} | assistant: ${clipChars(oneLine(t.assistantSummary), 200)}`);
  }
  return fitLines(lines, input.maxChars);
}

/**
 * The deterministic reasoning summariser: one line per folded turn with Think's decision and
 * goal, each step as `type subdomain -> outcome`, and the blocked reason if any.
 */
export function fallbackReasoningSummary(input: ReasoningSummaryInput): string {
  expectSummaryInput(input, 'summaries');
  input.summaries.forEach((s: unknown, i) => {
    const at = `input.summaries[${i}]`;
    expectObject(s, at);
    expectNumber(s.turnNum, `${at}.turnNum`);
    expectNullableString(s.thinkDecision, `${at}.thinkDecision`);
    expectNullableString(s.thinkGoal, `${at}.thinkGoal`);
    expectNullableString(s.blockedReason, `${at}.blockedReason`);
    expectArray(s.steps, `${at}.steps`);
    s.steps.forEach((st: unknown, j) => {
      expectObject(st, `${at}.steps[${j}]`);
      expectString(st.type, `${at}.steps[${j}].type`);
      expectString(st.subdomain, `${at}.steps[${j}].subdomain`);
      expectString(st.outcome, `${at}.steps[${j}].outcome`);
    });
  });
  const lines = previousLines(input.previousSummary);
  for (const s of input.summaries) {
    const parts: string[] = [];
    if (s.thinkDecision !== null) {
      parts.push(s.thinkGoal ? `${s.thinkDecision} (${clipChars(oneLine(s.thinkGoal), 120)})` : s.thinkDecision);
    }
    if (s.steps.length > 0) {
      const steps = s.steps.map((st) => `${st.type} ${oneLine(st.subdomain)} -> ${clipChars(oneLine(st.outcome), 80)}`);
      parts.push(`steps: ${steps.join('; ')}`);
    }
    if (s.blockedReason !== null) parts.push(`blocked: ${clipChars(oneLine(s.blockedReason), 120)}`);
    lines.push(`Turn ${s.turnNum}: ${parts.length > 0 ? parts.join('; ') : 'nothing recorded'}`);
  }
  return fitLines(lines, input.maxChars);
}
