import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { getCore, initCore, resetCore } from '../../src/core/core.ts';
import { CtxgateError } from '../../src/errors.ts';
import { ARIA_LIMITS } from '../../src/policy/aria-limits.ts';
import { getContextBudget, SessionBudget } from '../../src/policy/budget.ts';
import { defineToolLimits } from '../../src/policy/limits.ts';
import { summarizeRoute } from '../../src/policy/summarize.ts';
import type { LogRecord } from '../../src/policy/log-context.ts';
import { applyToolPolicy, boundToolResult, withToolPolicy } from '../../src/policy/mcp.ts';
import type { McpPolicyOptions } from '../../src/policy/mcp.ts';
import { resetAllSingletons } from '../../src/policy/singletons.ts';
import { expectCtxgateError, fixedClock, SPEC_ROUTE_MIDDLE_SUMMARY, SPEC_ROUTE_SYSTEMS } from './helpers.ts';
import { FAKE_GITHUB_TOKEN } from '../fixtures/project.ts';

// Results are scanned for secrets by default: boundToolResult needs the scanner loaded.
beforeAll(() => initCore());
beforeEach(() => resetAllSingletons());
afterEach(() => resetAllSingletons());

async function connect(server: McpServer, sessionId?: string): Promise<Client> {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  if (sessionId !== undefined) serverTransport.sessionId = sessionId;
  const client = new Client({ name: 'ctxgate-test', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return client;
}

function textBytes(result: { content: unknown }): number {
  return (result.content as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .reduce((n, b) => n + new TextEncoder().encode(b.text).length, 0);
}

const manySystems = (n: number) => Array.from({ length: n }, (_, i) => ({ name: `System-${i}-${'x'.repeat(40)}`, relevance: i }));

describe('MCP adapter over a real Client/McpServer (InMemoryTransport)', () => {
  it('bounds plain-data results by the tool table and adds _meta (tools registered before and after applying)', async () => {
    const server = new McpServer({ name: 'aria', version: '1.0.0' });
    server.registerTool('universe.search', { inputSchema: { q: z.string() } }, async ({ q }) => ({ query: q, systems: manySystems(200) }) as never);
    const policy = applyToolPolicy(server, { limits: ARIA_LIMITS.tools, clock: fixedClock });
    server.registerTool('sde.search', { inputSchema: { q: z.string() } }, (async ({ q }: { q: string }) => ({
      query: q,
      items: Array.from({ length: 40 }, (_, i) => ({ name: `Item ${i}`, score: i })),
    })) as never);
    const client = await connect(server);

    const r1 = (await client.callTool({ name: 'universe.search', arguments: { q: 'Jita' } })) as CallToolResult;
    expect(r1.isError).toBeUndefined();
    expect(textBytes(r1)).toBeLessThanOrEqual(3 * 1024);
    const sc1 = r1.structuredContent as { query: string; systems: { relevance: number }[] };
    // The model reads the JSON text, _meta included; structuredContent is the data; result._meta the metadata.
    expect(JSON.parse((r1.content[0] as { text: string }).text)).toEqual({ ...sc1, _meta: r1._meta });
    expect(sc1.query).toBe('Jita');
    expect(r1._meta).toMatchObject({ truncated: true, truncatedFrom: 200, timestamp: '2026-01-22T12:00:00.000Z' });
    expect(r1._meta!.count).toBe(sc1.systems.length);
    expect(sc1.systems[0]!.relevance).toBe(199); // top-N by relevance

    const r2 = (await client.callTool({ name: 'sde.search', arguments: { q: 'Tritanium' } })) as CallToolResult;
    const sc2 = r2.structuredContent as { items: { score: number }[] };
    expect(textBytes(r2)).toBeLessThanOrEqual(2 * 1024);
    expect(sc2.items.length).toBeLessThanOrEqual(20);
    expect(sc2.items[0]!.score).toBe(39);
    expect(r2._meta!.truncatedFrom).toBe(40);

    policy.restore();
    await client.close();
  });

  it('errors use the spec format: ctxgate codes kept, unexpected errors become INTERNAL_ERROR without leaking', async () => {
    const server = new McpServer({ name: 'aria', version: '1.0.0' });
    applyToolPolicy(server, { clock: fixedClock });
    server.registerTool('universe.route', { inputSchema: { to: z.string() } }, async ({ to }) => {
      throw new CtxgateError('NOT_FOUND', `System '${to}' not found in universe`);
    });
    server.registerTool('market.orders', {}, async () => {
      throw new Error('connect ECONNREFUSED with token=ghp_supersecret');
    });
    const client = await connect(server);
    const r1 = (await client.callTool({ name: 'universe.route', arguments: { to: 'Xyzzy' } })) as CallToolResult;
    expect(r1.isError).toBe(true);
    expect(JSON.parse((r1.content[0] as { text: string }).text)).toEqual({
      error: true,
      errorCode: 'NOT_FOUND',
      message: "System 'Xyzzy' not found in universe",
      _meta: { count: 0, timestamp: '2026-01-22T12:00:00.000Z' },
    });
    expect(r1.structuredContent).toEqual({ error: true, errorCode: 'NOT_FOUND', message: "System 'Xyzzy' not found in universe" });
    const r2 = (await client.callTool({ name: 'market.orders', arguments: {} })) as CallToolResult;
    expect((r2.structuredContent as { errorCode: string }).errorCode).toBe('INTERNAL_ERROR');
    expect(JSON.stringify(r2)).not.toContain('ghp_supersecret');
    await client.close();
  });

  it('the text of an isError result a handler returns is redacted by the secret scanner (the default once the core is loaded)', async () => {
    await initCore();
    const token = FAKE_GITHUB_TOKEN;
    const server = new McpServer({ name: 'aria', version: '1.0.0' });
    applyToolPolicy(server, { clock: fixedClock });
    server.registerTool('repo.push', {}, async () => ({ isError: true, content: [{ type: 'text', text: `push rejected for ${token}` }] }));
    const client = await connect(server);
    const r = (await client.callTool({ name: 'repo.push', arguments: {} })) as CallToolResult;
    expect(r.isError).toBe(true);
    expect(r.structuredContent).toEqual({ error: true, errorCode: 'INTERNAL_ERROR', message: 'push rejected for [REDACTED:github-pat:1]' });
    expect(JSON.stringify(r)).not.toContain(token);
    await client.close();
  });

  it('a wrapped tool loads the scanner itself to redact an isError text; unwrapped, before init, the text is withheld, never sent', async () => {
    const token = FAKE_GITHUB_TOKEN;
    const text = `push rejected for ${token}`;
    const handler = async () => ({ isError: true, content: [{ type: 'text' as const, text }] });
    try {
      resetCore();
      // Called directly with no core loaded and no redactor: nothing can scan the text, so none of it is sent.
      const direct = boundToolResult('repo.push', await handler(), { clock: fixedClock, budget: false });
      expect(direct.isError).toBe(true);
      expect(direct.structuredContent).toEqual({
        error: true,
        errorCode: 'INTERNAL_ERROR',
        message: `[tool error text withheld: ${text.length} chars; the secret scanner is not loaded (await loadCore()) and no redact option was given]`,
      });
      expect(JSON.stringify(direct)).not.toContain('push rejected');
      // Wrapped, the policy loads the core before it converts the result, so the text is redacted, not lost.
      expect(() => getCore()).toThrow();
      const wrapped = await withToolPolicy('repo.push', handler, { clock: fixedClock, budget: false })();
      expect(wrapped.structuredContent).toEqual({ error: true, errorCode: 'INTERNAL_ERROR', message: 'push rejected for [REDACTED:github-pat:1]' });
      expect(JSON.stringify(wrapped)).not.toContain(token);
      // A redactor of the caller's is used as given; the core is not needed for it.
      resetCore();
      const own = await withToolPolicy('repo.push', handler, { clock: fixedClock, budget: false, redact: (t) => t.replace(token, '<token>') })();
      expect((own.structuredContent as { message: string }).message).toBe('push rejected for <token>');
      expect(() => getCore()).toThrow();
    } finally {
      await initCore();
    }
  });

  it('charges the session budget per MCP session and adds budgetWarning while staying within the tool limit', async () => {
    const limits = defineToolLimits({ 'repo.log': { maxItems: 100, maxBytes: 2048, truncation: { kind: 'head' } } });
    const servers = ['A', 'B'].map((id) => {
      const s = new McpServer({ name: `srv-${id}`, version: '1.0.0' });
      applyToolPolicy(s, { limits, clock: fixedClock, budget: (sessionId) => getContextBudget(sessionId, { softBytes: 4000, hardBytes: 8000 }) });
      // applyToolPolicy accepts plain-data handlers at run time; registerTool's types expect a CallToolResult.
      s.registerTool('repo.log', {}, (async () => ({ entries: Array.from({ length: 300 }, (_, i) => `commit ${i} ${'m'.repeat(30)}`) })) as never);
      return s;
    });
    const [a, b] = await Promise.all([connect(servers[0]!, 'A'), connect(servers[1]!, 'B')]);
    const warnings: (string | undefined)[] = [];
    for (let i = 0; i < 5; i++) {
      const r = (await a.callTool({ name: 'repo.log', arguments: {} })) as CallToolResult;
      expect(textBytes(r)).toBeLessThanOrEqual(2048);
      const visible = JSON.parse((r.content[0] as { text: string }).text) as { _meta: { budgetWarning?: string } };
      expect(visible._meta.budgetWarning).toBe(r._meta?.budgetWarning);
      warnings.push(r._meta?.budgetWarning as string | undefined);
    }
    expect(warnings.slice(0, 2)).toEqual([undefined, undefined]);
    expect(warnings[2]).toMatch(/soft budget/);
    expect(warnings[4]).toMatch(/hard limit/);
    const rb = (await b.callTool({ name: 'repo.log', arguments: {} })) as CallToolResult;
    expect(rb._meta?.budgetWarning).toBeUndefined();
    expect(getContextBudget('A').state.calls).toBe(5);
    expect(getContextBudget('B').state.calls).toBe(1);
    expect(getContextBudget('A').state.usedBytes).toBeGreaterThan(8000);
    await Promise.all([a.close(), b.close()]);
  });

  it('withToolPolicy wraps a handler before registerTool (argument types inferred from the schema); logs never carry the payload', async () => {
    const records: LogRecord[] = [];
    const server = new McpServer({ name: 'aria', version: '1.0.0' });
    const options: McpPolicyOptions = { clock: fixedClock, logger: (r) => records.push(r), budget: new SessionBudget() };
    server.registerTool(
      'skills.easy_80_plan',
      { inputSchema: { ship: z.string() } },
      withToolPolicy('skills.easy_80_plan', async ({ ship }) => ({ ship, skills: ['SECRET-PAYLOAD-1', 'SECRET-PAYLOAD-2'] }), options),
    );
    const client = await connect(server);
    const r = (await client.callTool({ name: 'skills.easy_80_plan', arguments: { ship: 'Rifter' } })) as CallToolResult;
    expect(r.structuredContent).toEqual({ ship: 'Rifter', skills: ['SECRET-PAYLOAD-1', 'SECRET-PAYLOAD-2'] });
    expect(r._meta).toEqual({ count: 2, timestamp: '2026-01-22T12:00:00.000Z' });
    expect(records.map((x) => x.event)).toEqual(['start', 'complete']);
    expect(records[1]).toMatchObject({ dispatcher: 'skills.easy_80_plan', outputCount: 2, truncated: false });
    expect(JSON.stringify(records)).not.toContain('SECRET-PAYLOAD');
    await client.close();
  });

  it('keeps an output schema valid, and bounds text-only results with a note the model can read', async () => {
    const server = new McpServer({ name: 'aria', version: '1.0.0' });
    applyToolPolicy(server, { clock: fixedClock, budget: false, defaultLimits: { maxItems: 30, maxBytes: 1024, truncation: { kind: 'head' } } });
    server.registerTool(
      'typed',
      { outputSchema: { names: z.array(z.string()) } },
      async () => ({ content: [{ type: 'text', text: 'ignored' }], structuredContent: { names: Array.from({ length: 100 }, (_, i) => `n${i}`) } }),
    );
    server.registerTool('shell.run', {}, async () => ({ content: [{ type: 'text', text: Array.from({ length: 500 }, (_, i) => `out ${i}`).join('\n') }] }));
    const client = await connect(server);
    await client.listTools();
    const typed = (await client.callTool({ name: 'typed', arguments: {} })) as CallToolResult;
    expect(typed.isError).toBeUndefined();
    expect((typed.structuredContent as { names: string[] }).names).toHaveLength(30);
    const shell = (await client.callTool({ name: 'shell.run', arguments: {} })) as CallToolResult;
    expect(textBytes(shell)).toBeLessThanOrEqual(1024);
    const texts = shell.content.map((b) => (b as { text: string }).text);
    expect(texts[0]!.startsWith('out 0\n')).toBe(true);
    expect(texts[0]!.endsWith('out 499')).toBe(true);
    const note = JSON.parse(texts[1]!) as { _meta: { truncated: boolean; omittedLines: number } };
    expect(note._meta.truncated).toBe(true);
    expect(shell._meta).toMatchObject({ truncated: true, omittedLines: note._meta.omittedLines });
    await client.close();
  });

  it('restore() puts the original handlers and methods back', async () => {
    const server = new McpServer({ name: 'aria', version: '1.0.0' });
    server.registerTool('plain', {}, async () => ({ content: [{ type: 'text', text: 'hi' }] }));
    const policy = applyToolPolicy(server, { budget: false });
    policy.restore();
    const client = await connect(server);
    const r = (await client.callTool({ name: 'plain', arguments: {} })) as CallToolResult;
    expect(r.content).toEqual([{ type: 'text', text: 'hi' }]);
    expect(r._meta).toBeUndefined();
    await client.close();
  });
});

describe('property: every MCP result is bounded', () => {
  it('plain data of any JSON shape stays within the tool byte limit, with budget warnings', async () => {
    const budget = new SessionBudget({ softBytes: 1, hardBytes: 2000 });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 3 }), fc.integer({ min: 512, max: 3000 }), async (value, maxBytes) => {
        const handler = withToolPolicy('t', async () => value, {
          budget,
          clock: fixedClock,
          defaultLimits: { maxItems: 20, maxBytes, truncation: { kind: 'head' } },
        });
        const r = await handler();
        expect(textBytes(r)).toBeLessThanOrEqual(maxBytes);
      }),
      { numRuns: 150 },
    );
  });

  it('text-only CallToolResults stay within the limit, the note and budget warning included', async () => {
    await fc.assert(
      fc.asyncProperty(
        // size 'medium': texts of hundreds of bytes, so they and the note compete for the limit.
        fc.array(fc.string({ maxLength: 600, unit: 'binary', size: 'medium' }), { maxLength: 4 }),
        fc.integer({ min: 500, max: 1500 }),
        fc.integer({ min: 2, max: 200_000 }),
        async (texts, maxBytes, before) => {
          // Already past the soft limit (or the hard one), so every result must carry a warning.
          const budget = new SessionBudget({ softBytes: 1, hardBytes: 3000 });
          budget.record('', { bytes: before });
          const handler = withToolPolicy('t', async () => ({ content: texts.map((text) => ({ type: 'text' as const, text })) }), {
            budget,
            clock: fixedClock,
            defaultLimits: { maxItems: 20, maxBytes, truncation: { kind: 'head' } },
          });
          const r = await handler();
          expect(textBytes(r)).toBeLessThanOrEqual(maxBytes);
          expect(r._meta?.budgetWarning).toBeDefined();
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a text that fits whole beside a note that does not is cut to make room for the warning', async () => {
    // 296 bytes of text under a 500-byte limit, and a soft-budget note of about 210 bytes: the text
    // must give way. (The fit loop used to take the overshoot off the text budget, 500, which the
    // text never reached, so the warning was dropped.)
    const text = '\u0000' + '𐀀'.repeat(73) + 'ࠀ';
    expect(new TextEncoder().encode(text).length).toBe(296);
    const budget = new SessionBudget({ softBytes: 1, hardBytes: 3000 });
    budget.record('', { bytes: 2 });
    const handler = withToolPolicy('t', async () => ({ content: [{ type: 'text' as const, text }] }), {
      budget,
      clock: fixedClock,
      defaultLimits: { maxItems: 20, maxBytes: 500, truncation: { kind: 'head' } },
    });
    const r = await handler();
    expect(r._meta?.budgetWarning).toMatch(/past the 0\.0 KB soft budget/);
    expect(r._meta?.truncated).toBe(true);
    expect(textBytes(r)).toBeLessThanOrEqual(500);
  });

  it('boundToolResult of a string output keeps head and tail', () => {
    const r = boundToolResult('t', 'start\n' + 'x\n'.repeat(5000) + 'end', { budget: false, clock: fixedClock });
    const out = (r.structuredContent as { output: string }).output;
    expect(out.startsWith('start\n')).toBe(true);
    expect(out.endsWith('end')).toBe(true);
    expect(textBytes(r)).toBeLessThanOrEqual(10 * 1024);
  });
});

describe('arguments of the wrong kind', () => {
  it('applyToolPolicy rejects a non-server with INVALID_PARAMS naming server, and leaves the object untouched', () => {
    for (const notServer of [undefined, null, 'x', 42, {}, [], { registerTool: 'no' }]) {
      expectCtxgateError(() => applyToolPolicy(notServer as never), 'INVALID_PARAMS', 'server');
    }
    const plain = {};
    expectCtxgateError(() => applyToolPolicy(plain as never), 'INVALID_PARAMS', 'server');
    expect(Object.keys(plain)).toEqual([]);
    // Bad options are refused before the server is patched.
    const server = new McpServer({ name: 'aria', version: '1.0.0' });
    expectCtxgateError(() => applyToolPolicy(server, { clock: 'now' as never }), 'INVALID_PARAMS', 'options.clock');
    expect(Object.prototype.hasOwnProperty.call(server, 'registerTool')).toBe(false);
  });

  it('withToolPolicy and boundToolResult name a wrong tool name, handler or options', () => {
    expectCtxgateError(() => withToolPolicy('t', 'handler' as never), 'INVALID_PARAMS', 'handler');
    expectCtxgateError(() => withToolPolicy(undefined as never, async () => ({})), 'INVALID_PARAMS', 'toolName');
    expectCtxgateError(() => withToolPolicy('t', async () => ({}), { budget: 5 as never }), 'INVALID_PARAMS', 'options.budget');
    expectCtxgateError(() => boundToolResult({} as never, 'x'), 'INVALID_PARAMS', 'toolName');
    expectCtxgateError(() => boundToolResult('t', 'x', null as never), 'INVALID_PARAMS', 'options');
    expectCtxgateError(() => boundToolResult('t', { content: [null] }), 'INVALID_PARAMS', 'raw.content[0]');
  });

  it('boundToolResult still accepts any JSON raw value, but a cycle or a BigInt is UNSUPPORTED_VALUE', () => {
    for (const raw of [undefined, null, 42, 'x', [], {}, true]) expect(boundToolResult('t', raw, { clock: fixedClock }).content.length).toBeGreaterThan(0);
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    // The path is in the value the handler returned (it used to be `$.self.self`, in the copy with _meta).
    const cyc = expectCtxgateError(() => boundToolResult('t', cyclic), 'UNSUPPORTED_VALUE');
    expect(cyc.details).toEqual({ path: '$.self', what: 'a cycle' });
    expect(expectCtxgateError(() => boundToolResult('t', 10n), 'UNSUPPORTED_VALUE').details).toEqual({ path: '$.result', what: 'a BigInt' });
  });

  it("a wrapped handler whose result cannot be sent (a cycle, a malformed block) gives INTERNAL_ERROR, not the model's INVALID_PARAMS", async () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const tool = withToolPolicy('t', async () => cyclic, { budget: false, clock: fixedClock });
    const result = await tool();
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toEqual({
      error: true,
      errorCode: 'INTERNAL_ERROR',
      message: expect.stringMatching(/^The tool returned a result that cannot be sent: .*cycle/) as unknown as string,
    });
    const malformed = withToolPolicy('t', async () => ({ content: [42] }), { budget: false, clock: fixedClock });
    const bad = await malformed();
    expect(bad.structuredContent).toMatchObject({ error: true, errorCode: 'INTERNAL_ERROR' });
    expect((bad.structuredContent as { message: string }).message).toContain('raw.content[0]');
  });
});

describe('spec 000 §6: OAuth tokens never in tool output (options.secrets, default redact)', () => {
  const jwt = ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ', 'SflKxwRJSMeKKF2QT4fwpMeJf36POk6yQssw5c'].join('.');
  const ghp = FAKE_GITHUB_TOKEN;
  const visible = (r: CallToolResult) => JSON.parse((r.content[0] as { text: string }).text) as Record<string, unknown>;

  it('an applied policy drops access_token and refresh_token fields before the client sees them', async () => {
    const server = new McpServer({ name: 'aria', version: '1.0.0' });
    applyToolPolicy(server, { clock: fixedClock, budget: false });
    server.registerTool('auth.login', {}, (async () => ({ items: [{ id: 1 }, { id: 2 }], access_token: jwt, refresh_token: 'rt-123' })) as never);
    const client = await connect(server);
    const r = (await client.callTool({ name: 'auth.login', arguments: {} })) as CallToolResult;
    expect(r.structuredContent).toEqual({ items: [{ id: 1 }, { id: 2 }] });
    expect(visible(r)).toEqual({ items: [{ id: 1 }, { id: 2 }], _meta: { count: 2, timestamp: '2026-01-22T12:00:00.000Z' } });
    expect(JSON.stringify(r)).not.toContain('rt-123');
    expect(JSON.stringify(r)).not.toContain(jwt);
    await client.close();
  });

  it('secrets in other strings, keys, texts and resource texts are redacted by the scanner', () => {
    const data = boundToolResult('t', { log: [`pushed with ${ghp}`, 'ok'], byKey: { [ghp]: 'prod' }, nested: { auth: { bearer: jwt } } }, { budget: false, clock: fixedClock });
    expect(data.structuredContent).toEqual({ log: ['pushed with [REDACTED:github-pat:1]', 'ok'], byKey: { '[REDACTED:github-pat:1]': 'prod' }, nested: { auth: { bearer: '[REDACTED:jwt:1]' } } });
    const text = boundToolResult('t', { content: [{ type: 'text', text: `token ${ghp}` }, { type: 'resource', resource: { uri: 'file:///a', text: `Bearer ${jwt}` } }] }, { budget: false, clock: fixedClock });
    expect(text.content).toEqual([
      { type: 'text', text: 'token [REDACTED:github-pat:1]' },
      { type: 'resource', resource: { uri: 'file:///a', text: 'Bearer [REDACTED:jwt:1]' } },
    ]);
    const plain = boundToolResult('t', `export GH=${ghp}`, { budget: false, clock: fixedClock });
    expect((plain.structuredContent as { output: string }).output).toBe('export GH=[REDACTED:github-pat:1]');
  });

  it("a resource_link's uri, name, title and description are scanned too, and plural credential keys are dropped", () => {
    const link = boundToolResult(
      't',
      { content: [{ type: 'resource_link', uri: `https://x.dev/raw?token=${ghp}`, name: `key ${ghp}`, title: 'Build log', description: `pushed with ${ghp}` }] },
      { budget: false, clock: fixedClock },
    );
    expect(JSON.stringify(link)).not.toContain(ghp);
    expect(link.content[0]).toEqual({ type: 'resource_link', uri: 'https://x.dev/raw?token=[REDACTED:github-pat:1]', name: 'key [REDACTED:github-pat:1]', title: 'Build log', description: 'pushed with [REDACTED:github-pat:1]' });
    const plural = boundToolResult('t', { user: 'a', access_tokens: ['opaque-1'], apiTokens: { ci: 'opaque-2' } }, { budget: false, clock: fixedClock });
    expect(plural.structuredContent).toEqual({ user: 'a' });
  });

  it('two keys that redact to one placeholder keep both values: the later is numbered on, not written over the first', () => {
    const other = ['ghp', '_', 'Zx8Lq3Wm5Tn0Rb7Kc2Vd9Hf4Js1Gp6Ey3Ua4'].join('');
    const r = boundToolResult('t', { [`k ${ghp}`]: 1, [`k ${other}`]: 2 }, { budget: false, clock: fixedClock });
    expect(r.structuredContent).toEqual({ 'k [REDACTED:github-pat:1]': 1, 'k [REDACTED:github-pat:1] (2)': 2 });
  });

  it('fields are dropped before the byte limit is measured, so a dropped token costs no items', () => {
    const limits = { maxItems: 30, maxBytes: 512, truncation: { kind: 'head' as const } };
    const r = boundToolResult('t', { items: [1, 2, 3], access_token: 'x'.repeat(5000) }, { budget: false, clock: fixedClock, defaultLimits: limits });
    expect(visible(r)).toEqual({ items: [1, 2, 3], _meta: { count: 3, timestamp: '2026-01-22T12:00:00.000Z' } });
  });

  it('items the limits can never keep are not scanned (they are never sent)', () => {
    const scanned: string[] = [];
    const redact = (t: string) => (scanned.push(t), t);
    const items = Array.from({ length: 1000 }, (_, i) => ({ name: `item-${i}`, score: i % 97 }));
    const head = boundToolResult('t', items, { budget: false, clock: fixedClock, redact });
    expect((head.structuredContent as { items: unknown[] }).items).toEqual(items.slice(0, 30));
    expect(scanned.filter((t) => t.startsWith('item-'))).toEqual(items.slice(0, 30).map((x) => x.name));
    scanned.length = 0;
    const limits = defineToolLimits({ t: { maxItems: 3, maxBytes: 2048, truncation: { kind: 'topN', by: 'score', order: 'desc' } } });
    const top = boundToolResult('t', { items }, { limits, budget: false, clock: fixedClock, redact });
    expect((top.structuredContent as { items: { name: string }[] }).items.map((x) => x.name)).toEqual(['item-96', 'item-193', 'item-290']);
    expect(scanned.filter((t) => t.startsWith('item-'))).toEqual(['item-96', 'item-193', 'item-290']);
  });

  it('property: with nothing to clean, the cleaned result is the result sent with secrets off', () => {
    const item = fc.record({ name: fc.string({ maxLength: 12 }), score: fc.option(fc.integer({ min: -5, max: 5 })) });
    fc.assert(
      fc.property(
        fc.array(item, { maxLength: 60 }),
        fc.integer({ min: 1, max: 40 }),
        fc.constantFrom({ kind: 'head' } as const, { kind: 'topN', by: 'score', order: 'desc' } as const, { kind: 'topN', by: 'score', order: 'asc' } as const),
        (items, maxItems, truncation) => {
          const options = { budget: false as const, clock: fixedClock, defaultLimits: { maxItems, maxBytes: 1024, truncation } };
          const cleaned = boundToolResult('t', { items, note: 'n' }, { ...options, redact: (t) => t });
          expect(cleaned).toEqual(boundToolResult('t', { items, note: 'n' }, { ...options, secrets: 'off' }));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('credential fields deeper than 32 levels are dropped too, and their neighbours kept as they were', () => {
    let value: Record<string, unknown> = { password: 'hunter2', keep: 'me', n: 1 };
    for (let i = 0; i < 60; i++) value = { a: value };
    const out = boundToolResult('t', value, { budget: false, clock: fixedClock }).structuredContent as Record<string, unknown>;
    let node = out;
    for (let i = 0; i < 60; i++) node = node.a as Record<string, unknown>;
    expect(node).toEqual({ keep: 'me', n: 1 });
  });

  it("secrets: 'off' sends the result as returned; HTML is kept unless stripHtml: true", () => {
    const data = { items: ['<div class="x">a</div><script>alert(1)</script>'], access_token: 'at-1' };
    const off = boundToolResult('t', data, { budget: false, clock: fixedClock, secrets: 'off' });
    expect(off.structuredContent).toEqual(data);
    const html = boundToolResult('t', { items: data.items }, { budget: false, clock: fixedClock });
    expect(html.structuredContent).toEqual({ items: data.items });
    const stripped = boundToolResult('t', data, { budget: false, clock: fixedClock, stripHtml: true });
    // Line-ending tags become newlines (stripHtml); the script goes with its content.
    expect(stripped.structuredContent).toEqual({ items: ['a\n'] });
    const strippedOnly = boundToolResult('t', { content: [{ type: 'text', text: '<b>bold</b>' }] }, { budget: false, clock: fixedClock, stripHtml: true, secrets: 'off' });
    expect(strippedOnly.content).toEqual([{ type: 'text', text: 'bold' }]);
  });

  it('a ctxgate error a handler throws has its message scanned too', async () => {
    const r = await withToolPolicy('t', () => {
      throw new CtxgateError('AUTH_REQUIRED', `token ${ghp} expired`);
    }, { budget: false, clock: fixedClock })();
    expect(r.structuredContent).toEqual({ error: true, errorCode: 'AUTH_REQUIRED', message: 'token [REDACTED:github-pat:1] expired' });
  });

  it('without a scanner or a redact option a result is refused (NOT_INITIALIZED), never sent unscanned', async () => {
    try {
      resetCore();
      const e = expectCtxgateError(() => boundToolResult('t', { access_token: 'at-1', note: 'n' }, { budget: false }), 'NOT_INITIALIZED');
      expect(e.message).toContain('await loadCore()');
      expect(boundToolResult('t', { note: 'n' }, { budget: false, secrets: 'off' }).structuredContent).toEqual({ note: 'n' });
      expect(boundToolResult('t', { access_token: 'at-1', note: 'n' }, { budget: false, redact: (t) => t.toUpperCase() }).structuredContent).toEqual({ NOTE: 'N' });
      // A wrapped tool loads the scanner itself.
      const wrapped = await withToolPolicy('t', async () => ({ note: `x ${ghp}` }), { budget: false })();
      expect(wrapped.structuredContent).toEqual({ note: 'x [REDACTED:github-pat:1]' });
    } finally {
      await initCore();
    }
  });

  it('options.secrets, options.stripHtml and a redactor that returns no text are INVALID_PARAMS', () => {
    expectCtxgateError(() => boundToolResult('t', {}, { secrets: 'on' as never }), 'INVALID_PARAMS', 'options.secrets');
    expectCtxgateError(() => withToolPolicy('t', async () => ({}), { stripHtml: 'yes' as never }), 'INVALID_PARAMS', 'options.stripHtml');
    expectCtxgateError(() => boundToolResult('t', { a: 'b' }, { redact: (() => 5) as never }), 'INVALID_PARAMS', 'options.redact');
  });
});

describe('errors fit the tool byte limit (spec 000 §2)', () => {
  const limits = defineToolLimits({ small: { maxItems: 10, maxBytes: 256, truncation: { kind: 'head' } } });

  it('a thrown error of 2,000 characters fits a 256-byte tool (it took 1,610), and stays the spec format', async () => {
    const r = await withToolPolicy('small', () => {
      throw new CtxgateError('NOT_FOUND', `System ${'x'.repeat(2000)} not found`);
    }, { limits, budget: false, clock: fixedClock })();
    expect(textBytes(r)).toBeLessThanOrEqual(256);
    const error = JSON.parse((r.content[0] as { text: string }).text) as Record<string, unknown>;
    expect(Object.keys(error)).toEqual(['error', 'errorCode', 'message', '_meta']);
    expect(error).toMatchObject({ error: true, errorCode: 'NOT_FOUND', _meta: { count: 0, timestamp: '2026-01-22T12:00:00.000Z' } });
    expect(String(error.message)).toMatch(/^System x+…$/);
  });

  it("control characters in a handler's isError result fit sde.search's 2 KB, even when a budget warning is due", async () => {
    const budget = new SessionBudget({ softBytes: 1, hardBytes: 100_000 });
    budget.record('', { bytes: 2 });
    const handler = async () => ({ isError: true, content: [{ type: 'text' as const, text: '\u0001'.repeat(600) }] });
    const r = await withToolPolicy('sde.search', handler, { limits: ARIA_LIMITS.tools, budget, clock: fixedClock })();
    expect(r.isError).toBe(true);
    expect(textBytes(r)).toBeLessThanOrEqual(2048);
    expect((r.structuredContent as { errorCode: string }).errorCode).toBe('INTERNAL_ERROR');
  });

  it('limits a defineToolLimits table would refuse are INVALID_PARAMS where they are given', () => {
    expectCtxgateError(() => withToolPolicy('t', async () => ({}), { defaultLimits: { maxItems: 5, maxBytes: 100, truncation: { kind: 'head' } } }), 'INVALID_PARAMS', 'options.defaultLimits.maxBytes');
    expectCtxgateError(
      () => boundToolResult('t', {}, { limits: { t: { maxItems: 5, maxBytes: 1024, truncation: { kind: 'topN', by: 'x', order: 'sideways' } as never } } }),
      'INVALID_PARAMS',
      'options.limits["t"].truncation.order',
    );
  });
});

describe("routes bounded by per-tool limits carry spec 000 §4's statistics", () => {
  it("a route tool whose limits name summarize: 'route' gets summarizeRoute's summary", () => {
    const route = { systems: [...SPEC_ROUTE_SYSTEMS] };
    const limits = defineToolLimits({
      'universe.route': { ...ARIA_LIMITS.tools['universe.route'], truncation: { ...ARIA_LIMITS.tools['universe.route'].truncation, summarize: 'route' } },
    });
    const r = boundToolResult('universe.route', route, { limits, budget: false, clock: fixedClock });
    expect(r.structuredContent).toEqual((({ _meta, ...rest }) => rest)(summarizeRoute(route, { clock: fixedClock })));
    expect((r.structuredContent as { systemsSummary: unknown }).systemsSummary).toEqual(SPEC_ROUTE_MIDDLE_SUMMARY);
  });
});

describe('UNSUPPORTED_VALUE paths name where the handler put the value', () => {
  it('a top-level cycle is at $.me (was $.me.me) and a BigInt list item at its index (was $)', () => {
    const me: Record<string, unknown> = {};
    me.me = me;
    for (const secrets of ['redact', 'off'] as const) {
      expect(expectCtxgateError(() => boundToolResult('t', me, { secrets }), 'UNSUPPORTED_VALUE').details).toEqual({ path: '$.me', what: 'a cycle' });
      expect(expectCtxgateError(() => boundToolResult('t', [1, 2, 10n], { secrets }), 'UNSUPPORTED_VALUE').details).toEqual({ path: '$.items[2]', what: 'a BigInt' });
      expect(expectCtxgateError(() => boundToolResult('t', { hits: [{ n: 1 }, { n: 2n }] }, { secrets }), 'UNSUPPORTED_VALUE').details).toEqual({
        path: '$.hits[1].n',
        what: 'a BigInt',
      });
    }
  });
});
