import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isCtxgateError } from '../../src/errors.ts';
import { curateEntities, getEntityContext, referenceEntities, registerEntity } from '../../src/layers/entities.ts';
import { ENTITY_STATUSES } from '../../src/layers/model.ts';
import type { LayeredContextState, PendingState } from '../../src/layers/model.ts';
import { layeredContextFromJSON, layeredContextToJSON } from '../../src/layers/schema.ts';
import { recordStep, recordThink, recordTurnMeta } from '../../src/layers/trace.ts';
import { fallbackConversationSummary } from '../../src/layers/summarizer.ts';
import { clipChars } from '../../src/layers/truncate.ts';
import { beginTurn, createLayeredContext, endTurn, previewCompaction } from '../../src/layers/turns.ts';
import { BUILTIN_VIEWS, buildActContext, buildNodeView, formatEntityContext } from '../../src/layers/views.ts';
import { charCounter, wordCounter } from './fixtures.ts';

// Text with sentence ends, newlines and long words, so every truncation boundary gets exercised.
const prose = fc
  .array(fc.constantFrom('alpha', 'beta.', 'Gamma', 'd', 'eeeeeeeeeeeeeeeeeeee', '\n', '. ', 'ü', '😀', 'x,y'), { maxLength: 30 })
  .map((parts) => parts.join(' '));

const pendingArb: fc.Arbitrary<PendingState | null> = fc.option(
  fc.record({ type: fc.constantFrom('propose', 'clarify', 'ask_user'), context: prose, questions: fc.array(prose, { maxLength: 2 }) }),
  { nil: null },
) as fc.Arbitrary<PendingState | null>;

const turnArb = fc.record({
  user: prose,
  assistant: prose,
  pending: fc.option(pendingArb, { nil: undefined }),
  entities: fc.array(
    fc.record({ ref: fc.constantFrom('r1', 'r2', 'r3', 'g1', 'g2'), label: prose, status: fc.constantFrom(...ENTITY_STATUSES), data: fc.option(fc.dictionary(fc.constantFrom('a', 'b'), prose), { nil: undefined }) }),
    { maxLength: 3 },
  ),
  steps: fc.array(fc.record({ outcome: prose, note: fc.option(prose, { nil: null }) }), { maxLength: 3 }),
  curate: fc.option(fc.record({ ref: fc.constantFrom('r1', 'r2', 'g1'), action: fc.constantFrom('retain', 'promote', 'demote'), reason: fc.constantFrom('because', 'user said so') }), { nil: undefined }),
  phase: fc.option(fc.constantFrom('exploring', 'narrowing'), { nil: undefined }),
  blocked: fc.option(prose, { nil: undefined }),
});

type TurnInput = typeof turnArb extends fc.Arbitrary<infer T> ? T : never;

interface Built {
  state: LayeredContextState;
  /** The pending state the last endTurn left (what compaction must keep). */
  pending: PendingState | null;
  lastEnded: string | null;
}

/** Plays turns; the last one stays open when `open` is true. */
async function play(turns: Array<TurnInput>, open: boolean, settings = {}): Promise<Built> {
  let state = createLayeredContext(settings);
  let pending: PendingState | null = null;
  let lastEnded: string | null = null;
  for (const [i, t] of turns.entries()) {
    state = beginTurn(state, { user: t.user, timestamp: 't' });
    state = recordThink(state, { decision: 'plan_direct', goal: t.user });
    for (const e of t.entities) state = registerEntity(state, { ref: e.ref, type: 'things', label: e.label, status: e.status, ...(e.data ? { data: e.data } : {}) });
    for (const s of t.steps) state = recordStep(state, { type: 'read', subdomain: 'things', description: 'd', outcome: s.outcome, note: s.note });
    if (t.curate && state.entities.some((e) => e.ref === t.curate!.ref)) state = curateEntities(state, [t.curate]);
    state = recordTurnMeta(state, { ...(t.phase ? { conversationPhase: t.phase } : {}), ...(t.blocked ? { blockedReason: t.blocked } : {}) });
    if (open && i === turns.length - 1) break;
    state = (await endTurn(state, { assistantSummary: t.assistant, ...(t.pending !== undefined ? { pending: t.pending } : {}) })).state;
    if (t.pending !== undefined) pending = t.pending;
    lastEnded = t.user;
  }
  return { state, pending, lastEnded };
}

const nodes = fc.constantFrom('understand', 'think', 'act', 'reply') as fc.Arbitrary<keyof typeof BUILTIN_VIEWS>;

describe('properties', () => {
  it('a rendered view never exceeds its budget; when it cannot fit it refuses, and only because of protected content', async () => {
    const seen = { fit: 0, cut: 0, truncated: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 5 }), nodes, fc.integer({ min: 1, max: 400 }), fc.boolean(), async (turns, node, budget, words) => {
        const { state } = await play(turns, true);
        const counter = words ? wordCounter : charCounter;
        try {
          const v = buildNodeView(state, BUILTIN_VIEWS[node], { counter, budget });
          expect(v.tokens.tokens).toBeLessThanOrEqual(budget);
          expect(v.tokens).toEqual(counter(v.text));
          expect(v.budget.tokensAfter).toBe(v.tokens.tokens);
          expect(v.budget.wasCut).toBe(v.budget.tokensBefore > budget);
          if (v.budget.wasCut) seen.cut++;
          else seen.fit++;
          if (v.budget.cuts.some((c) => c.action === 'truncated')) seen.truncated++;
          // Pending state (for nodes that see it) and the current turn always survive.
          expect(v.text).toContain(`User: ${state.conversation.current!.user}`);
          const p = state.conversation.pending;
          if (p && node !== 'act') expect(v.text).toContain(`Context: ${p.context}`);
        } catch (error) {
          expect(isCtxgateError(error, 'CONTEXT_TOO_LARGE')).toBe(true);
          // The protected remainder alone (everything cuttable removed) really exceeds the budget.
          expect((error as { details: { minimumTokens: number } }).details.minimumTokens).toBeGreaterThan(budget);
          seen.refused++;
        }
      }),
      { numRuns: 150, seed: 8 },
    );
    // The generator must reach every branch, or the property proves little.
    expect(Object.values(seen).every((n) => n > 0)).toBe(true);
  });

  it('compaction keeps the pending state, the turn just ended and at most recentTurns turns', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 7 }), fc.integer({ min: 1, max: 3 }), async (turns, recentTurns) => {
        const { state, pending, lastEnded } = await play(turns, false, { recentTurns, recentTraces: recentTurns, summaryMaxChars: 300 });
        expect(state.conversation.pending).toEqual(pending);
        expect(state.conversation.recentTurns.at(-1)?.user).toBe(lastEnded);
        expect(state.conversation.recentTurns.length).toBe(Math.min(recentTurns, turns.length));
        expect(state.reasoning.turnSummaries.length).toBe(Math.min(recentTurns, turns.length));
        expect(state.conversation.historySummary.length).toBeLessThanOrEqual(300);
        expect(state.reasoning.reasoningSummary.length).toBeLessThanOrEqual(300);
      }),
      { numRuns: 100 },
    );
  });

  it('the same state renders byte-identically, also after a JSON round trip', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 4 }), nodes, fc.integer({ min: 0, max: 300 }), async (turns, node, budget) => {
        const { state } = await play(turns, true);
        const restored = layeredContextFromJSON(JSON.stringify(layeredContextToJSON(state)));
        const render = (s: LayeredContextState) => {
          try {
            return buildNodeView(s, BUILTIN_VIEWS[node], { counter: charCounter, budget }).text;
          } catch (error) {
            return (error as Error).message;
          }
        };
        expect(render(restored)).toBe(render(state));
        expect(render(state)).toBe(render(state));
      }),
      { numRuns: 100 },
    );
  });
});

describe('properties of the review fixes', () => {
  const refsArb = fc.constantFrom('r1', 'r2', 'r3');
  const opArb = fc.oneof(
    fc.record({ op: fc.constant('register' as const), ref: refsArb, status: fc.constantFrom(...ENTITY_STATUSES) }),
    fc.record({ op: fc.constant('reference' as const), ref: refsArb }),
    fc.record({ op: fc.constant('curate' as const), ref: refsArb, action: fc.constantFrom('retain', 'promote', 'demote') as fc.Arbitrary<'retain' | 'promote' | 'demote'> }),
    fc.record({ op: fc.constant('nextTurn' as const) }),
  );

  it('the last word on an entity within a turn counts: a re-read after a demotion shows it, a demotion after a re-read hides it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { maxLength: 40 }), async (ops) => {
        let s = beginTurn(createLayeredContext(), { user: 'u', timestamp: 't' });
        // What last happened to each ref this turn: read (registered, referenced or promoted),
        // retained or demoted.
        let last = new Map<string, 'read' | 'retain' | 'demote'>();
        for (const o of ops) {
          const known = s.entities.some((e) => e.ref === ('ref' in o ? o.ref : ''));
          if (o.op === 'register') {
            s = registerEntity(s, { ref: o.ref, type: 't', label: o.ref, status: o.status });
            last.set(o.ref, 'read');
          } else if (o.op === 'reference' && known) {
            s = referenceEntities(s, [o.ref]);
            last.set(o.ref, 'read');
          } else if (o.op === 'curate' && known) {
            s = curateEntities(s, [{ ref: o.ref, action: o.action, reason: 'r' }]);
            // promote makes it active now; retain keeps it in some tier (retained once it ages out).
            last.set(o.ref, o.action === 'promote' ? 'read' : o.action);
          } else if (o.op === 'nextTurn') {
            const read = [...last].filter(([, what]) => what === 'read').map(([ref]) => ref);
            s = (await endTurn(s, { assistantSummary: 'a' })).state;
            s = beginTurn(s, { user: 'u', timestamp: 't' });
            // Read in the turn just ended: still in the Act view (active window 2).
            const act = buildActContext(s, { counter: charCounter, budget: 0 }).entity!;
            const shown = [...act.active, ...act.generated].map((e) => e.ref);
            for (const ref of read) expect(shown).toContain(ref);
            last = new Map();
          }
          const ctx = getEntityContext(s);
          const inContext = [...ctx.active, ...ctx.generated].map((e) => e.ref);
          const anyTier = [...inContext, ...ctx.retained.map((e) => e.ref)];
          for (const [ref, what] of last) {
            if (what === 'read') expect(inContext).toContain(ref);
            else if (what === 'retain') expect(anyTier).toContain(ref);
            else expect(anyTier).not.toContain(ref);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  /** Changes every array and object reachable from `value` (push, set a key, bump numbers). */
  function vandalise(value: unknown, seen = new Set<object>()): void {
    if (value === null || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (Array.isArray(value)) {
      value.forEach((v) => vandalise(v, seen));
      value.push('vandal');
      return;
    }
    const obj = value as Record<string, unknown>;
    for (const key of Object.keys(obj)) {
      vandalise(obj[key], seen);
      if (typeof obj[key] === 'number') obj[key] = (obj[key] as number) + 1;
      if (typeof obj[key] === 'string') obj[key] = `${obj[key] as string}!`;
    }
    obj.vandal = true;
  }

  it('no view shares an object with its state: vandalising every part of a view leaves the state as it was', async () => {
    const dataArb = fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(prose, fc.array(fc.integer(), { maxLength: 3 }), fc.record({ n: fc.integer() })));
    await fc.assert(
      fc.asyncProperty(fc.array(turnArb, { minLength: 1, maxLength: 4 }), nodes, dataArb, dataArb, async (turns, node, data, result) => {
        let { state } = await play(turns, true);
        state = registerEntity(state, { ref: 'd1', type: 'things', label: 'with data', status: 'read', data });
        state = recordStep(state, { type: 'read', subdomain: 'things', description: 'd', outcome: 'o', result });
        const before = JSON.stringify(state);
        const view = buildNodeView(state, BUILTIN_VIEWS[node], { counter: charCounter, budget: 0 });
        vandalise(view);
        expect(JSON.stringify(state)).toBe(before);
        // And the state's own data still renders the way it did.
        expect(buildNodeView(state, BUILTIN_VIEWS[node], { counter: charCounter, budget: 0 }).text).not.toContain('vandal');
      }),
      { numRuns: 100 },
    );
  });

  it('one-line fields flatten as the former pattern did, U+2028/U+2029 counted as line breaks too: each blank run holding one becomes one space', () => {
    const blankArb = fc.constantFrom(' ', '  ', '\t', '\n', '\r', '\r\n', '\u00a0', '\u2028', '\u2029', '\v', 'a', 'bc', '#');
    fc.assert(
      fc.property(fc.array(blankArb, { minLength: 1, maxLength: 40 }).map((p) => p.join('')), (label) => {
        let s = beginTurn(createLayeredContext(), { user: 'u', timestamp: 't' });
        s = registerEntity(s, { ref: 'r1', type: 't', label, status: 'read' });
        const former = label.replace(/\s*[\r\n\u2028\u2029]+\s*/g, ' ');
        expect(formatEntityContext(s, { layer: 'entity', active: 'labels', generated: 'none', retained: 'none', doNotReRead: false })).toBe(
          `## Entity Context\n### Active\n- ${former}`,
        );
      }),
      { numRuns: 500 },
    );
  });

  it('summaries keep the newest lines that fit, exactly as the former quadratic fitting did', () => {
    const OMITTED = '[older history omitted]';
    // The former implementation, kept here as the reference.
    const formerFit = (lines: string[], maxChars: number): string => {
      const kept = [...lines];
      let dropped = false;
      const size = () => kept.join('\n').length + (dropped ? OMITTED.length + 1 : 0);
      while (kept.length > 1 && size() > maxChars) {
        kept.shift();
        dropped = true;
      }
      const body = kept.join('\n');
      return clipChars(dropped ? `${OMITTED}\n${body}` : body, maxChars);
    };
    const lineArb = fc.string({ minLength: 1, maxLength: 60 }).filter((l) => !l.includes('\n') && l !== OMITTED);
    fc.assert(
      fc.property(fc.array(lineArb, { maxLength: 30 }), fc.string({ maxLength: 150 }), fc.integer({ min: 80, max: 400 }), (lines, user, maxChars) => {
        const turn = { turnNum: 1, user, assistantSummary: 'a', routing: null, timestamp: '' };
        const got = fallbackConversationSummary({ previousSummary: lines.join('\n'), turns: [turn], maxChars });
        const newest = `Turn 1: user: ${clipChars(user.replace(/\s+/g, ' ').trim(), 200)} | assistant: a`;
        expect(got).toBe(formerFit([...lines, newest], maxChars));
      }),
      { numRuns: 300 },
    );
  });

  it('the working functions refuse a setting or an entity turn exactly when layeredContextFromJSON does', async () => {
    const base = await play([{ user: 'u', assistant: 'a', entities: [{ ref: 'r1', label: 'l', status: 'read', data: undefined }], steps: [], phase: undefined, blocked: undefined, pending: undefined, curate: undefined }], true);
    const numberArb = fc.oneof(fc.integer({ min: -3, max: 1_000_003 }), fc.double(), fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, 0, 1, 80, 1000, 100_000, 100_001));
    type Setter = [part: 'settings' | 'entities', set: (x: Record<string, any>, v: number) => void];
    const fieldArb = fc.constantFrom<Setter[]>(
      ['settings', (x, v) => { x.settings.recentTurns = v; }],
      ['settings', (x, v) => { x.settings.recentTraces = v; }],
      ['settings', (x, v) => { x.settings.activeWindow = v; }],
      ['settings', (x, v) => { x.settings.summaryMaxChars = v; }],
      ['settings', (x, v) => { x.settings.curationLogLimit = v; }],
      ['entities', (x, v) => { x.entities[0].turnLastRef = v; }],
      ['entities', (x, v) => { x.entities[0].turnCreated = v; }],
      ['entities', (x, v) => { x.entities[0].demotedTurn = v; }],
    );
    const accepts = (run: () => unknown) => {
      try {
        run();
        return true;
      } catch (error) {
        expect(isCtxgateError(error, 'INVALID_PARAMS')).toBe(true);
        return false;
      }
    };
    fc.assert(
      fc.property(fieldArb, numberArb, ([part, set], v) => {
        const copy = structuredClone(base.state) as Record<string, any>;
        set(copy, v);
        const state = copy as LayeredContextState;
        const valid = accepts(() => layeredContextFromJSON(structuredClone(copy)));
        expect(accepts(() => getEntityContext(state))).toBe(valid);
        // previewCompaction reads the settings, not the registry.
        expect(accepts(() => previewCompaction(state))).toBe(part === 'settings' ? valid : true);
        expect(accepts(() => buildNodeView(state, BUILTIN_VIEWS.understand, { counter: charCounter, budget: 0 }))).toBe(valid);
      }),
      { numRuns: 400 },
    );
  });
});
