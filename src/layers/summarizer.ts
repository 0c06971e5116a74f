/**
 * Summariser hooks. ctxgate makes no model calls: when old turns fold into the history or
 * reasoning summary, the host may supply a (possibly async) summariser, typically a small model
 * call. Without one, or when it fails, the deterministic fallbacks below are used, so the same
 * turns always fold into the same text.
 */
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

/** Keeps the newest lines that fit `maxChars`, marking that older ones went. */
function fitLines(lines: string[], maxChars: number): string {
  const kept = [...lines];
  let dropped = false;
  const size = () => kept.join('\n').length + (dropped ? OMITTED.length + 1 : 0);
  while (kept.length > 1 && size() > maxChars) {
    kept.shift();
    dropped = true;
  }
  const body = kept.join('\n');
  if (!dropped) return clipChars(body, maxChars);
  return clipChars(`${OMITTED}\n${body}`, maxChars);
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
