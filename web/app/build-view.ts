// Draws a buildContext result (or refusal) for people: ordered blocks, the budget bar, what was
// left out and why, the redaction report, the fingerprints. Everything is text nodes: block
// content is shown as data, and redacted spans appear only as their placeholders.
import type { BudgetReport, BuildContextResult, ContextBlock, ExplainEntry } from '../../src/index.ts';
import { PLACEHOLDER, copyText, fmt, fmtBytes, h, withPlaceholders } from './dom.ts';

/** How the block token counts were made, for the label. */
export interface CountingLabel {
  exact: boolean;
  encoder: string;
}

const REASON_TEXT: Record<string, string> = {
  target: 'a target file of the step',
  target_symbol: 'defines a target symbol',
  dependency: 'imported by a target',
  interface: 'types used by a target',
  base_type: 'a base type of a target',
  caller: 'calls into a target',
  config: 'project configuration',
  user_selected: 'selected by you',
  deny_rule: 'never-send rule (paths that must not reach a model)',
  binary: 'binary or unknown encoding',
  too_large: 'larger than the per-file limit',
  token_budget: 'dropped to fit the token budget',
  outside_sandbox: 'outside the project root',
  secret_risk: 'secret risk: could not be sent safely',
  duplicate: 'duplicate of another candidate',
};

/** The budget as a bar: used tokens against the input window, soft and hard limits marked. */
export function budgetBar(report: BudgetReport): HTMLElement {
  const max = Math.max(report.maxInputTokens, 1);
  const pct = (n: number): string => `${Math.min(100, Math.max(0, (n / max) * 100)).toFixed(2)}%`;
  const over = report.estimatedInputTokens > report.hardLimitTokens;
  const warn = !over && report.estimatedInputTokens > report.softLimitTokens;
  const state = over ? 'over' : warn ? 'warn' : 'ok';
  const description =
    `${fmt(report.estimatedInputTokens)} of ${fmt(report.hardLimitTokens)} tokens used (hard limit = ${fmt(report.maxInputTokens)} input − ${fmt(report.reserveOutputTokens)} reserved for the response); ` +
    `soft limit ${fmt(report.softLimitTokens)}.`;
  return h(
    'figure',
    { class: `budget ${state}` },
    h(
      'div',
      { class: `bar ${state}`, role: 'img', 'aria-label': description },
      h('div', { class: 'fill', style: `width:${pct(report.estimatedInputTokens)}` }),
      h('div', { class: 'reserve', style: `left:${pct(report.hardLimitTokens)};width:${pct(report.maxInputTokens - report.hardLimitTokens)}`, title: 'Reserved for the response' }),
      h('div', { class: 'mark soft', style: `left:${pct(report.softLimitTokens)}`, title: `Soft limit ${fmt(report.softLimitTokens)}` }),
      h('div', { class: 'mark hard', style: `left:${pct(report.hardLimitTokens)}`, title: `Hard limit ${fmt(report.hardLimitTokens)}` }),
    ),
    h(
      'figcaption',
      {},
      h('span', { class: 'legend used' }, `Used ${fmt(report.estimatedInputTokens)}`),
      h('span', { class: 'legend soft' }, `Soft ${fmt(report.softLimitTokens)}`),
      h('span', { class: 'legend hard' }, `Hard ${fmt(report.hardLimitTokens)}`),
      h('span', { class: 'legend reserve' }, `Reserve ${fmt(report.reserveOutputTokens)}`),
      h('span', { class: 'legend' }, `Window ${fmt(report.maxInputTokens)}`),
    ),
  );
}

const DECISION_TEXT: Record<string, [string, string]> = {
  ok: ['Within budget', 'ok'],
  warn_soft_limit: ['Over the soft limit (allowed, with a warning)', 'warn'],
  refuse_hard_limit: ['Refused: over the hard limit', 'bad'],
};

function badge(text: string, kind: string): HTMLElement {
  return h('span', { class: `badge ${kind}` }, text);
}

/** Wraps a wide table so it scrolls on its own on narrow screens (and by keyboard). */
export function scroller(label: string, table: HTMLElement): HTMLElement {
  return h('div', { class: 'scroll', role: 'region', 'aria-label': label, tabindex: 0 }, table);
}

function fingerprints(result: BuildContextResult): HTMLElement {
  const fp = result.manifest.fingerprints;
  const rows: [string, string, string][] = [
    ['Bundle', fp.bundleFingerprint, 'Changes whenever anything the model would see changes.'],
    ['Project index', fp.projectIndexFingerprint, 'The files, hashes and graph that were indexed.'],
    ['Configuration', fp.configFingerprint, 'Budget, rules and options of this build.'],
  ];
  const all = rows.map(([n, v]) => `${n.toLowerCase().replace(' ', '_')}_fingerprint: ${v}`).join('\n');
  return h(
    'section',
    { 'aria-labelledby': 'fp-h' },
    h('h3', { id: 'fp-h' }, 'Fingerprints'),
    h(
      'dl',
      { class: 'fps' },
      rows.map(([name, value, help], i) => [
        h('dt', {}, name, h('span', { class: 'help' }, ` — ${help}`)),
        h(
          'dd',
          {},
          h('code', { id: `fp-${i}`, class: 'hash', 'data-fingerprint': name.toLowerCase().replace(' ', '-') }, value),
          h('button', { type: 'button', class: 'small', 'aria-label': `Copy the ${name.toLowerCase()} fingerprint`, onclick: copier(value) }, 'Copy'),
        ),
      ]),
    ),
    h('button', { type: 'button', class: 'small', onclick: copier(all) }, 'Copy all three'),
  );
}

function copier(value: string): EventListener {
  return (e) => {
    const btn = e.currentTarget as HTMLButtonElement;
    void copyText(value).then((ok) => {
      const before = btn.textContent;
      btn.textContent = ok ? 'Copied' : 'Copy failed';
      setTimeout(() => (btn.textContent = before), 1500);
    });
  };
}

function blockRow(block: ContextBlock, i: number, counting: CountingLabel, explain: Map<string, ExplainEntry>): HTMLElement {
  const placeholders = block.content.match(PLACEHOLDER)?.length ?? 0;
  const e = block.meta.path ? explain.get(block.meta.path) : undefined;
  const shown = block.content.length > 40_000 ? block.content.slice(0, 40_000) : block.content;
  const cut = shown.length < block.content.length;
  return h(
    'li',
    { class: 'block', id: `block-${i}` },
    h(
      'details',
      { open: placeholders > 0 ? true : undefined },
      h(
        'summary',
        {},
        h('span', { class: `tier ${block.priority}`, title: 'Priority tier (P0 is always kept)' }, block.priority),
        h('span', { class: 'btype' }, block.blockType),
        h('span', { class: 'btitle' }, block.meta.path ?? block.title),
        h('span', { class: 'bmeta' },
          h('span', { class: `tokens ${counting.exact ? 'exact' : 'est'}`, title: counting.encoder }, `${fmt(block.meta.tokens)} tok · ${counting.exact ? 'exact' : 'estimated'}`),
          block.meta.slicing ? h('span', { class: `slicing ${block.meta.slicing === 'FULL_FILE' ? '' : 'sliced'}` }, block.meta.slicing) : null,
          placeholders ? h('span', { class: 'badge warn' }, `${placeholders} redacted`) : null,
        ),
      ),
      h('p', { class: 'help' },
        e ? `Why: ${REASON_TEXT[e.reason] ?? e.reason}${e.score !== null ? ` · score ${e.score}` : ''}${e.hops ? ` · ${e.hops} hop(s)` : ''}. ` : '',
        block.meta.path ? `${fmtBytes(block.meta.byteSize)}, ${fmt(block.meta.lineCount)} lines, ${block.meta.encoding}.` : `Source: ${block.meta.source}.`,
      ),
      h('pre', { class: 'code', tabindex: 0, 'aria-label': `Content of ${block.meta.path ?? block.title}` }, withPlaceholders(shown, `ph-${i}`)),
      cut ? h('p', { class: 'help' }, `Showing the first 40,000 of ${fmt(block.content.length)} characters.`) : null,
    ),
  );
}

/** Renders a successful build. */
export function renderResult(result: BuildContextResult, counting: CountingLabel): HTMLElement {
  const b = result.budgetReport;
  const [dText, dKind] = DECISION_TEXT[b.decision] ?? [b.decision, 'warn'];
  const explain = new Map(result.explain.map((e) => [e.path, e]));
  const left = result.explain.filter((e) => e.outcome === 'excluded' || e.outcome === 'dropped');
  const blocks = result.bundle.blocks;
  const redactions = result.redactionReport.redactions;

  return h(
    'div',
    { class: 'result', 'data-bundle-id': result.bundle.bundleId },
    h('p', { class: 'summary-line' },
      badge(dText, dKind), ' ',
      `${blocks.length} blocks, ${fmt(b.estimatedInputTokens)} tokens (${counting.exact ? 'exact' : 'estimated'}), ${result.manifest.selection.includedFiles.length} files included, ${left.length} left out, ${redactions.length} redaction-report entries.`,
    ),
    h('section', { 'aria-labelledby': 'budget-h' }, h('h3', { id: 'budget-h' }, 'Budget'), budgetBar(b),
      b.notes.length ? h('ul', { class: 'notes' }, b.notes.map((n) => h('li', {}, n))) : null),
    fingerprints(result),
    h('section', { 'aria-labelledby': 'blocks-h' },
      h('h3', { id: 'blocks-h' }, `Blocks, in the order the model sees them (${blocks.length})`),
      h('p', { class: 'help' }, 'Sorted by priority tier, then block type, then path. Open a block to read exactly what is sent; secrets appear only as highlighted placeholders.'),
      h('ol', { class: 'blocks' }, blocks.map((blk, i) => blockRow(blk, i, counting, explain))),
    ),
    h('section', { 'aria-labelledby': 'left-h' },
      h('h3', { id: 'left-h' }, `Left out (${left.length})`),
      left.length === 0
        ? h('p', {}, 'Every candidate was included.')
        : scroller('Excluded and dropped candidates', h('table', {},
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'File'), h('th', { scope: 'col' }, 'Outcome'), h('th', { scope: 'col' }, 'Why'), h('th', { scope: 'col' }, 'Size'))),
            h('tbody', {}, left.map((e) => h('tr', { class: e.outcome },
              h('td', {}, h('code', {}, e.path)),
              h('td', {}, badge(e.outcome, e.outcome === 'dropped' ? 'warn' : 'bad')),
              h('td', {}, REASON_TEXT[e.reason] ?? e.reason, e.detail ? h('span', { class: 'help' }, ` — ${e.detail}`) : null),
              h('td', { class: 'num' }, fmtBytes(e.byteSize))))),
          )),
    ),
    h('section', { 'aria-labelledby': 'red-h' },
      h('h3', { id: 'red-h' }, `Redaction report (${redactions.length})`),
      redactions.length === 0
        ? h('p', {}, 'Nothing was excluded, redacted or sliced.')
        : scroller('Redaction report', h('table', {},
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Action'), h('th', { scope: 'col' }, 'Target'), h('th', { scope: 'col' }, 'Reason'), h('th', { scope: 'col' }, 'Details'))),
            h('tbody', {}, redactions.map((r) => {
              const at = blocks.findIndex((blk) => blk.meta.path === r.target);
              return h('tr', { class: r.type },
                h('td', {}, badge(r.type.replace('_', ' '), r.type === 'pattern_redacted' ? 'warn' : r.type === 'content_sliced' ? 'info' : 'bad')),
                h('td', {}, at >= 0 ? h('a', { href: `#block-${at}`, onclick: openBlock(at) }, r.target) : h('code', {}, r.target)),
                h('td', {}, r.reason),
                h('td', {}, withPlaceholders(r.details)));
            })),
          )),
    ),
    h('details', { class: 'explain' },
      h('summary', {}, `Every candidate and its score (${result.explain.length})`),
      scroller('All candidates', h('table', {},
        h('thead', {}, h('tr', {}, ['File', 'Outcome', 'Reason', 'Tier', 'Score', 'Hops', 'Tokens', 'Slicing'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, result.explain.map((e) => h('tr', {},
          h('td', {}, h('code', {}, e.path)), h('td', {}, e.outcome), h('td', {}, e.reason), h('td', {}, e.priority ?? '—'),
          h('td', { class: 'num' }, e.score ?? '—'), h('td', { class: 'num' }, e.hops), h('td', { class: 'num' }, e.tokens === null ? '—' : fmt(e.tokens)), h('td', {}, e.slicing ?? '—'))))),
      )),
  );
}

function openBlock(i: number): EventListener {
  return (e) => {
    e.preventDefault();
    const li = document.getElementById(`block-${i}`);
    const details = li?.querySelector('details');
    if (details) details.open = true;
    const mark = li?.querySelector<HTMLElement>('mark.redacted');
    (mark ?? li)?.scrollIntoView({ block: 'center' });
    li?.querySelector<HTMLElement>('pre')?.focus();
  };
}

/** What to tell a person for each refusal. */
const REFUSAL_HELP: Record<string, { title: string; narrow: string[] }> = {
  CONTEXT_TOO_LARGE: {
    title: 'Refused: the required context does not fit the budget',
    narrow: ['Target one file instead of several.', 'Name a target symbol so only its lines are sent.', 'Raise the input budget or pick a model with a larger window.', 'Lower the response reserve if the answer will be short.'],
  },
  SECRET_RISK: {
    title: 'Refused: a secret could not be removed safely',
    narrow: ['Move the secret out of the file (into an environment variable or .env).', 'Or allow redaction of medium-confidence findings, if you accept the risk.', 'Or add a deny rule for the file.'],
  },
  AMBIGUOUS_TARGET: { title: 'Refused: the target symbol is defined in more than one place', narrow: ['Choose the definition you mean below.'] },
  INVALID_PARAMS: { title: 'The request is not valid', narrow: ['Fix the field named below and build again.'] },
  OUTSIDE_SANDBOX: { title: 'Refused: a path is outside the project', narrow: ['Name a path inside the project.'] },
  UNSUPPORTED_ENCODING: { title: 'Refused: a target is not text', narrow: ['Target a UTF-8 text file.'] },
  READ_FAILED: { title: 'Refused: a file could not be read', narrow: ['Reload the project and try again.'] },
};

/** A refusal or error, shown as what happened and what to narrow. */
export function renderRefusal(
  error: { code: string; message: string; details?: Record<string, unknown> },
  onPick: (choice: { name: string; path: string }) => void,
): HTMLElement {
  const help = REFUSAL_HELP[error.code] ?? { title: `Refused (${error.code})`, narrow: [] };
  const d = error.details ?? {};
  const report = d.budgetReport as BudgetReport | undefined;
  const largest = d.largestBlocks as { title: string; priority: string; tokens: number; slicing: string | null }[] | undefined;
  const candidates = d.candidates as { name: string; path: string; startLine: number; kind: string | null }[] | undefined;
  return h(
    'div',
    { class: 'refusal', role: 'alert', 'data-code': error.code },
    h('h3', {}, help.title),
    h('p', {}, error.message),
    help.narrow.length ? h('div', {}, h('p', { class: 'strong' }, 'What to do:'), h('ul', {}, help.narrow.map((n) => h('li', {}, n)))) : null,
    report ? h('div', {}, budgetBar(report), h('ul', { class: 'notes' }, report.notes.map((n) => h('li', {}, n)))) : null,
    largest?.length
      ? h('div', {}, h('p', { class: 'strong' }, 'Largest blocks that had to be sent:'),
          h('ul', {}, largest.map((l) => h('li', {}, `${l.priority} ${l.title}: ${fmt(l.tokens)} tokens${l.slicing ? ` (${l.slicing})` : ''}`))))
      : null,
    candidates?.length
      ? h('ul', { class: 'choices' }, candidates.map((c) => h('li', {},
          h('button', { type: 'button', onclick: () => onPick({ name: c.name, path: c.path }) }, `${c.name} in ${c.path}, line ${c.startLine}${c.kind ? ` (${c.kind})` : ''}`))))
      : null,
    error.code === 'INVALID_PARAMS' && typeof d.field === 'string' ? h('p', {}, 'Field: ', h('code', {}, d.field)) : null,
  );
}
