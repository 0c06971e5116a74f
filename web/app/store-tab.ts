// The store inspector: one agent context kept in IndexedDB. Each build is recorded as a run of
// the `context_synthesizer` agent, through the permission checks (ContextValidator.safeSet), with
// its diff (DiffTracker) appended to the audit trail (AuditTrail), and saved version-checked.
// The page is built from the repository's sources, so these imports name the store's files.
import { createIndexedDbStore } from '../../src/store/backends/indexeddb.ts';
import { ContextValidator } from '../../src/store/access.ts';
import { AuditTrail } from '../../src/store/audit.ts';
import { DiffTracker, summarizeDiff } from '../../src/store/diff.ts';
import { DEFAULT_CONTEXT_LIMITS, getStats } from '../../src/store/limits.ts';
import { NAMESPACES, createAgentContext, type AgentContext } from '../../src/store/model.ts';
import type { ContextStore } from '../../src/store/context-store.ts';
import { isCtxgateError } from '../../src/errors.ts';
import { $, fmt, fmtBytes, h, replace } from './dom.ts';
import { scroller } from './build-view.ts';

/** The id of the playground's agent context. */
export const CONTEXT_ID = 'playground-session';
const AGENT = 'context_synthesizer';
/** How many facts/errors the playground keeps (the audit trail caps itself). */
const KEEP = 50;
/**
 * Saves tried before a CONFLICT is reported: another tab of the page saved in between, and a
 * record is re-applied to what is stored now, so trying again is safe.
 */
const SAVE_ATTEMPTS = 5;
/** Targets a record keeps, and characters of each: a record must stay small (the store's size limits). */
const MAX_TARGETS = 20;
const MAX_TARGET_CHARS = 200;

/**
 * Replaces secrets in a text with placeholders (the engine's redactSecrets). Target names are
 * typed by a person, and a pasted token must not be kept in IndexedDB.
 */
export type Redactor = (text: string) => Promise<string>;

/** What a build did, as the store records it (no contents, no secrets). */
export interface BuildRecord {
  ok: boolean;
  code?: string;
  bundleId?: string;
  blocks?: number;
  tokens?: number;
  decision?: string;
  fingerprints?: { bundle: string; projectIndex: string; config: string };
  targets: string[];
  model: string;
  durationMs: number;
}

/** The playground's store: record builds, render the inspector. */
export class PlaygroundStore {
  private readonly store: ContextStore = createIndexedDbStore({ name: 'ctxgate-playground' });
  private readonly validator = new ContextValidator();
  private readonly audit = new AuditTrail();
  private queue: Promise<unknown> = Promise.resolve();

  /**
   * `redact`: how target names are cleaned of secrets before they are recorded; without it a
   * record keeps only how many targets there were.
   */
  constructor(private readonly redact?: Redactor) {}

  /**
   * Records one build as an agent run plus its diff; saves are serialised within the page, and a
   * save that meets another tab's (CONFLICT) is re-applied to the newer record.
   */
  record(build: BuildRecord): Promise<void> {
    const next = this.queue.then(async () => {
      const clean = { ...build, targets: await this.cleanTargets(build.targets) };
      for (let attempt = 1; ; attempt++) {
        try {
          return await this.recordNow(clean);
        } catch (error) {
          if (!isCtxgateError(error, 'CONFLICT') || attempt >= SAVE_ATTEMPTS) throw error;
        }
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Target names as a record keeps them: bounded in number and length, secrets replaced. */
  private async cleanTargets(targets: string[]): Promise<string[]> {
    if (!this.redact) return targets.length ? [`${targets.length} target(s)`] : [];
    const kept = targets.slice(0, MAX_TARGETS);
    const out = await Promise.all(kept.map(async (t) => {
      // Redacted whole, then cut: cutting first could leave part of a secret that no longer matches.
      const clean = await this.redact!(t);
      return clean.length > MAX_TARGET_CHARS ? `${clean.slice(0, MAX_TARGET_CHARS)}…` : clean;
    }));
    if (targets.length > kept.length) out.push(`and ${targets.length - kept.length} more`);
    return out;
  }

  private async recordNow(build: BuildRecord): Promise<void> {
    const loaded = await this.store.load(CONTEXT_ID);
    const ctx: AgentContext = loaded?.context ?? createAgentContext(crypto.randomUUID(), crypto.randomUUID(), { locale: navigator.language });
    const tracker = new DiffTracker(ctx);
    const now = new Date().toISOString();
    if (build.ok) {
      const fact = {
        id: `build-${now}`,
        content: `Built bundle ${build.bundleId?.slice(0, 8)} for ${build.targets.join(', ') || 'no target'}: ${build.blocks} blocks, ${build.tokens} tokens (${build.decision}) for ${build.model}.`,
        source: 'ctxgate.buildContext',
        timestamp: now,
        confidence: 1,
        provenance: { bundleFingerprint: build.fingerprints?.bundle, projectIndexFingerprint: build.fingerprints?.projectIndex, configFingerprint: build.fingerprints?.config },
      };
      this.validator.safeSet(ctx, AGENT, 'enrichment', 'facts', [...ctx.enrichment.facts, fact].slice(-KEEP));
      if (build.decision === 'warn_soft_limit') {
        this.validator.safeSet(ctx, AGENT, 'diagnostics', 'warnings', [...ctx.diagnostics.warnings, { timestamp: now, agentId: AGENT, message: 'context over the soft token limit' }].slice(-KEEP));
      }
    } else {
      const error = { timestamp: now, agentId: AGENT, message: `build refused: ${build.code}`, severity: 'error', details: { targets: build.targets, model: build.model } };
      this.validator.safeSet(ctx, AGENT, 'diagnostics', 'errors', [...ctx.diagnostics.errors, error].slice(-KEEP));
    }
    const diff = tracker.capture(AGENT, ctx);
    this.audit.recordRun(ctx, { timestamp: now, agentId: AGENT, status: build.ok ? 'ok' : 'refused', durationMs: Math.round(build.durationMs), keysWritten: [...diff.keysWritten] });
    this.audit.recordDiff(ctx, diff);
    await this.store.save(CONTEXT_ID, ctx, { expectedVersion: loaded?.version ?? 0 });
  }

  /** Deletes the stored context. */
  async reset(): Promise<void> {
    await this.queue;
    await this.store.delete(CONTEXT_ID);
  }

  /** Draws the inspector. */
  async render(): Promise<void> {
    await this.queue;
    const body = $('store-body');
    const loaded = await this.store.load(CONTEXT_ID);
    if (!loaded) {
      replace(body, h('p', { id: 'store-empty' }, 'No context stored yet: build a context and it will be recorded here.'));
      return;
    }
    const { context: ctx, version } = loaded;
    const stats = getStats(ctx);
    const L = DEFAULT_CONTEXT_LIMITS;
    const allowed = this.validator.allowedNamespaces(AGENT);
    const runs = [...ctx.audit.agentRuns].reverse();
    const diffs = [...ctx.audit.diffs].reverse();
    const meter = (value: number, max: number, label: string): HTMLElement =>
      h('meter', { min: 0, max, value, low: max * 0.7, high: max * 0.9, optimum: 0, 'aria-label': label }, `${value} of ${max}`);
    replace(
      body,
      h('dl', { class: 'kv', id: 'store-meta' },
        h('dt', {}, 'Context id'), h('dd', {}, h('code', {}, CONTEXT_ID)),
        h('dt', {}, 'Store version'), h('dd', { id: 'store-version' }, String(version)),
        h('dt', {}, 'Schema'), h('dd', {}, ctx.version),
        h('dt', {}, 'Session'), h('dd', {}, h('code', {}, ctx.metadata.sessionId)),
        h('dt', {}, 'Created'), h('dd', {}, ctx.metadata.createdAt),
        h('dt', {}, 'Total size'), h('dd', {}, `${fmtBytes(stats.totalSize)} of ${fmtBytes(L.maxTotalSize)} `, meter(stats.totalSize, L.maxTotalSize, 'Total size against the limit')),
        h('dt', {}, `${AGENT} may write`), h('dd', {}, allowed === '*' ? 'every namespace' : (allowed ?? []).join(', ')),
      ),
      h('h3', {}, 'Namespaces'),
      scroller('Namespaces and their sizes', h('table', { id: 'store-namespaces' },
        h('thead', {}, h('tr', {}, ['Namespace', 'Size', 'Of the limit', 'Lists (items)'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, NAMESPACES.map((ns) => {
          const fields = Object.entries(ctx[ns] as unknown as Record<string, unknown>).filter(([, v]) => Array.isArray(v)) as [string, unknown[]][];
          return h('tr', {},
            h('th', { scope: 'row' }, ns),
            h('td', { class: 'num' }, fmtBytes(stats.namespaceSizes[ns])),
            h('td', {}, meter(stats.namespaceSizes[ns], L.maxNamespaceSize, `${ns} size against the ${fmtBytes(L.maxNamespaceSize)} limit`)),
            h('td', {}, fields.length ? fields.map(([k, v]) => `${k} ${v.length}/${fmt(L.maxArrayItems)}`).join(', ') : '—'));
        })),
      )),
      h('h3', {}, `Agent runs (${runs.length}, newest first)`),
      scroller('Agent runs', h('table', { id: 'store-runs' },
        h('thead', {}, h('tr', {}, ['When', 'Agent', 'Status', 'Duration', 'Keys written'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, runs.slice(0, 30).map((r) => h('tr', {},
          h('td', {}, new Date(r.timestamp).toLocaleString()), h('td', {}, r.agentId),
          h('td', {}, h('span', { class: `badge ${r.status === 'ok' ? 'ok' : 'bad'}` }, r.status)),
          h('td', { class: 'num' }, `${fmt(r.durationMs)} ms`), h('td', {}, r.keysWritten.join(', ') || '—')))),
      )),
      h('h3', {}, `Audit trail of diffs (${diffs.length})`),
      h('ol', { class: 'diffs', id: 'store-diffs', reversed: true }, diffs.slice(0, 30).map((d) => h('li', {}, h('time', { datetime: d.timestamp }, new Date(d.timestamp).toLocaleTimeString()), ' ', h('code', {}, summarizeDiff(d))))),
      h('h3', {}, `Facts (${ctx.enrichment.facts.length})`),
      h('ul', { class: 'facts' }, [...ctx.enrichment.facts].reverse().slice(0, 10).map((f) => h('li', {}, f.content))),
    );
  }
}
