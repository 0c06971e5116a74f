// Tool-output policy (spec 000) in every runtime: wrappers and `_meta` with an injected clock,
// byte limits measured on UTF-8 with non-ASCII data, summarisation, text truncation with exact
// omitted counts, session budget warnings, sanitisation, caches, log records, provenance, and the
// MCP adapter over a real client and server from @modelcontextprotocol/sdk.
import { initCore } from '../../src/core/core.ts';
import { CtxgateError, isCtxgateError } from '../../src/errors.ts';
import { getContextBudget, SessionBudget, withBudgetWarning } from '../../src/policy/budget.ts';
import type { BudgetEvents } from '../../src/policy/budget.ts';
import { jsonEscapeKernel } from '../../src/core/json-escapes.ts';
import { jsonStringBytesPortable } from '../../src/encoding/utf8-size.ts';
import { jsonStringByteLength, utf8ByteLength } from '../../src/policy/bytes.ts';
import { TtlCache, VersionedCache } from '../../src/policy/cache.ts';
import type { Clock } from '../../src/policy/clock.ts';
import { defineToolLimits } from '../../src/policy/limits.ts';
import { withLogContext } from '../../src/policy/log-context.ts';
import { applyToolPolicy } from '../../src/policy/mcp.ts';
import { ARIA_CITATION_FORMATS, cite, citeEos, citeEsi, citeSde, citeWiki } from '../../src/policy/provenance.ts';
import { dropSensitiveFields, escapeMarkdown, redactForLog, sanitizeField, sanitizeOutput, stripHtml } from '../../src/policy/sanitize.ts';
import { resetAllSingletons } from '../../src/policy/singletons.ts';
import { summarizeRoute, truncateList } from '../../src/policy/summarize.ts';
import { createErrorMeta, toToolError } from '../../src/policy/tool-error.ts';
import { truncateText } from '../../src/policy/truncate-text.ts';
import { wrapOutput, wrapOutputMulti, wrapScalarOutput } from '../../src/policy/wrap.ts';
import { wrapTextOutput } from '../../src/policy/wrap-text.ts';
import type { TokenCounter } from '../../src/tokens/counter.ts';
import type { Harness } from './harness.ts';

/** 2026-01-22T12:00:00.000Z, the spec's example time. */
const SPEC_TIME = Date.UTC(2026, 0, 22, 12, 0, 0);
const ISO = '2026-01-22T12:00:00.000Z';
const fixedClock: Clock = () => SPEC_TIME;
/** A clock that moves by `step` ms each read, so elapsed times are exact. */
function steppingClock(step = 7): Clock {
  let t = SPEC_TIME - step;
  return () => (t += step);
}
/** A clock the test moves by hand. */
function manualClock(): Clock & { advance(ms: number): void } {
  let t = SPEC_TIME;
  return Object.assign(() => t, { advance: (ms: number) => void (t += ms) });
}
const quarterCounter: TokenCounter = (text) => ({ tokens: Math.ceil(text.length / 4), exact: false, encoder: 'test/quarter' });
const bytesOf = (value: unknown) => new TextEncoder().encode(typeof value === 'string' ? value : JSON.stringify(value)).length;
const wellFormed = (s: string) => new TextDecoder().decode(new TextEncoder().encode(s)) === s;
function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return isCtxgateError(e) ? `${e.code}` : `not a ctxgate error: ${String(e)}`;
  }
  return undefined;
}

/** The tool-output policy, the same in every runtime. */
export function policyContract({ describe, it, expect, runtime }: Harness): void {
  describe(`policy (${runtime})`, () => {
    const systems = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `Système-${i}-日本`, relevance: i % 7, security: ((i % 11) - 3) / 10 }));

    it('wrapOutput: `_meta` with the injected clock, truncated only when items were dropped', () => {
      resetAllSingletons();
      const small = wrapOutput({ query: 'Jita', systems: systems(3) }, 'systems', { clock: fixedClock });
      expect(small._meta).toEqual({ count: 3, timestamp: ISO });
      expect('truncated' in small._meta).toBe(false);
      const big = wrapOutput({ query: 'Jita', systems: systems(40), _meta: { source: 'SDE', count: 99 } }, 'systems', { clock: fixedClock, maxBytes: 100_000 });
      expect(big._meta).toEqual({ source: 'SDE', count: 30, truncated: true, truncatedFrom: 40, timestamp: ISO });
      expect((big.systems as unknown[]).length).toBe(30);
      const top = wrapOutput({ systems: systems(20) }, 'systems', { maxItems: 3, truncation: { kind: 'topN', by: 'relevance', order: 'desc' }, clock: fixedClock });
      expect((top.systems as { name: string }[]).map((s) => s.name)).toEqual(['Système-6-日本', 'Système-13-日本', 'Système-5-日本']);
    });

    it('byte counts equal what this runtime\'s encoder and JSON.stringify write, every escape at every block offset', () => {
      // A long string's JSON escapes are counted on the encoder's bytes by a WebAssembly kernel,
      // sixteen at a time, or in JavaScript four at a time where the runtime does not compile
      // WebAssembly at run time; each runtime's engine and encoder are checked here, on both ways
      // of counting, not only Node's.
      const units = ['"', '\\', '\n', '\t', '\u0001', '\u001f', '\u007f', '\ud800', '\udc00', '\ufffd', '\uff08', '😀'];
      let checked = 0;
      for (const unit of units) {
        for (const filler of ['a', 'é', '構']) {
          for (let offset = 0; offset < 16; offset++) {
            const s = filler.repeat(25 + offset) + unit + filler.repeat(3) + unit;
            const want = bytesOf(JSON.stringify(s));
            expect(jsonStringByteLength(s)).toBe(want - 2);
            expect(jsonStringBytesPortable(s)).toBe(want);
            expect(utf8ByteLength(s)).toBe(bytesOf(s));
            checked++;
          }
        }
      }
      // Past the first 64 KiB window of the encoder.
      const long = '構成 naïve "quoted"\n'.repeat(6000) + '\ud800';
      expect(jsonStringByteLength(long)).toBe(bytesOf(JSON.stringify(long)) - 2);
      expect(jsonStringBytesPortable(long)).toBe(bytesOf(JSON.stringify(long)));
      expect(utf8ByteLength(long)).toBe(bytesOf(long));
      expect(checked).toBe(units.length * 3 * 16);
    });

    it('compiles the JSON-escape kernel where the runtime allows WebAssembly from bytes, and only there; counts from UTF-16 only in Node', () => {
      // workerd refuses to compile WebAssembly at run time ("Wasm code generation disallowed by
      // embedder"): there the JavaScript count above is the one in use.
      const kernel = jsonEscapeKernel();
      if (runtime === 'workerd') expect(kernel).toBeNull();
      else expect(kernel?.window.byteLength).toBe(65536);
      // Only Node copies a string's UTF-16 code units natively (Buffer), so only there does the
      // kernel count from them; elsewhere it counts on the encoder's bytes.
      if (runtime === 'node') expect(kernel?.utf16).not.toBeNull();
      else expect(kernel?.utf16 ?? null).toBeNull();
    });

    it('byte limits hold on the UTF-8 of the whole JSON, `_meta` included, with non-ASCII items', () => {
      for (const maxBytes of [256, 600, 1000, 3072]) {
        const out = wrapOutput({ query: 'Jita 日本 😀', systems: systems(40) }, 'systems', { clock: fixedClock, maxBytes });
        expect(bytesOf(out)).toBeLessThanOrEqual(maxBytes);
        if (out._meta.count === 30) continue; // cut by maxItems, not by bytes
        // One more item would not have fitted: the cut is the largest that fits.
        const more = { ...out, systems: systems(40).slice(0, out._meta.count + 1), _meta: { ...out._meta, count: out._meta.count + 1 } };
        expect(bytesOf(more)).toBeGreaterThan(maxBytes);
      }
      const out = wrapOutput({ query: 'Jita 日本 😀', systems: systems(40) }, 'systems', { clock: fixedClock, maxBytes: 600 });
      expect(out._meta).toEqual({ count: 8, truncated: true, truncatedFrom: 40, timestamp: ISO });
    });

    it('wrapOutputMulti and wrapScalarOutput bound per list, then by bytes, shortening strings last', () => {
      const orders = (side: string, n: number) => Array.from({ length: n }, (_, i) => ({ id: `${side}-${i}`, price: 1000 - i, note: 'é' }));
      const multi = wrapOutputMulti({ buy: orders('b', 25), sell: orders('s', 5) }, [['buy', 20], ['sell', 20]], { clock: fixedClock, maxBytes: 100_000 });
      expect(multi._meta).toEqual({
        count: 25,
        truncated: true,
        truncatedFrom: 30,
        timestamp: ISO,
        lists: { buy: { count: 20, truncated: true, truncatedFrom: 25 }, sell: { count: 5 } },
      });
      const tight = wrapOutputMulti({ buy: orders('b', 25), sell: orders('s', 25) }, ['buy', 'sell'], { clock: fixedClock, maxBytes: 1024 });
      expect(bytesOf(tight)).toBeLessThanOrEqual(1024);
      const lists = tight._meta.lists as Record<string, { count: number }>;
      expect(Math.abs(lists.buy!.count - lists.sell!.count)).toBeLessThanOrEqual(1);

      const scalar = wrapScalarOutput({ item: 'Tritanium', description: 'Минерал 😀 '.repeat(200) }, { clock: fixedClock, maxBytes: 512 });
      expect(bytesOf(scalar)).toBeLessThanOrEqual(512);
      expect(scalar._meta).toMatchObject({ count: 1, truncated: true, truncatedFrom: 1, shortenedFields: ['description'] });
      expect(wellFormed(scalar.description as string)).toBe(true);
      expect(scalar.item).toBe('Tritanium');
    });

    it("summarisation: the spec's route example, lists over 30 with counts", () => {
      const route = wrapRoute(30);
      expect(route._meta).toEqual({ count: 10, truncated: true, truncatedFrom: 30, timestamp: ISO, summarized: true, originalCount: 30 });
      expect((route.systems as { name: string }[]).map((s) => s.name)).toEqual(['S0', 'S1', 'S2', 'S3', 'S4', 'S25', 'S26', 'S27', 'S28', 'S29']);
      expect((route as Record<string, unknown>).systemsSummary).toEqual({
        omitted: 20,
        fromIndex: 5,
        toIndex: 24,
        security: { highsec: 7, lowsec: 7, nullsec: 6 },
        lowestSecurity: { name: 'S15', security: -0.5 },
      });
      expect(wrapRoute(20)._meta).toEqual({ count: 20, timestamp: ISO });
      const list = truncateList(Array.from({ length: 45 }, (_, i) => i));
      expect(list.meta).toEqual({ count: 30, truncated: true, truncatedFrom: 45, omitted: 15 });
      expect(list.items.at(-1)).toBe(29);
    });

    it('text truncation keeps head and tail with exact omitted counts, on non-ASCII lines', () => {
      const lines = Array.from({ length: 100 }, (_, i) => `ligne ${i} — été 😀`);
      const text = `${lines.join('\n')}\n`;
      const cut = truncateText(text, { maxLines: 11, counter: quarterCounter });
      const omitted = lines.slice(5, 95).map((l) => `${l}\n`).join('');
      expect(cut.text).toBe(`${lines.slice(0, 5).join('\n')}\n… [90 lines omitted] …\n${lines.slice(95).join('\n')}\n`);
      expect(cut.meta).toEqual({
        truncated: true,
        mode: 'lines',
        totalLines: 100,
        keptLines: 10,
        omittedLines: 90,
        omittedChars: [...omitted].length,
        omittedTokens: Math.ceil(omitted.length / 4),
        tokenEncoder: 'test/quarter',
      });
      const bytes = truncateText(text, { maxBytes: 500 });
      expect(bytesOf(bytes.text)).toBeLessThanOrEqual(500);
      expect(bytes.meta.keptLines + bytes.meta.omittedLines).toBe(100);
      // Lines 0-9 are 23 bytes, 10-99 are 24, the marker 27: 10 + 10 lines fit in 497 bytes; each omitted line is 17 code points.
      expect(bytes.meta).toEqual({ truncated: true, mode: 'lines', totalLines: 100, keptLines: 20, omittedLines: 80, omittedChars: 80 * 17 });

      const oneLine = '😀é'.repeat(2000);
      const chars = truncateText(oneLine, { maxBytes: 100 });
      expect(chars.meta.mode).toBe('chars');
      expect(bytesOf(chars.text)).toBeLessThanOrEqual(100);
      expect(wellFormed(chars.text)).toBe(true);
      const kept = [...chars.text.replace(/…\[\d+ chars omitted\]…/, '')].length;
      expect(chars.meta.omittedChars).toBe(4000 - kept);
      expect(chars.text).toContain(`…[${chars.meta.omittedChars} chars omitted]…`);
    });

    it('wrapTextOutput: the whole JSON (escapes and `_meta`) fits the byte limit', () => {
      const log = Array.from({ length: 400 }, (_, i) => `[${i}] "quoted" \\ tab\there — 日本語 ${i % 3 === 0 ? '😀' : ''}`).join('\n');
      for (const maxBytes of [512, 2048, 5000]) {
        const out = wrapTextOutput(log, { maxBytes, clock: fixedClock });
        expect(bytesOf(out)).toBeLessThanOrEqual(maxBytes);
        expect(bytesOf(out)).toBeGreaterThan(maxBytes - 200);
        const meta = out._meta;
        expect(meta).toMatchObject({ truncated: true, truncatedFrom: 400, timestamp: ISO });
        expect(meta.count + (meta.omittedLines as number)).toBe(400);
      }
      expect(wrapTextOutput('short é', { clock: fixedClock })).toEqual({ output: 'short é', _meta: { count: 1, timestamp: ISO } });
    });

    it('session budget: cumulative UTF-8 bytes, soft and hard warnings, events, reset', () => {
      const clock = manualClock();
      const budget = new SessionBudget({ softBytes: 100, hardBytes: 200, clock });
      const events: string[] = [];
      for (const e of ['soft', 'hard', 'reset'] as const) budget.on(e, (x: BudgetEvents[typeof e]) => events.push(`${e}:${'usedBytes' in x ? x.usedBytes : ''}`));
      expect(budget.record('é'.repeat(30)).level).toBe('ok'); // 60 bytes
      const soft = budget.record({ v: '日本' }); // {"v":"日本"} = 14 bytes
      expect(soft).toEqual({ level: 'ok', usedBytes: 74, usedTokens: 0 });
      const over = budget.record('😀'.repeat(10)); // 40 bytes
      expect(over).toEqual({
        level: 'soft',
        usedBytes: 114,
        usedTokens: 0,
        warning: 'Session tool output is 0.1 KB, past the 0.1 KB soft budget; 0.1 KB left before the 0.2 KB hard limit. Prefer narrower queries.',
      });
      const hard = budget.record('x', { bytes: 100 });
      expect(hard.level).toBe('hard');
      expect(hard.warning).toBe('Session tool output is 0.2 KB, past the 0.2 KB hard limit. Reduce scope: ask for fewer items, add filters or request summaries.');
      expect(withBudgetWarning({ a: 1, _meta: { count: 1 } }, hard)).toEqual({ a: 1, _meta: { count: 1, budgetWarning: hard.warning } });
      clock.advance(60_000);
      budget.reset();
      expect(budget.state).toEqual({ version: 1, usedBytes: 0, usedTokens: 0, calls: 0, updatedAt: '2026-01-22T12:01:00.000Z' });
      expect(events).toEqual(['soft:114', 'hard:214', 'reset:0']);
      expect(codeOf(() => new SessionBudget({ softBytes: 300, hardBytes: 200 }))).toBe('INVALID_PARAMS');
      resetAllSingletons();
      expect(getContextBudget('s1')).toBe(getContextBudget('s1'));
      expect(getContextBudget('s1').hardBytes).toBe(100 * 1024);
    });

    it('sanitisation: NFC, invisible and control characters, HTML, Markdown, credentials', () => {
      expect(sanitizeField('  Cafe\u0301 \u202Eevil\u200B\r\nline\u0007\uD800 ')).toBe('Café evil\nline');
      expect(sanitizeField('Cafe\u0301').length).toBe(4);
      expect(sanitizeField('a\nb\tc', { multiline: false })).toBe('a b c');
      expect(sanitizeField('😀'.repeat(10), { maxLength: 4 })).toBe('😀😀😀…');
      expect(codeOf(() => sanitizeField('toolong', { maxLength: 3, onTooLong: 'reject' }))).toBe('INVALID_PARAMS');
      expect(codeOf(() => sanitizeField(42))).toBe('INVALID_PARAMS');
      expect(stripHtml('<p>Hi <b>été</b></p><script>alert(1)</script><scr<b>ipt>x</p>&lt;script&gt;')).toBe('Hi été\nx\n&lt;script&gt;');
      expect(escapeMarkdown('# Title\n*bold* 3.5 - 4.0\n1. item')).toBe('\\# Title\n\\*bold\\* 3.5 - 4.0\n1\\. item');
      expect(sanitizeOutput('<i>日本</i> **x**', { escapeMarkdown: true, maxLength: 6 })).toBe('日本 \\*…');
      expect(dropSensitiveFields({ name: 'n', accessToken: 'ghp_x', tokens: 12, nested: { apiKey: 'k', keep: 'é' } })).toEqual({ name: 'n', tokens: 12, nested: { keep: 'é' } });
      expect(redactForLog({ q: 'Jita 😀', password: 'hunter2', n: 3 })).toEqual({ q: '[7 chars]', password: '[REDACTED]', n: 3 });
      expect(redactForLog({ q: 'key=AKIA' }, { redact: (s) => s.replace(/AKIA/g, '[R]') })).toEqual({ q: 'key=[R]' });
    });

    it('caches: TTL expiry, eviction and version revalidation on injected clocks', async () => {
      const clock = manualClock();
      const ttl = new TtlCache<string, number>({ ttlMs: 5 * 60_000, maxEntries: 2, clock });
      ttl.set('jita', 1);
      clock.advance(5 * 60_000 - 1);
      expect(ttl.get('jita')).toBe(1);
      clock.advance(1);
      expect(ttl.get('jita')).toBeUndefined();
      ttl.set('a', 1);
      ttl.set('b', 2);
      ttl.set('c', 3);
      expect([ttl.has('a'), ttl.has('b'), ttl.has('c')]).toEqual([false, true, true]);
      let loads = 0;
      const [x, y] = await Promise.all([ttl.getOrLoad('d', async () => ++loads), ttl.getOrLoad('d', async () => ++loads)]);
      expect([x, y, loads]).toEqual([1, 1, 1]);
      ttl.reset();
      expect(ttl.size).toBe(0);

      let etag = 'v1';
      const versioned = new VersionedCache({ version: () => etag, load: (v) => `config@${v}`, checkIntervalMs: 1000, clock });
      expect(await versioned.get()).toBe('config@v1');
      etag = 'v2';
      expect(await versioned.get()).toBe('config@v1'); // within the check interval
      clock.advance(1000);
      expect(await versioned.get()).toBe('config@v2');
      expect([versioned.version, versioned.loads]).toEqual(['v2', 2]);
      versioned.reset();
      expect(versioned.version).toBeUndefined();
    });

    it('withLogContext: start/complete/error JSON lines with exact timings, secrets redacted, never the payload', async () => {
      await initCore(); // the default redactor is the secret scanner once the core is loaded
      const token = `ghp_${'a1B2c3D4e5'.repeat(3)}123456`;
      const lines: string[] = [];
      const budget = new SessionBudget({ softBytes: 50, hardBytes: 2000, clock: fixedClock });
      const dispatcher = withLogContext(
        'universe',
        async (params: { action: string; q: string }) => {
          if (params.q === 'boom') throw new CtxgateError('NOT_FOUND', `System '${params.q}' not found`);
          return wrapOutput({ systems: systems(40) }, 'systems', { clock: fixedClock, maxBytes: 1000 });
        },
        { json: true, write: (l) => lines.push(l), clock: steppingClock(7), budget },
      );
      const out = await dispatcher({ action: 'search', q: `Jita 😀 ${token}` });
      expect(out._meta.budgetWarning).toMatch(/soft budget/);
      const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(records[0]).toMatchObject({ level: 'debug', event: 'start', dispatcher: 'universe', action: 'search', timestamp: ISO, params: { action: 'search' } });
      expect((records[0]!.params as { q: string }).q).toMatch(/^Jita 😀 \[REDACTED:[a-z0-9-]+:1\]$/);
      expect(lines.join('\n')).not.toContain(token);
      expect(records[1]).toEqual({
        level: 'info',
        event: 'complete',
        dispatcher: 'universe',
        action: 'search',
        timestamp: '2026-01-22T12:00:00.007Z',
        elapsedMs: 7,
        outputCount: out._meta.count,
        truncated: true,
        outputBytes: bytesOf(out),
        budgetBytesUsed: bytesOf(out),
        budgetLevel: 'soft',
      });
      expect(lines.join('\n')).not.toContain('Système');
      const error = await dispatcher({ action: 'route', q: 'boom' }).catch((e: unknown) => e);
      expect(isCtxgateError(error, 'NOT_FOUND')).toBe(true);
      expect(JSON.parse(lines[3]!)).toEqual({
        level: 'warn',
        event: 'error',
        dispatcher: 'universe',
        action: 'route',
        timestamp: '2026-01-22T12:00:00.021Z',
        elapsedMs: 7,
        error: "System 'boom' not found",
        errorType: 'CtxgateError',
        errorCode: 'NOT_FOUND',
      });
    });

    it("errors and provenance use the spec's formats", () => {
      const e = createErrorMeta('NOT_FOUND', '😀'.repeat(600), { clock: fixedClock });
      expect([...e.message].length).toBe(500);
      expect(e.message.endsWith('😀…')).toBe(true);
      expect(e._meta).toEqual({ count: 0, timestamp: ISO });
      expect(createErrorMeta('not-a-code', 'x', { clock: fixedClock }).errorCode).toBe('INTERNAL_ERROR');
      expect(toToolError(new CtxgateError('SECRET_RISK', 'Refused'), { clock: fixedClock }).errorCode).toBe('CAPABILITY_DENIED');
      expect(toToolError(new TypeError('token=ghp_abc'), { clock: fixedClock }).message).toBe(
        'The tool failed unexpectedly (TypeError). Check the server log; retrying with different parameters may help.',
      );
      expect(citeSde('Tritanium is a mineral')).toBe('Per SDE: Tritanium is a mineral');
      expect(citeEos('1 234,5 DPS')).toBe('Calculated: 1 234,5 DPS (EOS)');
      expect(citeEsi(5.25, new Date(SPEC_TIME))).toBe(`Current: 5.25 (as of ${ISO})`);
      expect(citeWiki()).toBe('Reference: wiki.eveuniversity.org');
      expect(cite('ESI', { value: 'a\nb', timestamp: 't' }, ARIA_CITATION_FORMATS)).toBe('Current: a b (as of t)');
      expect(codeOf(() => cite('Nope'))).toBe('INVALID_PARAMS');
    });

    it('the MCP adapter bounds results over a real Client and McpServer (InMemoryTransport)', async () => {
      resetAllSingletons();
      const [{ McpServer }, { Client }, { InMemoryTransport }] = await Promise.all([
        import('@modelcontextprotocol/sdk/server/mcp.js'),
        import('@modelcontextprotocol/sdk/client/index.js'),
        import('@modelcontextprotocol/sdk/inMemory.js'),
      ]);
      const server = new McpServer({ name: 'aria', version: '1.0.0' });
      const limits = defineToolLimits({ 'universe.search': { maxItems: 30, maxBytes: 1024, truncation: { kind: 'head' } } });
      const policy = applyToolPolicy(server, { limits, clock: fixedClock, budget: new SessionBudget({ softBytes: 1000, hardBytes: 5000 }) });
      server.registerTool('universe.search', {}, (async () => ({ query: '日本 😀', systems: systems(100) })) as never);
      server.registerTool('universe.route', {}, async () => {
        throw new CtxgateError('NOT_FOUND', "System 'Xyzzy' not found in universe");
      });
      const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
      const client = new Client({ name: 'ctxgate-contract', version: '1.0.0' });
      await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
      try {
        const texts = (r: unknown) => ((r as { content: { type: string; text: string }[] }).content).map((b) => b.text);
        const r1 = await client.callTool({ name: 'universe.search', arguments: {} });
        expect(bytesOf(texts(r1).join(''))).toBeLessThanOrEqual(1024);
        const visible = JSON.parse(texts(r1)[0]!) as { query: string; systems: unknown[]; _meta: Record<string, unknown> };
        expect(visible.query).toBe('日本 😀');
        expect(visible._meta).toEqual({ count: visible.systems.length, truncated: true, truncatedFrom: 100, timestamp: ISO });
        expect(r1.structuredContent).toEqual({ query: visible.query, systems: visible.systems });
        const r2 = await client.callTool({ name: 'universe.search', arguments: {} });
        expect((r2._meta as { budgetWarning?: string }).budgetWarning).toMatch(/soft budget/);
        expect(bytesOf(texts(r2).join(''))).toBeLessThanOrEqual(1024);
        const r3 = await client.callTool({ name: 'universe.route', arguments: {} });
        expect(r3.isError).toBe(true);
        expect(JSON.parse(texts(r3)[0]!)).toMatchObject({ error: true, errorCode: 'NOT_FOUND', message: "System 'Xyzzy' not found in universe", _meta: { count: 0 } });
      } finally {
        policy.restore();
        await client.close();
      }
    });
  });

  function wrapRoute(n: number) {
    // True security cycles 1.0, 0.9, ..., -0.5 so every class occurs; S15 (-0.5) is the lowest of the middle.
    const route = Array.from({ length: n }, (_, i) => ({ name: `S${i}`, security: Math.round((1 - (i % 16) / 10) * 100) / 100 }));
    return summarizeRoute({ from: 'Jita', to: 'Amarr', systems: route }, { clock: fixedClock });
  }
}
