import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextValidator } from '../../src/store/access.ts';
import { AuditTrail } from '../../src/store/audit.ts';
import { DiffTracker, summarizeDiff } from '../../src/store/diff.ts';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import type { AgentRun } from '../../src/store/model.ts';
import { createAgentContext } from '../../src/store/model.ts';
import { sampleContext } from './contract.ts';
import { thrown } from '../fixtures/thrown.ts';

const clock = () => {
  let t = Date.parse('2026-03-01T00:00:00.000Z');
  return () => new Date((t += 1000));
};

describe('diff tracking', () => {
  it('reproduces the spec example summary', () => {
    const ctx = createAgentContext('session-1', 'trace-1');
    const tracker = new DiffTracker(ctx, { now: clock() });
    ctx.reasoning.intents = [{ type: 'query', confidence: 0.95 }];
    const diff = tracker.capture('intent_detection', ctx);
    expect(diff.summary()).toBe('[intent_detection] Changes: reasoning.intents_added=1');
    expect(diff.toJSON()).toEqual({ timestamp: '2026-03-01T00:00:01.000Z', agentId: 'intent_detection', changes: { reasoning: { intents_added: 1 } } });
    expect(diff.keysWritten).toEqual(['reasoning.intents']);
    expect(diff.isEmpty).toBe(false);
  });

  it('sees in-place edits after any capture: the baseline never shares data with the context (property)', () => {
    type Edit = { field: 'intents' | 'links' | 'entities' | 'summary'; n: number };
    const edit = fc.record({ field: fc.constantFrom<Edit['field']>('intents', 'links', 'entities', 'summary'), n: fc.nat(5) });
    fc.assert(
      fc.property(fc.array(fc.array(edit, { maxLength: 3 }), { minLength: 1, maxLength: 6 }), (rounds) => {
        const ctx = sampleContext('inplace');
        const tracker = new DiffTracker(ctx, { now: clock() });
        const snapshot = () => new Map(['reasoning.intents', 'enrichment.contextLinks', 'reasoning.entities', 'reasoning.summary'].map((k) => {
          const [ns, key] = k.split('.') as [string, string];
          return [k, canonicalize((ctx as unknown as Record<string, Record<string, unknown>>)[ns]![key])];
        }));
        let before = snapshot();
        for (const edits of rounds) {
          for (const { field, n } of edits) {
            // Every edit mutates in place: the arrays and objects the previous capture saw.
            if (field === 'intents') ctx.reasoning.intents[0]!.entities!.push(`e${n}`);
            if (field === 'links') ctx.enrichment.contextLinks.push(`l${n}`);
            if (field === 'entities') (ctx.reasoning.entities.repo as Record<string, unknown>).stars = n;
            if (field === 'summary') ctx.reasoning.summary += String(n);
          }
          const after = snapshot();
          const expected = [...after.keys()].filter((k) => after.get(k) !== before.get(k));
          const order = ['reasoning.entities', 'reasoning.intents', 'reasoning.summary', 'enrichment.contextLinks'];
          expect(tracker.capture('agent', ctx).keysWritten).toEqual(order.filter((k) => expected.includes(k)));
          before = after;
        }
      }),
      { numRuns: 100 },
    );
  });

  it('diffs arrays by id or value, maps by entry, other fields as one value', () => {
    const ctx = sampleContext('d');
    ctx.llm.usage = undefined as never;
    delete ctx.llm.usage;
    ctx.reasoning.confidenceScores = { a: 0.1, b: 0.2 };
    const tracker = new DiffTracker(ctx, { now: clock() });
    ctx.enrichment.facts[0]!.confidence = 0.5; // same id, new content: modified
    ctx.enrichment.facts.push({ id: 'f2', content: 'c', source: 's', timestamp: '2026-01-01T00:00:00Z', confidence: 1 });
    ctx.reasoning.intents = []; // removed 1
    ctx.reasoning.entities = { repo: { name: 'other', stars: 3 }, extra: 1 }; // 1 modified, 1 added
    ctx.reasoning.confidenceScores = { a: 0.1 }; // 1 removed
    ctx.reasoning.summary = 'new'; // changed
    ctx.reasoning.dependencyMap = { a: ['b'] }; // set
    delete ctx.metadata.locale; // cleared
    ctx.llm.usage = { totalTokens: 1, promptTokens: 1, completionTokens: 0, costUsd: 0, byAgent: {} }; // set
    ctx.enrichment.contextLinks = ['x', 'y'];
    const diff = tracker.capture('orchestrator', ctx);
    expect(diff.changes).toEqual({
      metadata: { locale_cleared: 1 },
      reasoning: {
        confidenceScores_removed: 1,
        dependencyMap_set: 1,
        entities_added: 1,
        entities_modified: 1,
        intents_removed: 1,
        summary_changed: 1,
      },
      enrichment: { contextLinks_added: 2, facts_added: 1, facts_modified: 1 },
      llm: { usage_set: 1 },
    });
    expect(diff.summary()).toBe(
      '[orchestrator] Changes: metadata.locale_cleared=1, reasoning.confidenceScores_removed=1, reasoning.dependencyMap_set=1, ' +
        'reasoning.entities_added=1, reasoning.entities_modified=1, reasoning.intents_removed=1, reasoning.summary_changed=1, ' +
        'enrichment.contextLinks_added=2, enrichment.facts_added=1, enrichment.facts_modified=1, llm.usage_set=1',
    );
    expect(diff.keysWritten).toEqual([
      'metadata.locale',
      'reasoning.confidenceScores',
      'reasoning.dependencyMap',
      'reasoning.entities',
      'reasoning.intents',
      'reasoning.summary',
      'enrichment.contextLinks',
      'enrichment.facts',
      'llm.usage',
    ]);
  });

  it('rebaselines after each capture; no change gives "none"; key order alone is no change', () => {
    const ctx = sampleContext('r');
    const tracker = new DiffTracker(ctx);
    ctx.reasoning.summary = 'first';
    expect(tracker.capture('summarization', ctx).summary()).toBe('[summarization] Changes: reasoning.summary_changed=1');
    const second = tracker.capture('summarization', ctx);
    expect(second.summary()).toBe('[summarization] Changes: none');
    expect(second.isEmpty).toBe(true);
    ctx.reasoning.entities = { repo: { stars: 3, name: 'ctxgate-r' } };
    expect(tracker.capture('x', ctx).isEmpty).toBe(true);
    ctx.enrichment.contextLinks = ['b', 'a'];
    tracker.capture('x', ctx);
    ctx.enrichment.contextLinks = ['a', 'b'];
    expect(tracker.capture('x', ctx).summary()).toBe('[x] Changes: enrichment.contextLinks_changed=1');
    expect(summarizeDiff({ agentId: 'a', changes: { zeta: { k_set: 1 }, audit: { diffs_added: 2 } } })).toBe('[a] Changes: audit.diffs_added=2, zeta.k_set=1');
    expect(() => tracker.capture('', ctx)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS' }));
  });

  it('array counters balance: added − removed = change in length (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 2 }), { maxLength: 8 }), fc.array(fc.string({ maxLength: 2 }), { maxLength: 8 }), (before, after) => {
        const ctx = createAgentContext('s', 't');
        ctx.enrichment.contextLinks = before;
        const tracker = new DiffTracker(ctx);
        ctx.enrichment.contextLinks = after;
        const c = tracker.capture('a', ctx).changes.enrichment ?? {};
        expect((c.contextLinks_added ?? 0) - (c.contextLinks_removed ?? 0)).toBe(after.length - before.length);
        const same = JSON.stringify([...before].sort()) === JSON.stringify([...after].sort());
        expect((c.contextLinks_added ?? 0) + (c.contextLinks_removed ?? 0) === 0).toBe(same);
      }),
    );
  });
});

describe('audit trail', () => {
  const run = (i: number): AgentRun => ({
    timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    agentId: `agent-${i}`,
    status: 'success',
    durationMs: 100 + i,
    keysWritten: ['reasoning.intents'],
  });

  it('a frozen context (Object.freeze, Immer) is INVALID_PARAMS naming the audit list, and stays as it was', () => {
    const ctx = createAgentContext('s', 't');
    new AuditTrail().recordRun(ctx, run(0));
    const before = canonicalize(ctx);
    const frozen = structuredClone(ctx);
    Object.freeze(frozen.audit);
    const error = thrown(() => new AuditTrail().recordRun(frozen, run(1)));
    expect(error).toMatchObject({ code: 'INVALID_PARAMS', details: { field: 'context.audit.agentRuns' } });
    expect(error.message).toContain('cloneContext()');
    expect(thrown(() => new AuditTrail().recordDiff(frozen, { timestamp: run(1).timestamp, agentId: 'a', changes: {} }))).toMatchObject({
      code: 'INVALID_PARAMS',
      details: { field: 'context.audit.diffs' },
    });
    expect(canonicalize(frozen)).toBe(before);
  });

  it('appends runs and diffs, keeping only the newest up to the cap', () => {
    const ctx = createAgentContext('s', 't');
    const audit = new AuditTrail({ maxRuns: 3, maxDiffs: 2 });
    for (let i = 0; i < 5; i++) audit.recordRun(ctx, run(i));
    expect(ctx.audit.agentRuns.map((r) => r.agentId)).toEqual(['agent-2', 'agent-3', 'agent-4']);
    for (let i = 0; i < 3; i++) audit.recordDiff(ctx, { timestamp: run(i).timestamp, agentId: `a${i}`, changes: { reasoning: { intents_added: i + 1 } } });
    expect(ctx.audit.diffs.map((d) => d.agentId)).toEqual(['a1', 'a2']);
    expect(new AuditTrail().maxDiffs).toBe(100);
    expect(() => new AuditTrail({ maxRuns: 1001 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'maxRuns' }) }));
  });

  it('refuses invalid entries and oversize appends without touching the context', () => {
    const ctx = createAgentContext('s', 't');
    const audit = new AuditTrail({ limits: { maxNamespaceSize: 400 } });
    audit.recordRun(ctx, run(1));
    const before = canonicalize(ctx);
    expect(() => audit.recordRun(ctx, { ...run(2), durationMs: -1 })).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'audit.agentRuns[0].durationMs' }) }),
    );
    expect(() => audit.recordRun(ctx, { ...run(2), error: 'e'.repeat(500) })).toThrow(
      expect.objectContaining({ code: 'CONTEXT_SIZE', details: expect.objectContaining({ limit: 'maxNamespaceSize', namespace: 'audit' }) }),
    );
    expect(canonicalize(ctx)).toBe(before);
  });

  it('runs the spec workflow: safeSet, capture, then audit the run and the diff', () => {
    const validator = new ContextValidator();
    const ctx = createAgentContext('session-1', 'trace-1');
    const tracker = new DiffTracker(ctx, { now: clock() });
    const audit = new AuditTrail();
    validator.safeSet(ctx, 'intent_detection', 'reasoning', 'intents', [{ type: 'query', confidence: 0.95 }]);
    validator.safeSet(ctx, 'intent_detection', 'reasoning', 'entities', { user: 'X' });
    const diff = tracker.capture('intent_detection', ctx);
    audit.recordDiff(ctx, diff);
    audit.recordRun(ctx, { timestamp: diff.timestamp, agentId: 'intent_detection', status: 'success', durationMs: 120, keysWritten: [...diff.keysWritten] });
    expect(ctx.audit).toEqual({
      agentRuns: [{ timestamp: '2026-03-01T00:00:01.000Z', agentId: 'intent_detection', status: 'success', durationMs: 120, keysWritten: ['reasoning.entities', 'reasoning.intents'] }],
      diffs: [{ timestamp: '2026-03-01T00:00:01.000Z', agentId: 'intent_detection', changes: { reasoning: { entities_added: 1, intents_added: 1 } } }],
    });
    // The audit write itself shows up in the next agent's diff, attributed correctly.
    expect(tracker.capture('orchestrator', ctx).summary()).toBe('[orchestrator] Changes: audit.agentRuns_added=1, audit.diffs_added=1');
  });
});

describe('summarizeDiff on arguments of the wrong kind', () => {
  const refused = (diff: unknown, field: string): void => {
    expect(() => summarizeDiff(diff as never)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field }) }));
  };

  it('names diff, diff.agentId, diff.changes and a counter', () => {
    refused(undefined, 'diff');
    refused('x', 'diff');
    refused({ agentId: Symbol('a'), changes: {} }, 'diff.agentId');
    refused({ agentId: 'a', changes: null }, 'diff.changes');
    refused({ agentId: 'a', changes: { reasoning: 5 } }, 'diff.changes.reasoning');
    refused({ agentId: 'a', changes: { reasoning: { intents_added: Symbol('n') } } }, 'diff.changes.reasoning.intents_added');
    refused({ agentId: 'a', changes: { custom: { n: 10n } } }, 'diff.changes.custom.n');
    expect(summarizeDiff({ agentId: 'a', changes: { custom: { n: 2 }, reasoning: { intents_added: 1 } } })).toBe('[a] Changes: reasoning.intents_added=1, custom.n=2');
  });
});

describe('AuditTrail on arguments of the wrong kind', () => {
  const run: AgentRun = { timestamp: '2026-01-01T00:00:00.000Z', agentId: 'a', status: 'success', durationMs: 1, keysWritten: [] };
  const diff = { timestamp: '2026-01-01T00:00:00.000Z', agentId: 'a', changes: { reasoning: { intents_added: 1 } } };
  const invalid = (fn: () => unknown, field: string) => expect(thrown(fn)).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field }) });

  it('has no entry point but its checked methods', () => {
    expect(Object.getOwnPropertyNames(AuditTrail.prototype).sort()).toEqual(['constructor', 'recordDiff', 'recordRun']);
    invalid(() => new AuditTrail(null as never), 'options');
  });

  it('names context, context.audit, the list, run and diff; a refused call leaves the trail as it was', () => {
    const audit = new AuditTrail();
    const ctx = sampleContext('audit');
    audit.recordRun(ctx, run);
    audit.recordDiff(ctx, diff);
    const before = structuredClone(ctx);
    for (const bad of [undefined, null, 42, 'x', [], () => 1]) {
      invalid(() => audit.recordRun(bad as never, run), 'context');
      invalid(() => audit.recordDiff(bad as never, diff), 'context');
    }
    invalid(() => audit.recordRun({} as never, run), 'context.audit');
    invalid(() => audit.recordDiff({ audit: 'x' } as never, diff), 'context.audit');
    invalid(() => audit.recordRun({ audit: { diffs: [] } } as never, run), 'context.audit.agentRuns');
    invalid(() => audit.recordDiff({ audit: { agentRuns: [], diffs: 5 } } as never, diff), 'context.audit.diffs');
    for (const bad of [undefined, null, 42, 'x', [], Symbol('s'), 10n]) {
      invalid(() => audit.recordRun(ctx, bad as never), 'run');
      invalid(() => audit.recordDiff(ctx, bad as never), 'diff');
    }
    // Entries that are objects but not JSON data are refused by validation, before they are copied
    // (structuredClone would have thrown a DataCloneError for the function).
    invalid(() => audit.recordRun(ctx, { ...run, hook: () => 1 } as never), 'audit.agentRuns[0].hook');
    invalid(() => audit.recordRun(ctx, { ...run, durationMs: 1n } as never), 'audit.agentRuns[0].durationMs');
    const changes: Record<string, unknown> = {};
    changes.self = changes;
    invalid(() => audit.recordDiff(ctx, { ...diff, changes } as never), 'audit.diffs[0].changes.self');
    expect(ctx).toEqual(before);
  });
});

describe('DiffTracker on arguments of the wrong kind', () => {
  const invalid = (fn: () => unknown, field: string) => expect(thrown(fn)).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field }) });

  it('has no entry point but its checked methods; the constructor names context and options', () => {
    expect(Object.getOwnPropertyNames(DiffTracker.prototype).sort()).toEqual(['capture', 'constructor']);
    invalid(() => new DiffTracker(undefined as never), 'context');
    invalid(() => new DiffTracker('x' as never), 'context');
    invalid(() => new DiffTracker(createAgentContext('s', 't'), null as never), 'options');
    invalid(() => new DiffTracker(createAgentContext('s', 't'), { now: 5 as never }), 'options.now');
  });

  it('capture names agentId, context and a clock that returns no Date', () => {
    const tracker = new DiffTracker(createAgentContext('s', 't'));
    for (const bad of [undefined, null, 42, 'x', [], () => 1, Symbol('s')]) invalid(() => tracker.capture('a', bad as never), 'context');
    invalid(() => tracker.capture(undefined as never, createAgentContext('s', 't')), 'agentId');
    const badClock = new DiffTracker(createAgentContext('s', 't'), { now: (() => 'today') as never });
    invalid(() => badClock.capture('a', createAgentContext('s', 't')), 'options.now');
    const invalidDate = new DiffTracker(createAgentContext('s', 't'), { now: () => new Date(Number.NaN) });
    invalid(() => invalidDate.capture('a', createAgentContext('s', 't')), 'options.now');
  });

  it('a failed capture keeps its baseline and leaves the context as it was', () => {
    class Hooked {
      hook = (): number => 1;
    }
    const ctx = sampleContext('d');
    const tracker = new DiffTracker(ctx, { now: clock() });
    ctx.reasoning.summary = 'edited before the failures';
    const failures: [() => void, string][] = [
      // A value structuredClone cannot copy into the baseline: UNSUPPORTED_VALUE, not a DataCloneError.
      [() => ((ctx.reasoning as unknown as Record<string, unknown>).dependencyMap = new Hooked()), 'UNSUPPORTED_VALUE'],
      // Values JCS cannot write.
      [() => (ctx.reasoning.intents = [{ type: 'q', confidence: Number.NaN }]), 'UNSUPPORTED_VALUE'],
      [() => (ctx.reasoning.intents = [{ type: 'q', confidence: 1n as never }]), 'UNSUPPORTED_VALUE'],
    ];
    const intents = ctx.reasoning.intents;
    for (const [spoil, code] of failures) {
      spoil();
      const before = snapshot(ctx);
      expect(thrown(() => tracker.capture('bad', ctx))).toMatchObject({ code });
      expect(ctx).toEqual(before);
      delete (ctx.reasoning as unknown as Record<string, unknown>).dependencyMap;
      ctx.reasoning.intents = intents;
    }
    // Had a failed capture moved the baseline (even in part), this would miss the edit made before them.
    expect(tracker.capture('good', ctx).summary()).toBe('[good] Changes: reasoning.summary_changed=1');
  });

  it('a capture refused for its clock keeps the baseline too', () => {
    let calls = 0;
    const flaky = (): Date => (calls++ === 0 ? ('not a date' as never) : new Date(0));
    const ctx = sampleContext('c');
    const tracker = new DiffTracker(ctx, { now: flaky });
    ctx.reasoning.summary = 'edited';
    invalid(() => tracker.capture('a', ctx), 'options.now');
    expect(tracker.capture('a', ctx).summary()).toBe('[a] Changes: reasoning.summary_changed=1');
  });
});

/**
 * A deep copy of the plain objects and arrays of `value`, for comparing before and after; anything
 * else (a class instance, a BigInt) is kept as it is, so a context structuredClone refuses can be
 * snapshotted too.
 */
function snapshot<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item: unknown) => snapshot(item)) as T;
  if (value !== null && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, snapshot(v)])) as T;
  }
  return value;
}
