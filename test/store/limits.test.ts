import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextSizeChecker, DEFAULT_CONTEXT_LIMITS, getStats, jsonByteLength, resolveLimits } from '../../src/store/limits.ts';
import { utf8ByteLength } from '../../src/encoding/utf8-size.ts';
import { NAMESPACES, createAgentContext } from '../../src/store/model.ts';
import { sampleContext } from './contract.ts';
import { thrown } from '../fixtures/thrown.ts';

const bytes = (v: unknown) => new TextEncoder().encode(JSON.stringify(v)).length;

describe('size limits and stats', () => {
  it('has the spec defaults', () => {
    expect(DEFAULT_CONTEXT_LIMITS).toEqual({
      maxTotalSize: 10_485_760,
      maxNamespaceSize: 2_097_152,
      maxArrayItems: 1000,
      artifactExternalizationThreshold: 102_400,
      maxInlineArtifactSize: 51_200,
    });
    expect(() => resolveLimits({ maxArrayItems: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_PARAMS', details: { field: 'limits.maxArrayItems' } }));
  });

  it('counts UTF-8 bytes like TextEncoder (property)', () => {
    expect(utf8ByteLength('aé€😀')).toBe(10);
    // Lone surrogates count as the U+FFFD the encoder writes; long text crosses the scratch window.
    expect(utf8ByteLength('\ud800x\udc00')).toBe(7);
    const long = `${'a'.repeat(65_535)}😀${'é€'.repeat(40_000)}`;
    expect(utf8ByteLength(long)).toBe(65_535 + 4 + 200_000);
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => utf8ByteLength(s) === new TextEncoder().encode(s).length));
  });

  it('getStats: sizes, array counts and externalised artifacts', () => {
    const ctx = sampleContext('stats');
    ctx.retrieval.artifacts = [
      { id: 'a1', type: 'doc', content: { text: 'hello' }, source: 's' },
      { id: 'a2', type: 'doc', ref: { sha256: 'a'.repeat(64), size: 9 }, source: 's' },
    ];
    const stats = getStats(ctx);
    expect(stats.totalSize).toBe(bytes(ctx));
    for (const ns of NAMESPACES) expect(stats.namespaceSizes[ns]).toBe(bytes(ctx[ns]));
    expect(stats.arrayCounts.intents).toBe(1);
    expect(stats.arrayCounts.facts).toBe(1);
    expect(stats.arrayCounts.artifacts).toBe(2);
    expect(stats.arrayCounts.diffs).toBe(0);
    expect(stats.externalizedCount).toBe(1);
    expect(stats.inlineArtifactSize).toBe(bytes({ text: 'hello' }));
    expect(jsonByteLength(undefined)).toBe(0);
  });

  it('total size matches the serialised length for random contexts (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(fc.string(), { maxLength: 5 }), (summary, links) => {
        const ctx = createAgentContext('s', 't');
        ctx.reasoning.summary = summary;
        ctx.enrichment.contextLinks = links;
        expect(getStats(ctx).totalSize).toBe(bytes(ctx));
      }),
    );
  });

  it('check() and checkWrite() report the broken limit; checkWrite modifies nothing', () => {
    const checker = new ContextSizeChecker({ maxArrayItems: 2, maxNamespaceSize: 500, maxTotalSize: 1500 });
    const ctx = createAgentContext('s', 't', { createdAt: '2026-01-01T00:00:00.000Z' });
    checker.check(ctx);
    ctx.enrichment.contextLinks = ['a', 'b', 'c'];
    expect(() => checker.check(ctx)).toThrow(
      expect.objectContaining({ code: 'CONTEXT_SIZE', details: { limit: 'maxArrayItems', current: 3, maximum: 2, namespace: 'enrichment', key: 'contextLinks' } }),
    );
    ctx.enrichment.contextLinks = [];
    ctx.reasoning.summary = 'x'.repeat(600);
    const nsSize = bytes(ctx.reasoning);
    expect(() => checker.check(ctx)).toThrow(
      expect.objectContaining({ details: { limit: 'maxNamespaceSize', current: nsSize, maximum: 500, namespace: 'reasoning' } }),
    );
    ctx.reasoning.summary = 'x'.repeat(400);
    ctx.llm.cache = { a: 'y'.repeat(400) };
    checker.check(ctx);
    const snapshot = JSON.stringify(ctx);
    const next = { ...ctx, enrichment: { ...ctx.enrichment, contextLinks: ['z'.repeat(400)] } };
    expect(() => checker.checkWrite(ctx, 'enrichment', 'contextLinks', ['z'.repeat(400)])).toThrow(
      expect.objectContaining({ details: { limit: 'maxTotalSize', current: bytes(next), maximum: 1500, namespace: 'enrichment', key: 'contextLinks' } }),
    );
    expect(JSON.stringify(ctx)).toBe(snapshot);
    ctx.enrichment.contextLinks = ['z'.repeat(400)];
    expect(() => checker.check(ctx)).toThrow(expect.objectContaining({ details: { limit: 'maxTotalSize', current: bytes(ctx), maximum: 1500 } }));
  });

  it('one checker over a run of contexts, near its limits and far from them, decides and reports as the truth does (property)', () => {
    // Bounds decide some checks and exact sizes others, and what a check learns about a context is
    // kept for the next (sizes of namespaces proven unchanged); nothing decided or reported may
    // depend on that. Each step is a context never seen or the last one edited in place.
    const text = fc.oneof(fc.string({ unit: 'binary', maxLength: 120 }), fc.string({ maxLength: 60 }).map((s) => `${s}構"\n\u0001`));
    // Summaries from empty to thousands of bytes, so one run meets contexts whose bounds decide and
    // contexts whose exact sizes must.
    const summary = fc.tuple(text, fc.integer({ min: 1, max: 30 })).map(([t, k]) => t.repeat(k));
    const step = fc.record({ fresh: fc.boolean(), summary, links: fc.array(text, { maxLength: 6 }) });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), fc.integer({ min: 200, max: 8000 }), fc.integer({ min: 150, max: 4000 }), (steps, maxTotalSize, maxNamespaceSize) => {
        const longLived = new ContextSizeChecker({ maxTotalSize, maxNamespaceSize });
        const fresh = () => createAgentContext('s', 't', { createdAt: '2026-01-01T00:00:00.000Z' });
        let ctx = fresh();
        const outcome = (checker: ContextSizeChecker) => {
          try {
            checker.check(ctx);
            return 'ok';
          } catch (error) {
            return (error as { details: unknown }).details;
          }
        };
        const truth = () => {
          for (const ns of NAMESPACES) {
            const current = bytes(ctx[ns]);
            if (current > maxNamespaceSize) return { limit: 'maxNamespaceSize', current, maximum: maxNamespaceSize, namespace: ns };
          }
          const current = bytes(ctx);
          return current > maxTotalSize ? { limit: 'maxTotalSize', current, maximum: maxTotalSize } : 'ok';
        };
        for (const { fresh: isFresh, summary, links } of steps) {
          if (isFresh) ctx = fresh();
          ctx.reasoning.summary = summary;
          ctx.enrichment.contextLinks = links;
          const want = truth();
          expect(outcome(longLived)).toEqual(want);
          // Asked again (everything now known and proven unchanged), and by a checker new to it.
          expect(outcome(longLived)).toEqual(want);
          expect(outcome(new ContextSizeChecker({ maxTotalSize, maxNamespaceSize }))).toEqual(want);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('checkWrite sizes the namespace after a write as JSON.stringify of it would be, at the limit and one byte over (property)', () => {
    // The size after a write is counted on the written member alone (its old bytes out, its new bytes
    // in); held here to the JSON of the whole namespace as it would be, replaced, added or removed.
    const key = fc.oneof(fc.constantFrom('provider', 'model', 'a', 'b'), fc.string({ maxLength: 6 })).filter((k) => k !== '__proto__');
    const member = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.string({ unit: 'binary', maxLength: 40 }).map((s) => `${s}"\n構`), fc.constant(undefined));
    const createdAt = '2026-01-01T00:00:00.000Z';
    fc.assert(
      fc.property(fc.array(fc.tuple(key, member), { maxLength: 6 }), key, member, fc.boolean(), (members, name, value, seenBefore) => {
        const ctx = createAgentContext('s', 't', { createdAt });
        // Plain data put in place, as an agent may (undefined members included).
        const llm: Record<string, unknown> = {};
        for (const [k, v] of members) llm[k] = v;
        (ctx as unknown as Record<string, unknown>).llm = llm;
        if (seenBefore) getStats(ctx);
        const next: Record<string, unknown> = { ...llm };
        if (value === undefined) delete next[name];
        else next[name] = value;
        const nsSize = bytes(next);
        const total = bytes({ ...ctx, llm: next });
        const snapshot = JSON.stringify(ctx);
        new ContextSizeChecker({ maxNamespaceSize: nsSize, maxTotalSize: total }).checkWrite(ctx, 'llm', name, value);
        expect(() => new ContextSizeChecker({ maxNamespaceSize: nsSize - 1 }).checkWrite(ctx, 'llm', name, value)).toThrow(
          expect.objectContaining({ details: { limit: 'maxNamespaceSize', current: nsSize, maximum: nsSize - 1, namespace: 'llm', key: name } }),
        );
        expect(() => new ContextSizeChecker({ maxNamespaceSize: nsSize, maxTotalSize: total - 1 }).checkWrite(ctx, 'llm', name, value)).toThrow(
          expect.objectContaining({ details: { limit: 'maxTotalSize', current: total, maximum: total - 1, namespace: 'llm', key: name } }),
        );
        expect(JSON.stringify(ctx)).toBe(snapshot);
      }),
      { numRuns: 1000 },
    );
    // What JSON leaves out or writes differently: a non-enumerable member, a null-prototype object, a
    // Date (toJSON), an array where an object belongs, a member whose value is a function, a value
    // whose toJSON depends on the name it is written under.
    const cases: [unknown, string, unknown][] = [
      [Object.defineProperty({ a: 1 }, 'hidden', { value: 'x'.repeat(50), enumerable: false }), 'hidden', 'y'],
      [Object.assign(Object.create(null) as object, { a: 'z', b: 2 }), 'a', 'longer value'],
      [{ when: new Date(0), a: 1 }, 'a', 22],
      [['x', 'y'], 'a', 1],
      [{ a: 1, f: () => 1 }, 'a', 'q'],
      [{ only: 'one' }, 'only', undefined],
      [{}, 'first', { nested: ['v'] }],
      // toJSON is called with the member's name, inside the namespace.
      [{ a: 1 }, 'keyed', { toJSON: (name: string) => name.repeat(10) }],
    ];
    for (const [llm, name, value] of cases) {
      const ctx = createAgentContext('s', 't', { createdAt });
      (ctx as unknown as Record<string, unknown>).llm = llm;
      const next: Record<string, unknown> = { ...(llm as Record<string, unknown>) };
      if (value === undefined) delete next[name];
      else next[name] = value;
      const nsSize = bytes(next);
      new ContextSizeChecker({ maxNamespaceSize: nsSize }).checkWrite(ctx, 'llm', name, value);
      expect(() => new ContextSizeChecker({ maxNamespaceSize: nsSize - 1 }).checkWrite(ctx, 'llm', name, value)).toThrow(
        expect.objectContaining({ details: expect.objectContaining({ current: nsSize }) }),
      );
    }
  });

  it('shouldExternalizeArtifacts: one artifact over 50 KB, or all inline ones over 100 KB', () => {
    const checker = new ContextSizeChecker();
    const ctx = createAgentContext('s', 't');
    const art = (id: string, n: number) => ({ id, type: 'blob', content: 'x'.repeat(n - 2), source: 's' });
    ctx.retrieval.artifacts = [art('a', 51_200)];
    expect(checker.shouldExternalizeArtifacts(ctx)).toBe(false);
    ctx.retrieval.artifacts = [art('a', 51_201)];
    expect(checker.shouldExternalizeArtifacts(ctx)).toBe(true);
    ctx.retrieval.artifacts = [art('a', 50_000), art('b', 50_000), art('c', 2_400)];
    expect(checker.shouldExternalizeArtifacts(ctx)).toBe(false);
    ctx.retrieval.artifacts.push(art('d', 3));
    expect(checker.shouldExternalizeArtifacts(ctx)).toBe(true);
  });
});

describe('getStats on arguments of the wrong kind', () => {

  it('names ctx and the artifacts list; values JSON cannot write are UNSUPPORTED_VALUE', () => {
    for (const bad of [undefined, null, 42, 'x', []]) expect(thrown(() => getStats(bad as never))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'ctx' }) });
    const cyclic: Record<string, unknown> = { version: '1.0.0' };
    cyclic.self = cyclic;
    expect(thrown(() => getStats(cyclic as never))).toMatchObject({ code: 'UNSUPPORTED_VALUE' });
    const big = createAgentContext('s', 't');
    (big.llm.cache as Record<string, unknown>).n = 10n;
    expect(thrown(() => getStats(big))).toMatchObject({ code: 'UNSUPPORTED_VALUE' });
    const ctx = createAgentContext('s', 't');
    (ctx.retrieval as unknown as Record<string, unknown>).artifacts = 'x';
    expect(thrown(() => getStats(ctx))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'ctx.retrieval.artifacts' }) });
    (ctx.retrieval as unknown as Record<string, unknown>).artifacts = [null];
    expect(thrown(() => getStats(ctx))).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field: 'ctx.retrieval.artifacts[0]' }) });
    // A context that is not valid is still measured, as before.
    (ctx.retrieval as unknown as Record<string, unknown>).artifacts = [7];
    expect(getStats(ctx).inlineArtifactSize).toBe(0);
  });
});

describe('ContextSizeChecker on arguments of the wrong kind', () => {
  const checker = new ContextSizeChecker();
  const invalid = (fn: () => unknown, field: string) => expect(thrown(fn)).toMatchObject({ code: 'INVALID_PARAMS', details: expect.objectContaining({ field }) });

  it('has no entry point but its checked methods', () => {
    // Helpers that trust their arguments are module functions, not methods a caller could reach.
    expect(Object.getOwnPropertyNames(ContextSizeChecker.prototype).sort()).toEqual(['check', 'checkWrite', 'constructor', 'shouldExternalizeArtifacts']);
  });

  it('check names ctx; a BigInt or a cycle is UNSUPPORTED_VALUE with its path', () => {
    for (const bad of [undefined, null, 42, 'x', [], () => 1, Symbol('s'), 10n]) invalid(() => checker.check(bad as never), 'ctx');
    const big = createAgentContext('s', 't');
    (big.llm.cache as Record<string, unknown>).n = 10n;
    expect(thrown(() => checker.check(big))).toMatchObject({ code: 'UNSUPPORTED_VALUE', details: { field: 'ctx', path: 'ctx.llm.cache.n', what: 'a BigInt' } });
    const cyclic = createAgentContext('s', 't');
    (cyclic.reasoning.entities as Record<string, unknown>).self = cyclic.reasoning;
    const error = thrown(() => checker.check(cyclic));
    expect(error).toMatchObject({ code: 'UNSUPPORTED_VALUE', details: { field: 'ctx', path: 'ctx.reasoning.entities.self', what: 'a cycle' } });
    expect(error.cause).toBeInstanceOf(TypeError);
    // An object that is not a valid context is still measured, as before.
    checker.check({} as never);
    checker.check({ reasoning: 5, llm: 'x' } as never);
  });

  it('checkWrite names ctx, namespace and key before measuring; names value when it holds a BigInt; modifies nothing', () => {
    const ctx = sampleContext('w');
    const before = structuredClone(ctx);
    invalid(() => checker.checkWrite(undefined as never, 'llm', 'cache', {}), 'ctx');
    invalid(() => checker.checkWrite('x' as never, 'llm', 'cache', {}), 'ctx');
    invalid(() => checker.checkWrite(ctx, undefined as never, 'cache', {}), 'namespace');
    invalid(() => checker.checkWrite(ctx, 'nope' as never, 'cache', {}), 'namespace');
    invalid(() => checker.checkWrite(ctx, 'llm', Symbol('k') as never, {}), 'key');
    invalid(() => checker.checkWrite(ctx, 'llm', undefined as never, {}), 'key');
    expect(thrown(() => checker.checkWrite(ctx, 'llm', 'cache', { n: 1n }))).toMatchObject({ code: 'UNSUPPORTED_VALUE', details: { field: 'value', path: 'value.n' } });
    const loop: Record<string, unknown> = {};
    loop.loop = loop;
    expect(thrown(() => checker.checkWrite(ctx, 'llm', 'cache', loop))).toMatchObject({ code: 'UNSUPPORTED_VALUE', details: { field: 'value', what: 'a cycle' } });
    expect(ctx).toEqual(before);
  });

  it('shouldExternalizeArtifacts names ctx and the artifacts; content JSON cannot write is UNSUPPORTED_VALUE', () => {
    for (const bad of [undefined, null, 42, 'x', []]) invalid(() => checker.shouldExternalizeArtifacts(bad as never), 'ctx');
    const ctx = createAgentContext('s', 't');
    (ctx.retrieval as unknown as Record<string, unknown>).artifacts = 'x';
    invalid(() => checker.shouldExternalizeArtifacts(ctx), 'ctx.retrieval.artifacts');
    (ctx.retrieval as unknown as Record<string, unknown>).artifacts = [null];
    invalid(() => checker.shouldExternalizeArtifacts(ctx), 'ctx.retrieval.artifacts[0]');
    ctx.retrieval.artifacts = [{ id: 'a', type: 't', source: 's', content: { n: 1n } }];
    expect(thrown(() => checker.shouldExternalizeArtifacts(ctx))).toMatchObject({
      code: 'UNSUPPORTED_VALUE',
      details: { field: 'ctx.retrieval.artifacts[0].content', path: 'ctx.retrieval.artifacts[0].content.n' },
    });
    // Measured leniently, as getStats is: no retrieval at all is no artifacts.
    expect(checker.shouldExternalizeArtifacts({} as never)).toBe(false);
  });
});
