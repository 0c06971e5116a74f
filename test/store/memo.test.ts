import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalize } from '../../src/fingerprint/canonicalize.ts';
import { DiffTracker } from '../../src/store/diff.ts';
import { recordTape, tapeMatches } from '../../src/store/json-tape.ts';
import { ContextSizeChecker, getStats } from '../../src/store/limits.ts';
import type { AgentContext } from '../../src/store/model.ts';
import { NAMESPACES, validateAgentContext } from '../../src/store/model.ts';
import { canonicalContextText, serializeContext } from '../../src/store/serialize.ts';
import { sampleContext } from './contract.ts';

// Serialise, size check and diff capture reuse work for namespaces and fields proven unchanged by
// a tape (src/store/json-tape.ts). Contexts are mutable plain objects, so these properties mutate
// the SAME context object in place between calls and check every answer against a full recount.

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

type Edit = { kind: number; n: number; text: string };
const editArb: fc.Arbitrary<Edit> = fc.record({ kind: fc.nat(11), n: fc.nat(7), text: fc.string({ unit: 'grapheme', maxLength: 6 }) });

/** One in-place edit; several keep every object's identity and only change a leaf deep inside. */
function applyEdit(ctx: AgentContext, { kind, n, text }: Edit): void {
  const r = ctx.reasoning;
  switch (kind) {
    case 0:
      r.intents.push({ type: text, confidence: n / 7 });
      break;
    case 1:
      if (r.intents[0]) r.intents[0].confidence = n / 7;
      break;
    case 2:
      r.intents[0]?.entities?.push(text);
      break;
    case 3:
      (r.entities.repo as Record<string, unknown>).stars = n;
      break;
    case 4:
      r.summary += text;
      break;
    case 5: {
      // Same data, members in another order: the text is the same, a memo must still not lie.
      const fact = ctx.enrichment.facts[0];
      if (fact) ctx.enrichment.facts[0] = Object.fromEntries(Object.entries(fact).reverse()) as typeof fact;
      break;
    }
    case 6:
      ctx.enrichment.contextLinks.push(text);
      break;
    case 7:
      if (ctx.llm.usage) ctx.llm.usage.byAgent[text || 'x'] = n;
      break;
    case 8:
      ctx.reasoning.confidenceScores[`${n}`] = n / 7;
      break;
    case 9:
      ctx.diagnostics.warnings.push({ timestamp: '2026-01-02T03:04:05.000Z', agentId: 'a', message: text });
      break;
    case 10:
      ctx.reasoning.intents.pop();
      break;
    default:
      // An own member set to undefined is not JSON data: validation refuses it, and so must serialise.
      if (n === 0) ctx.metadata.locale = undefined;
      else if (n === 1) delete ctx.metadata.locale;
      else ctx.metadata.locale = text;
  }
}

const roundsArb = fc.array(fc.array(editArb, { maxLength: 3 }), { minLength: 1, maxLength: 6 });

describe('reuse of unchanged namespaces and fields', () => {
  it('serializeContext equals a full validation + canonicalize after in-place edits (property)', () => {
    fc.assert(
      fc.property(roundsArb, (rounds) => {
        const ctx = sampleContext('memo');
        serializeContext(ctx);
        for (const edits of rounds) {
          for (const e of edits) applyEdit(ctx, e);
          // The unmemoised path: whole-context validation, then the whole text.
          let expected: unknown;
          try {
            validateAgentContext(ctx);
            expected = canonicalContextText(ctx);
          } catch (error) {
            expected = error;
          }
          if (typeof expected === 'string') expect(serializeContext(ctx)).toBe(expected);
          else {
            const { code, details } = expected as { code: string; details: unknown };
            expect(() => serializeContext(ctx)).toThrow(expect.objectContaining({ code, details }));
          }
        }
      }),
      { numRuns: 150 },
    );
  });

  it('getStats and check agree with a full recount after in-place edits (property)', () => {
    fc.assert(
      fc.property(roundsArb, (rounds) => {
        const ctx = sampleContext('sizes');
        getStats(ctx);
        for (const edits of rounds) {
          for (const e of edits) applyEdit(ctx, e);
          const stats = getStats(ctx);
          expect(stats.totalSize).toBe(bytes(ctx));
          for (const ns of NAMESPACES) expect(stats.namespaceSizes[ns]).toBe(bytes(ctx[ns]));
          const exact = bytes(ctx.reasoning);
          // A limit one byte under the true size must trip: a stale size would let it pass.
          expect(() => new ContextSizeChecker({ maxNamespaceSize: exact - 1, maxTotalSize: 10_000_000 }).check(ctx)).toThrow(
            expect.objectContaining({ code: 'CONTEXT_SIZE', details: expect.objectContaining({ current: exact }) }),
          );
          expect(() => new ContextSizeChecker({ maxNamespaceSize: 10_000_000, maxTotalSize: bytes(ctx) }).check(ctx)).not.toThrow();
          expect(() => new ContextSizeChecker({ maxNamespaceSize: 10_000_000, maxTotalSize: bytes(ctx) - 1 }).check(ctx)).toThrow(
            expect.objectContaining({ code: 'CONTEXT_SIZE', details: expect.objectContaining({ current: bytes(ctx) }) }),
          );
        }
      }),
      { numRuns: 150 },
    );
  });

  it('DiffTracker reports the same diff as a fresh tracker over a snapshot, capture after capture (property)', () => {
    fc.assert(
      fc.property(roundsArb, (rounds) => {
        const ctx = sampleContext('diff');
        const tracker = new DiffTracker(ctx);
        let snapshot = structuredClone(ctx);
        for (const edits of rounds) {
          for (const e of edits) applyEdit(ctx, e);
          const expected = new DiffTracker(snapshot).capture('agent', ctx);
          const actual = tracker.capture('agent', ctx);
          expect(actual.changes).toEqual(expected.changes);
          expect(actual.keysWritten).toEqual(expected.keysWritten);
          snapshot = structuredClone(ctx);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('refuses a member set to undefined after the namespace without it was serialised', () => {
    const ctx = sampleContext('undefined-member');
    delete ctx.metadata.locale;
    serializeContext(ctx);
    ctx.metadata.locale = undefined;
    expect(() => serializeContext(ctx)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'context.metadata.locale' } }));
  });

  it('refuses a context broken in place after it was serialised, with the same error as validation', () => {
    const ctx = sampleContext('broken');
    serializeContext(ctx);
    ctx.reasoning.intents[0]!.confidence = 2;
    expect(() => serializeContext(ctx)).toThrow(
      expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'context.reasoning.intents[0].confidence' }) }),
    );
    ctx.reasoning.intents[0]!.confidence = 0.5;
    expect(serializeContext(ctx)).toBe(canonicalize(ctx));
    ctx.reasoning.summary = 'half a pair \ud800';
    expect(() => serializeContext(ctx)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'context.reasoning.summary' } }));
    ctx.reasoning.summary = 'ok';
    (ctx.reasoning.entities as Record<string, unknown>).back = ctx;
    expect(() => serializeContext(ctx)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'context.reasoning.entities.back' }) }));
    delete (ctx.reasoning.entities as Record<string, unknown>).back;
    (ctx.llm as unknown as Record<string, unknown>).extra = 1;
    expect(() => serializeContext(ctx)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'context.llm.extra' }) }));
  });
});

describe('json tapes', () => {
  it('a value matches its own tape; a match means identical JSON and RFC 8785 text (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.jsonValue(), (a, b) => {
        const tape = recordTape(a);
        expect(tape).toBeDefined();
        expect(tapeMatches(a, tape!)).toBe(true);
        expect(tapeMatches(structuredClone(a), tape!)).toBe(true);
        if (tapeMatches(b, tape!)) {
          expect(JSON.stringify(b)).toBe(JSON.stringify(a));
          expect(canonicalize(b)).toBe(canonicalize(a));
        } else {
          expect(JSON.stringify(b)).not.toBe(JSON.stringify(a));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('does not match after an in-place change, a reorder, an added toJSON or an inherited member', () => {
    const value = { a: [1, { b: 'x' }], c: null as unknown };
    const tape = recordTape(value)!;
    (value.a[1] as Record<string, unknown>).b = 'y';
    expect(tapeMatches(value, tape)).toBe(false);
    (value.a[1] as Record<string, unknown>).b = 'x';
    expect(tapeMatches(value, tape)).toBe(true);
    expect(tapeMatches({ c: null, a: [1, { b: 'x' }] }, tape)).toBe(false);
    const hidden = { a: [1, { b: 'x' }], c: null };
    Object.defineProperty(hidden, 'toJSON', { value: () => 'other', enumerable: false });
    expect(tapeMatches(hidden, tape)).toBe(false);
    const inherited = Object.assign(Object.create({ extra: 1 }) as object, { a: [1, { b: 'x' }], c: null });
    expect(tapeMatches(inherited, tape)).toBe(false);
    // JSON leaves an undefined member out, but validation refuses it: it must not match.
    expect(tapeMatches({ a: [1, { b: 'x' }], c: null, d: undefined }, tape)).toBe(false);
  });

  it('records only plain JSON data', () => {
    for (const v of [new Date(0), { a: Number.NaN }, [undefined], { f: () => 1 }, new Map(), 1n]) expect(recordTape(v)).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(recordTape(cyclic)).toBeUndefined();
  });
});
