/**
 * Model Context Protocol adapter: puts every tool of an `@modelcontextprotocol/sdk` `McpServer`
 * under the output policy, so each result is bounded by its tool's limits, carries `_meta`, is
 * charged to the session budget (with `_meta.budgetWarning` past a limit), and every failure comes
 * back in the spec's error format. The SDK is imported only for types; it stays an optional peer.
 *
 * Handlers may return plain data (an object, array or string), which becomes JSON text plus
 * `structuredContent`, or a full `CallToolResult`. The byte limit covers what the model reads: the
 * text of text and embedded-resource blocks. Images and audio pass through unmeasured.
 *
 * Before a result is bounded, credentials are taken out of it (spec 000 §6, "OAuth tokens: never in
 * tool output"): fields under credential names are dropped and secrets in its texts redacted, unless
 * `options.secrets` is `'off'`. HTML is stripped only on request (`options.stripHtml`).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { expectFunction, expectMethods, expectObject, expectOptions, expectString, kindOf, notOneOf, wrongKind } from '../args.ts';
import { CtxgateError, invalidParams, isCtxgateError } from '../errors.ts';
import { toJsonText, utf8ByteLength } from './bytes.ts';
import { expectOptionalFunction } from './checks.ts';
import { isoTimestamp, systemClock } from './clock.ts';
import type { Clock } from './clock.ts';
import { getContextBudget, withBudgetWarning } from './budget.ts';
import type { BudgetCheck, SessionBudget } from './budget.ts';
import { checkToolLimits, DEFAULT_TOOL_LIMITS, GLOBAL_LIMITS, toolLimitsFor } from './limits.ts';
import type { ToolLimits } from './limits.ts';
import { withLogContext } from './log-context.ts';
import type { LogRecord, OutputAdapter } from './log-context.ts';
import type { OutputMeta } from './meta.ts';
import { defaultRedactor, loadDefaultRedactor } from './redactor.ts';
import { isCredentialField, redactedText, stripHtml } from './sanitize.ts';
import type { Redactor } from './sanitize.ts';
import { createErrorMeta, isToolErrorOutput, toToolError } from './tool-error.ts';
import type { ToolErrorOutput } from './tool-error.ts';
import { truncateText } from './truncate-text.ts';
import { pickItems, withDataPaths, wrapOutput, wrapOutputMulti, wrapScalarOutput } from './wrap.ts';
import { wrapTextOutput } from './wrap-text.ts';

/** Options of the MCP adapter. */
export interface McpPolicyOptions {
  /** Limits per tool name (e.g. from `defineToolLimits`). */
  limits?: Readonly<Record<string, ToolLimits>>;
  /** Limits of tools missing from `limits` (default: 30 items per list, 10 KB). */
  defaultLimits?: ToolLimits;
  /**
   * The budget to charge: one tracker, a function of the MCP session id, or `false` for none.
   * Default: the process-wide `getContextBudget(sessionId ?? 'default')`.
   */
  budget?: SessionBudget | ((sessionId: string | undefined) => SessionBudget | undefined) | false;
  /** Clock for `_meta.timestamp` and log timings. */
  clock?: Clock;
  /**
   * Redacts secrets from logged parameters, from results (see `secrets`), from the text of
   * `isError` results a handler returns, and from messages of unexpected errors (which are withheld
   * without an explicit redactor). Default for logs, results and `isError` texts: the secret
   * scanner once the core is loaded (`await loadCore()`). A wrapped tool loads the core itself;
   * where the core cannot load, and in `boundToolResult` called before it is loaded, an `isError`
   * text is withheld and a result is refused (see `secrets`).
   */
  redact?: Redactor;
  /**
   * What happens to credentials in a tool's result before it is bounded and sent. `'redact'`
   * (default): fields whose names are credentials' (`access_token`, `refresh_token`, `password`,
   * `apiKey`, `authorization`, `cookie`… : `SENSITIVE_KEY_PATTERN`) are dropped from structured
   * output at any depth, and every other string (keys too) and every text or resource text block
   * passes through `redact` (default: the secret scanner, which writes `[REDACTED:<rule>:<n>]`); the
   * messages of ctxgate errors a handler throws are redacted too. On by default because spec 000 §6
   * says OAuth tokens are never in tool output, and a handler that passes an API response through
   * is how one gets there. Without a redactor (`boundToolResult` called before `await loadCore()`,
   * or a core that cannot load), a result is refused with NOT_INITIALIZED rather than sent
   * unscanned. `'off'`: results are sent as the handler returned them; for tools whose output cannot
   * hold credentials, or whose callers need fields the pattern matches (a `tokens` list).
   * Dropping happens before the output schema is met: a schema that requires a dropped field fails.
   */
  secrets?: 'redact' | 'off';
  /**
   * Remove HTML tags, comments and script/style elements from every string of a result (as
   * `stripHtml` does) before it is bounded and redacted. Off by default: ctxgate's callers are mostly
   * coding assistants, whose tools return HTML source (a template, a page being debugged) the model
   * must see as written. Turn it on for tools that return rendered web content.
   */
  stripHtml?: boolean;
  /** Receives structured log records (default: no logging). */
  logger?: (record: LogRecord) => void;
  /** Also return `structuredContent` for plain-data results (default true). */
  structuredContent?: boolean;
}

type AnyHandler = (...args: never[]) => unknown;

/** Marks handlers already wrapped, so applying the policy twice does not double-wrap. */
const wrappedHandlers = new WeakSet<object>();
/** How to re-render a bounded result with a budget warning (kept off the wire object itself). */
const rerender = new WeakMap<CallToolResult, (warning: string) => CallToolResult>();

function isCallToolResult(value: unknown): value is CallToolResult {
  return value !== null && typeof value === 'object' && Array.isArray((value as { content?: unknown }).content);
}

function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The adapter's options, checked where they are given (INVALID_PARAMS naming the option). */
function checkPolicyOptions(options: unknown): asserts options is McpPolicyOptions {
  expectOptions(options);
  const o = options as Record<string, unknown>;
  if (o.limits !== undefined && o.limits !== null) {
    expectObject(o.limits, 'options.limits');
    // Checked like defineToolLimits' (frozen tables once): a byte limit under 256 would not even
    // hold an error, and a strategy zod refuses there must not slip in here.
    for (const [name, limits] of Object.entries(o.limits)) checkToolLimits(limits, `options.limits["${name}"]`);
  }
  if (o.defaultLimits !== undefined && o.defaultLimits !== null) {
    expectObject(o.defaultLimits, 'options.defaultLimits');
    checkToolLimits(o.defaultLimits, 'options.defaultLimits');
  }
  if (o.secrets !== undefined && o.secrets !== 'redact' && o.secrets !== 'off') throw notOneOf('options.secrets', ['redact', 'off'], o.secrets);
  if (o.stripHtml !== undefined && typeof o.stripHtml !== 'boolean') throw wrongKind('options.stripHtml', 'a boolean', o.stripHtml);
  const budget = o.budget;
  if (budget !== undefined && budget !== null && budget !== false && typeof budget !== 'function') {
    expectMethods(budget, 'options.budget', ['peek', 'record', 'countTokens'], 'a SessionBudget, a function returning one, or false');
  }
  for (const name of ['clock', 'redact', 'logger'] as const) expectOptionalFunction(o[name], `options.${name}`);
}

/**
 * The blocks of a handler's `CallToolResult` must be objects, and a resource block must hold a
 * resource object: the bounding reads them (INVALID_PARAMS naming the block otherwise).
 */
function checkContentBlocks(content: readonly unknown[]): void {
  content.forEach((block, i) => {
    if (block === null || typeof block !== 'object') {
      throw invalidParams(`raw.content[${i}]`, `must be a content block such as { type: 'text', text } (got ${kindOf(block)}).`);
    }
    const b = block as { type?: unknown; resource?: unknown };
    if (b.type === 'resource' && (b.resource === null || typeof b.resource !== 'object')) {
      throw invalidParams(`raw.content[${i}].resource`, `must be an object with uri and text or blob (got ${kindOf(b.resource)}).`);
    }
  });
}

function visibleBytes(result: CallToolResult): number {
  let bytes = 0;
  for (const block of result.content) {
    if (block.type === 'text') bytes += utf8ByteLength(block.text);
    else if (block.type === 'resource' && 'text' in block.resource) bytes += utf8ByteLength(block.resource.text);
  }
  return bytes;
}

function visibleText(result: CallToolResult): string {
  return result.content
    .map((b) => (b.type === 'text' ? b.text : b.type === 'resource' && 'text' in b.resource ? b.resource.text : ''))
    .join('\n');
}

/** The limits of `toolName` under `options` (checked in `checkPolicyOptions`). */
function limitsFor(options: McpPolicyOptions, toolName: string): ToolLimits {
  return toolLimitsFor(options.limits ?? {}, toolName, options.defaultLimits ?? DEFAULT_TOOL_LIMITS);
}

/** How a result is cleaned before it is bounded (`options.secrets`, `options.stripHtml`). */
interface Scrubber {
  /** Drop credential fields from structured data. */
  readonly drop: boolean;
  /** A string value or text block as the model may read it. */
  text(s: string): string;
  /**
   * An object key, or a resource link's URI and names, as the model may read it (redacted, never
   * stripped of HTML: they are not markup).
   */
  key(k: string): string;
}

/** Whether `options` ask for results to be cleaned at all. */
function scrubs(options: McpPolicyOptions): boolean {
  return options.secrets !== 'off' || options.stripHtml === true;
}

/** The scrubber `options` ask for, or undefined when they ask for none. */
function scrubberFor(options: McpPolicyOptions): Scrubber | undefined {
  if (!scrubs(options)) return undefined;
  const secrets = options.secrets !== 'off';
  const strip = options.stripHtml === true;
  const redact = secrets ? (options.redact ?? defaultRedactor()) : undefined;
  if (secrets && redact === undefined) {
    throw new CtxgateError(
      'NOT_INITIALIZED',
      "Tool results are scanned for secrets (options.secrets, spec 000 §6) but the secret scanner is not loaded. Call `await loadCore()` once before boundToolResult, pass options.redact, or set options.secrets to 'off' for output that holds no credentials.",
      { details: { option: 'secrets' } },
    );
  }
  const redacted = (s: string): string => (redact === undefined ? s : redactedText(redact, s));
  // Outputs repeat keys and values (every item has a `name`): each distinct string is cleaned once.
  const texts = new Map<string, string>();
  const keys = new Map<string, string>();
  return {
    drop: secrets,
    text(s) {
      let out = texts.get(s);
      if (out === undefined) texts.set(s, (out = redacted(strip ? stripHtml(s) : s)));
      return out;
    },
    key(k) {
      let out = keys.get(k);
      if (out === undefined) keys.set(k, (out = redacted(k)));
      return out;
    },
  };
}

/** Sets `obj[key]` as an own data property: a `__proto__` key from JSON must stay data. */
function defineEntry(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

/** A cleaned copy of JSON data (at most 100 levels deep: toJsonText checked it). */
function scrubJson(value: unknown, scrub: Scrubber): unknown {
  if (typeof value === 'string') return scrub.text(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => scrubJson(v, scrub));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    // Member by member, as dropSensitiveFields decides (which, used whole, would stop at 32 levels
    // where tool output may nest 100).
    if (scrub.drop && isCredentialField(k, v)) continue;
    // Two keys can redact to one placeholder (each key is scanned alone, so both read `:1`): the
    // later one is numbered on rather than written over the first.
    let key = scrub.key(k);
    if (key !== k && Object.hasOwn(out, key)) {
      let n = 2;
      while (Object.hasOwn(out, `${key} (${n})`)) n++;
      key = `${key} (${n})`;
    }
    defineEntry(out, key, scrubJson(v, scrub));
  }
  return out;
}

/** Top-level keys of `data` whose lists the limits bound: those of `limits.listKeys`, else every array. */
function listKeysOf(data: Record<string, unknown>, limits: ToolLimits): string[] {
  const arrays = Object.keys(data).filter((k) => k !== '_meta' && Array.isArray(data[k]));
  return limits.listKeys ? limits.listKeys.filter((k) => arrays.includes(k)) : arrays;
}

/**
 * Which positions of `list` the wrappers can keep under `limits`, chosen as `selectItems` chooses
 * (it ranks by numbers, which cleaning never changes); undefined when every item may be kept, as in
 * a summarised list, whose middle is read for its stats.
 */
function keptPositions(list: readonly unknown[], limits: ToolLimits): ((index: number) => boolean) | undefined {
  const strategy = limits.truncation;
  if (strategy.kind === 'summarizeMiddle' || list.length <= limits.maxItems) return undefined;
  if (strategy.kind !== 'topN') return (index) => index < limits.maxItems;
  const ranks = list.map((item, index) => ({ index, rank: item !== null && typeof item === 'object' ? (item as Record<string, unknown>)[strategy.by] : undefined }));
  const kept = new Set(pickItems(ranks, limits.maxItems, { kind: 'topN', by: 'rank', order: strategy.order }).map((r) => r.index));
  return (index) => kept.has(index);
}

/**
 * Structured data as the model may read it. The JSON of the data is cleaned, not the live objects:
 * that is what is sent (a Date as its text), and a cycle, a BigInt or nesting deeper than 100
 * levels is UNSUPPORTED_VALUE here, at its path in `data`, before anything is scanned. Items of the
 * lists `keys` that the limits can never keep are never sent, so they are not scanned either: they
 * become `null`, which keeps each list's length (the wrappers' counts) and lets the wrappers pick
 * the same items again.
 */
function scrubData(data: Record<string, unknown>, options: McpPolicyOptions, limits: ToolLimits, keys: readonly string[]): Record<string, unknown> {
  if (!scrubs(options)) return data;
  const visible: Record<string, unknown> = { ...data };
  for (const key of keys) {
    const list = data[key] as unknown[];
    const kept = keptPositions(list, limits);
    if (kept) defineEntry(visible, key, list.map((item, i) => (kept(i) ? item : null)));
  }
  // `visible` is a copy, so a back-reference to `data` (`data.me = data`) would be reported one
  // step further in (`$.me.me`): the fault is reported from `data` itself.
  const text = withDataPaths(data, () => toJsonText(visible));
  return scrubJson(JSON.parse(text), scrubberFor(options) as Scrubber) as Record<string, unknown>;
}

/** A `CallToolResult`'s text and resource-text blocks cleaned (its structured content is cleaned as it is bounded). */
function scrubBlocks(raw: CallToolResult, options: McpPolicyOptions): CallToolResult {
  const scrub = scrubberFor(options);
  if (scrub === undefined) return raw;
  const content = raw.content.map((block) => {
    if (block.type === 'text' && typeof block.text === 'string') return { ...block, text: scrub.text(block.text) };
    if (block.type === 'resource' && 'text' in block.resource && typeof block.resource.text === 'string') {
      return { ...block, resource: { ...block.resource, text: scrub.text(block.resource.text) } };
    }
    // A link's URI, name, title and description reach the model as text too (a token in a query
    // string, a signed URL). HTML is not stripped from them: they are not markup.
    if (block.type === 'resource_link') {
      const link = { ...block } as Record<string, unknown>;
      for (const field of ['uri', 'name', 'title', 'description'] as const) {
        if (typeof link[field] === 'string') link[field] = scrub.key(link[field] as string);
      }
      return link as typeof block;
    }
    return block;
  });
  return { ...raw, content };
}

/**
 * Cleans a data object (see {@link scrubData}) and bounds it by its tool's limits, choosing the
 * wrapper from the lists it holds.
 */
function boundData(raw: Record<string, unknown>, limits: ToolLimits, maxBytes: number, clock: Clock, options: McpPolicyOptions): Record<string, unknown> {
  const data = scrubData(raw, options, limits, listKeysOf(raw, limits));
  // Again: a list under a credential's name was dropped.
  const keys = listKeysOf(data, limits);
  const opts = { limits, maxBytes, clock };
  if (keys.length === 0) return wrapScalarOutput(data, opts);
  if (keys.length === 1) return wrapOutput(data, keys[0] as string, opts);
  return wrapOutputMulti(data, keys, opts);
}

interface RenderOptions {
  structured: boolean;
  maxBytes: number;
  isError?: boolean;
  /** Fields of the handler's own result to keep (e.g. its `_meta`), and blocks to append. */
  base?: CallToolResult;
  extra?: CallToolResult['content'];
}

/**
 * The model reads the JSON text, `_meta` included. `structuredContent` stays exactly the tool's
 * data (clients validate it against the output schema, which rarely allows extra keys), so the
 * policy metadata also goes to the result's own `_meta`.
 */
function jsonResult(value: Record<string, unknown>, o: RenderOptions): CallToolResult {
  const { _meta: meta, ...data } = value;
  const result: CallToolResult = { ...(o.base ?? {}), content: [{ type: 'text', text: toJsonText(value) }, ...(o.extra ?? [])] };
  if (o.structured) result.structuredContent = data;
  else delete result.structuredContent;
  if (isPlainRecord(meta)) result._meta = { ...(o.base?._meta ?? {}), ...meta };
  if (o.isError) result.isError = true;
  return result;
}

/** Renders a JSON-shaped output and registers how to add a warning that still fits `maxBytes`. */
function renderJson(value: Record<string, unknown>, o: RenderOptions): CallToolResult {
  const result = jsonResult(value, o);
  rerender.set(result, (warning) => {
    const warned = jsonResult(withBudgetWarning(value, { level: 'soft', usedBytes: 0, usedTokens: 0, warning }), o);
    return visibleBytes(warned) <= o.maxBytes ? warned : result;
  });
  return result;
}

/** Bounds a text-only `CallToolResult`: texts cut head+tail, `_meta` on the result and as a note. */
function boundTextResult(raw: CallToolResult, maxBytes: number, clock: Clock): CallToolResult {
  const timestamp = isoTimestamp(clock);
  /** The result with the texts cut to `budget` bytes in all, and the bytes the texts kept. */
  const render = (budget: number, warning?: string): { out: CallToolResult; textBytes: number } => {
    let remaining = budget;
    let truncated = false;
    let omittedLines = 0;
    let omittedChars = 0;
    const content = raw.content.map((block) => {
      if (block.type !== 'text') return block;
      const cut = truncateText(block.text, { maxBytes: Math.max(0, remaining) });
      remaining -= utf8ByteLength(cut.text);
      if (cut.meta.truncated) {
        truncated = true;
        omittedLines += cut.meta.omittedLines;
        omittedChars += cut.meta.omittedChars;
      }
      return { ...block, text: cut.text };
    });
    const count = content.length;
    const meta: OutputMeta = truncated
      ? { count, truncated: true, truncatedFrom: count, timestamp, omittedLines, omittedChars }
      : { count, timestamp };
    const withWarning: OutputMeta = warning === undefined ? meta : { ...meta, budgetWarning: warning };
    // The model does not read result._meta, so truncation and warnings are also stated in a note.
    if (truncated || warning !== undefined) content.push({ type: 'text', text: toJsonText({ _meta: withWarning }) });
    const out: CallToolResult = { ...raw, content, _meta: { ...(raw._meta ?? {}), ...withWarning } };
    return { out, textBytes: budget - remaining };
  };
  const fit = (warning?: string): CallToolResult => {
    let budget = maxBytes;
    let { out, textBytes } = render(budget, warning);
    for (let i = 0; i < 6 && budget > 0 && visibleBytes(out) > maxBytes; i++) {
      // Only the texts can give way, so the overshoot comes off what they kept, not off the budget
      // they had: texts that fit whole next to a note that does not would otherwise never be cut.
      budget = Math.max(0, Math.min(budget, textBytes) - (visibleBytes(out) - maxBytes));
      ({ out, textBytes } = render(budget, warning));
    }
    return out;
  };
  const result = fit();
  rerender.set(result, (warning) => {
    const warned = fit(warning);
    return visibleBytes(warned) <= maxBytes ? warned : result;
  });
  return result;
}

/**
 * Bounds whatever a tool handler returned, by the tool's limits (without budget accounting):
 * plain data becomes JSON text (and `structuredContent`) with `_meta`; a `CallToolResult` with
 * `structuredContent` has it bounded and its text replaced by the bounded JSON; a text-only one has
 * its texts cut head+tail; an `isError` result is converted to the spec's error format, its text
 * redacted (`options.redact`, else the secret scanner if the core is loaded, else withheld). Before
 * bounding, credential fields are dropped and secrets redacted (`options.secrets`, on by default:
 * call `await loadCore()` first, or this throws NOT_INITIALIZED), and HTML is stripped when
 * `options.stripHtml` asks. Errors, too, fit the tool's byte limit.
 *
 * Any `raw` value is accepted, but it must be JSON data: a cycle, a BigInt or nesting deeper than
 * 100 levels in it is UNSUPPORTED_VALUE. A `toolName` that is not a string, options of the wrong
 * kind (limits that `defineToolLimits` would refuse among them), or a `CallToolResult` whose
 * content blocks are not objects are INVALID_PARAMS.
 */
export function boundToolResult(toolName: string, raw: unknown, options: McpPolicyOptions = {}): CallToolResult {
  expectString(toolName, 'toolName');
  checkPolicyOptions(options);
  const limits = limitsFor(options, toolName);
  const clock = options.clock ?? systemClock;
  const structured = options.structuredContent !== false;
  // Leave room for a budget warning, so adding one never breaks the tool's byte limit.
  const reserve = options.budget === false ? 0 : GLOBAL_LIMITS.budgetWarningReserveBytes;
  const maxBytes = Math.max(Math.floor(limits.maxBytes / 2), limits.maxBytes - reserve);
  if (isCallToolResult(raw)) {
    checkContentBlocks(raw.content);
    if (raw.isError) return errorResult(raw, options, limits.maxBytes);
    // Cleaned before bounding: redaction changes lengths, so the byte limit is measured after it.
    const clean = scrubBlocks(raw, options);
    if (isPlainRecord(clean.structuredContent)) {
      const bounded = boundData(clean.structuredContent, limits, maxBytes, clock, options);
      return renderJson(bounded, { structured: true, maxBytes: limits.maxBytes, base: clean, extra: clean.content.filter((b) => b.type !== 'text') });
    }
    // Text results are re-cut from the raw texts when a warning is added, so no reserve is needed.
    return boundTextResult(clean, limits.maxBytes, clock);
  }
  let value: Record<string, unknown>;
  if (typeof raw === 'string') {
    const scrub = scrubberFor(options);
    value = wrapTextOutput(scrub ? scrub.text(raw) : raw, { limits, maxBytes, clock });
  } else if (Array.isArray(raw)) value = wrapOutput(scrubData({ items: raw }, options, limits, ['items']), 'items', { limits, maxBytes, clock });
  else if (isPlainRecord(raw)) value = boundData(raw, limits, maxBytes, clock, options);
  else value = wrapScalarOutput(scrubData({ result: raw ?? null }, options, limits, []), { limits, maxBytes, clock });
  return renderJson(value, { structured, maxBytes: limits.maxBytes });
}

/**
 * The spec's error output for a failed call, bounded like any output by the tool's byte limit
 * `maxBytes` (the message gives way; error, errorCode and `_meta` stay).
 */
function errorResult(raw: CallToolResult | unknown, options: McpPolicyOptions, maxBytes: number): CallToolResult {
  const base = { clock: options.clock ?? systemClock, maxBytes };
  // With options.secrets on, the messages a tool wrote itself are scanned too: one may quote a token.
  const scanner = options.redact ?? (options.secrets === 'off' ? undefined : defaultRedactor());
  let out: ToolErrorOutput;
  if (isCallToolResult(raw)) {
    const sc = raw.structuredContent;
    if (isToolErrorOutput(sc)) {
      const message = scanner ? scanner(sc.message) : options.secrets === 'off' ? sc.message : withheldErrorText(sc.message);
      out = createErrorMeta(sc.errorCode, message, base);
    } else {
      const text = visibleText(raw);
      const redact = options.redact ?? defaultRedactor();
      // This text goes to the model: unscanned, it is withheld rather than sent (INV-CONTEXT-4).
      out = createErrorMeta('INTERNAL_ERROR', redact ? redact(text) : withheldErrorText(text), base);
    }
  } else if (isCtxgateError(raw) || isToolErrorOutput(raw)) {
    out = toToolError(raw, { ...base, ...(scanner ? { redact: scanner } : {}) });
  } else {
    // Only an explicit redactor lets an unexpected error's message through: toToolError shows it
    // whenever it is given one, and the scanner knows formats, not everything a stack may quote.
    out = toToolError(raw, { ...base, ...(options.redact ? { redact: options.redact } : {}) });
  }
  return renderJson(out as unknown as Record<string, unknown>, { structured: true, maxBytes, isError: true });
}

/** What the model reads instead of an `isError` text that no redactor could scan. */
function withheldErrorText(text: string): string {
  return `[tool error text withheld: ${text.length} chars; the secret scanner is not loaded (await loadCore()) and no redact option was given]`;
}

const callToolResultAdapter: OutputAdapter<CallToolResult> = {
  measure(result) {
    return { bytes: visibleBytes(result), text: visibleText(result) };
  },
  describe(result) {
    const meta = result._meta as Record<string, unknown> | undefined;
    return { count: typeof meta?.count === 'number' ? meta.count : null, truncated: meta?.truncated === true };
  },
  attachWarning(result, check: BudgetCheck) {
    const again = check.warning === undefined ? undefined : rerender.get(result);
    return again ? again(check.warning as string) : result;
  },
};

function budgetFor(options: McpPolicyOptions, extra: unknown): SessionBudget | undefined {
  if (options.budget === false) return undefined;
  const sessionId = isPlainRecord(extra) && typeof extra.sessionId === 'string' ? extra.sessionId : undefined;
  if (options.budget === undefined) return getContextBudget(sessionId ?? 'default');
  return typeof options.budget === 'function' ? options.budget(sessionId) : options.budget;
}

/**
 * Wraps one tool callback, before `registerTool`, so its results follow the policy. The MCP
 * `extra` argument (last) picks the session budget. Errors thrown by the handler, including
 * ctxgate errors with their codes, come back as `isError` results in the spec's format. A
 * `toolName` that is not a string, a `handler` that is not a function or options of the wrong kind
 * are INVALID_PARAMS, thrown here rather than at the first call.
 *
 * @example server.registerTool('repo.search', { inputSchema }, withToolPolicy('repo.search', async ({ q }) => ({ hits })))
 */
export function withToolPolicy<Args extends unknown[]>(
  toolName: string,
  handler: (...args: Args) => unknown,
  options: McpPolicyOptions = {},
): (...args: Args) => Promise<CallToolResult> {
  expectString(toolName, 'toolName');
  expectFunction(handler, 'handler');
  checkPolicyOptions(options);
  if (wrappedHandlers.has(handler)) return handler as (...args: Args) => Promise<CallToolResult>;
  const bound = async (...args: Args): Promise<CallToolResult> => {
    // Results (options.secrets) and the ctxgate errors a handler throws are scanned whenever the
    // core can load, so it is loaded before the handler runs.
    if (options.redact === undefined && options.secrets !== 'off') await loadDefaultRedactor();
    const raw = await handler(...args);
    // An isError text is redacted by the scanner, not withheld, whenever the core can load.
    if (options.redact === undefined && isCallToolResult(raw) && raw.isError) await loadDefaultRedactor();
    try {
      return boundToolResult(toolName, raw, options);
    } catch (error) {
      // The handler's own result is at fault, not the model's call: the model must not read
      // INVALID_PARAMS and retry with other arguments. The message names where, never a value.
      if (isCtxgateError(error)) throw new CtxgateError('INTERNAL_ERROR', `The tool returned a result that cannot be sent: ${error.message}`, { cause: error });
      throw error;
    }
  };
  const logged = withLogContext<Args, CallToolResult>(toolName, bound, {
    output: callToolResultAdapter,
    budget: (...args: Args) => budgetFor(options, args[args.length - 1]),
    logger: options.logger ?? (() => {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.redact ? { redact: options.redact } : {}),
  });
  const wrapped = async (...args: Args): Promise<CallToolResult> => {
    try {
      return await logged(...args);
    } catch (error) {
      if (isPlainRecord(error) && (error as { code?: unknown }).code === URL_ELICITATION_REQUIRED) throw error;
      let result = errorResult(error, options, limitsFor(options, toolName).maxBytes);
      const budget = budgetFor(options, args[args.length - 1]);
      if (budget) {
        const peek = budget.peek(visibleBytes(result));
        if (peek.warning !== undefined) result = callToolResultAdapter.attachWarning(result, peek);
        budget.record(result, { bytes: visibleBytes(result), tokens: budget.countTokens(visibleText(result)) });
      }
      return result;
    }
  };
  wrappedHandlers.add(wrapped);
  return wrapped;
}

/** MCP's "URL elicitation required" error code; the SDK must see that error to answer it. */
const URL_ELICITATION_REQUIRED = -32042;

/** Undo handle of {@link applyToolPolicy}. */
export interface AppliedPolicy {
  /** Restores the server's own registration methods and the handlers it had before. */
  restore(): void;
}

interface ServerInternals {
  registerTool: (...args: unknown[]) => unknown;
  tool: (...args: unknown[]) => unknown;
  _registeredTools?: Record<string, { handler: unknown }>;
}

/**
 * Puts every tool of an `McpServer` under the policy: tools registered later (through
 * `registerTool` or the deprecated `tool`) and those already registered. Task-based tools
 * (`registerToolTask`) are left as they are. A callback swapped in later with
 * `RegisteredTool.update({ callback })` is not wrapped; wrap it with {@link withToolPolicy}.
 *
 * A `server` that is not an `McpServer` (no `registerTool` method), one whose methods or registered
 * tools cannot be replaced (a frozen or sealed server, a read-only `registerTool`), or options of
 * the wrong kind are INVALID_PARAMS, and the server is left untouched. For such a server, wrap
 * each callback with {@link withToolPolicy} before registering it instead.
 */
export function applyToolPolicy(server: McpServer, options: McpPolicyOptions = {}): AppliedPolicy {
  expectMethods(server, 'server', ['registerTool'], 'an McpServer (an object with a registerTool method)');
  checkPolicyOptions(options);
  const s = server as unknown as ServerInternals;
  const register = s.registerTool;
  const tool = s.tool;
  // The deprecated `tool` is wrapped only where the server has it.
  const patchTool = typeof tool === 'function';
  // Already registered tools: the SDK keeps them in a private map; wrap in place when it is there.
  const registry = s._registeredTools;
  const toWrap: [string, { handler: unknown }][] = [];
  for (const [name, registered] of Object.entries(registry !== null && typeof registry === 'object' ? registry : {})) {
    if (registered === null || typeof registered !== 'object') continue;
    if (typeof registered.handler === 'function' && !wrappedHandlers.has(registered.handler)) toWrap.push([name, registered]);
  }
  // Every assignment below is checked first, so a refusal never leaves the server half patched.
  const fixed = (patchTool ? ['registerTool', 'tool'] : ['registerTool']).filter((m) => !canAssign(s, m));
  if (fixed.length > 0) {
    throw invalidParams(
      'server',
      `must let ${fixed.map((m) => `${m}()`).join(' and ')} be replaced (got a frozen or sealed server, or a read-only method); wrap each tool callback with withToolPolicy() instead.`,
      { methods: fixed },
    );
  }
  const stuck = toWrap.filter(([, registered]) => !canAssign(registered, 'handler')).map(([name]) => name);
  if (stuck.length > 0) {
    throw invalidParams('server', `has ${stuck.length} registered tool(s) whose handler cannot be replaced (a frozen registration); wrap their callbacks with withToolPolicy() instead.`, {
      tools: stuck.slice(0, 20),
    });
  }
  const ownRegister = Object.prototype.hasOwnProperty.call(s, 'registerTool') ? s.registerTool : undefined;
  const ownTool = Object.prototype.hasOwnProperty.call(s, 'tool') ? s.tool : undefined;
  s.registerTool = function (this: unknown, name: unknown, config: unknown, cb: unknown) {
    const wrapped = typeof cb === 'function' ? withToolPolicy(String(name), cb as AnyHandler as (...a: unknown[]) => unknown, options) : cb;
    return register.call(this, name, config, wrapped);
  };
  if (patchTool) {
    s.tool = function (this: unknown, name: unknown, ...rest: unknown[]) {
      const last = rest[rest.length - 1];
      if (typeof last === 'function') rest[rest.length - 1] = withToolPolicy(String(name), last as (...a: unknown[]) => unknown, options);
      return tool.call(this, name, ...rest);
    };
  }
  const previous = new Map<{ handler: unknown }, unknown>();
  for (const [name, registered] of toWrap) {
    previous.set(registered, registered.handler);
    registered.handler = withToolPolicy(name, registered.handler as (...a: unknown[]) => unknown, options);
  }
  return {
    restore() {
      if (ownRegister) s.registerTool = ownRegister;
      else delete (s as Partial<ServerInternals>).registerTool;
      if (patchTool) {
        if (ownTool) s.tool = ownTool;
        else delete (s as Partial<ServerInternals>).tool;
      }
      for (const [registered, handler] of previous) registered.handler = handler;
    },
  };
}

/**
 * True when `obj[key] = value` would succeed in strict mode and make an own data property: an own
 * writable data property, or none (then the object must be extensible and an inherited `key` a
 * writable data property, like a class method). Accessors are refused: what they do with the
 * value, and whether `restore` could undo it, is unknown.
 */
function canAssign(obj: object, key: string): boolean {
  const own = Object.getOwnPropertyDescriptor(obj, key);
  if (own !== undefined) return 'value' in own && own.writable === true;
  if (!Object.isExtensible(obj)) return false;
  for (let p = Object.getPrototypeOf(obj) as object | null; p !== null; p = Object.getPrototypeOf(p) as object | null) {
    const inherited = Object.getOwnPropertyDescriptor(p, key);
    if (inherited !== undefined) return 'value' in inherited && inherited.writable === true;
  }
  return true;
}
