// Draws a buildContext result (or refusal) for people: ordered blocks, the budget bar, what was
// left out and why, the redaction report, the fingerprints. Everything is text nodes: block
// content is shown as data, and redacted spans appear only as their placeholders.
import type { BudgetReport, BuildContextResult, ContextBlock, ExplainEntry, SecretFinding } from '../../src/index.ts';
import { PLACEHOLDER, copyText, fmt, fmtBytes, h, pathCode, withPlaceholders } from './dom.ts';

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

/** The redaction report's reasons (spec 001's codes) as a person reads them; the code is shown under them. */
const REDACTION_REASON_TEXT: Record<string, string> = {
  secret: 'a secret in the text',
  deny_rule: 'never-send rule',
  budget: 'to fit the token budget',
  binary: 'binary or unknown encoding',
  // The builder's catch-all: a file over the size limit, a duplicate, the secret policy's choice.
  policy: "the build's limits or settings",
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
              h('td', {}, pathCode(e.path)),
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
                h('td', {}, at >= 0 ? h('a', { href: `#block-${at}`, onclick: openBlock(at) }, r.target) : pathCode(r.target)),
                h('td', {}, REDACTION_REASON_TEXT[r.reason] ?? r.reason, h('span', { class: 'help' }, h('br'), h('code', { class: 'nb' }, r.reason))),
                h('td', {}, withPlaceholders(r.details)));
            })),
          )),
    ),
    h('details', { class: 'explain' },
      h('summary', {}, `Every candidate and its score (${result.explain.length})`),
      scroller('All candidates', h('table', {},
        h('thead', {}, h('tr', {}, ['File', 'Outcome', 'Reason', 'Tier', 'Score', 'Hops', 'Tokens', 'Slicing'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, result.explain.map((e) => h('tr', {},
          h('td', {}, pathCode(e.path)), h('td', {}, e.outcome), h('td', {}, REASON_TEXT[e.reason] ?? e.reason), h('td', {}, e.priority ?? '—'),
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

/** A crashed and a closed engine call for the same advice. */
const ENGINE_STOPPED = { title: 'The engine stopped', narrow: ['Build again: the page starts a new engine.', 'If it stops again, reload the page.'] };

/** What to tell a person for each refusal (SECRET_RISK and INVALID_PARAMS are worked out from their details). */
const REFUSAL_HELP: Record<string, { title: string; narrow: string[] }> = {
  CONTEXT_TOO_LARGE: {
    title: 'Refused: the required context does not fit the budget',
    narrow: ['Target one file instead of several.', 'Name a target symbol so only its lines are sent.', 'Raise the input budget or pick a model with a larger window.', 'Lower the response reserve if the answer will be short.'],
  },
  AMBIGUOUS_TARGET: { title: 'Refused: the target symbol is defined in more than one place', narrow: ['Choose the definition you mean below.'] },
  OUTSIDE_SANDBOX: { title: 'Refused: a path is outside the project', narrow: ['Name a path inside the project.'] },
  UNSUPPORTED_ENCODING: { title: 'Refused: a target is not text', narrow: ['Target a UTF-8 text file.'] },
  READ_FAILED: { title: 'Refused: a file could not be read', narrow: ['Load the project again (its files may have changed on disk), then build.'] },
  WORKER_CRASHED: ENGINE_STOPPED,
  WORKER_CLOSED: ENGINE_STOPPED,
};

/** Codes that are the builder declining a request (what the page calls a refusal); others are failures. */
const REFUSALS = new Set(['CONTEXT_TOO_LARGE', 'SECRET_RISK', 'AMBIGUOUS_TARGET', 'OUTSIDE_SANDBOX', 'UNSUPPORTED_ENCODING', 'INVALID_PARAMS', 'READ_FAILED']);

/** Whether an error code is a refusal of the request rather than a failure of the page or engine. */
export function isRefusal(code: string): boolean {
  return REFUSALS.has(code);
}

/** The page's control for each field of the request the SDK may name (longest prefix first). */
const FIELD_CONTROLS: [field: string, control: { id: string; label: string }][] = [
  ['tokenBudget.maxInputTokens', { id: 'max-input', label: 'Input budget' }],
  ['tokenBudget.responseTokenReserve', { id: 'reserve', label: 'Reserved for the response' }],
  ['tokenBudget.softLimitThresholdPct', { id: 'soft-pct', label: 'Soft limit' }],
  ['tokenBudget', { id: 'model', label: 'Model' }],
  ['planStep.targetSymbols', { id: 'symbol-input', label: 'Target symbols' }],
  ['userSelectedTargets', { id: 'symbol-input', label: 'Target symbols' }],
  ['planStep', { id: 'target-input', label: 'Target files' }],
  ['intent', { id: 'intent', label: 'Intent' }],
  ['secrets.highConfidence', { id: 'secret-high', label: 'High confidence' }],
  ['secrets', { id: 'secret-medium', label: 'Medium confidence' }],
];

/** The form control (its element id and label) for a request field an INVALID_PARAMS error names, if the page has one. */
export function fieldControl(field: unknown): { id: string; label: string } | undefined {
  if (typeof field !== 'string') return undefined;
  return FIELD_CONTROLS.find(([f]) => field === f || field.startsWith(`${f}.`) || field.startsWith(`${f}[`))?.[1];
}

/** A finding as a SecretRisk refusal's details list it (never its value). */
type SecretFindingRef = Pick<SecretFinding, 'ruleId' | 'line' | 'column' | 'confidence'>;

/**
 * The advice for a SECRET_RISK refusal, from what it says: a target on the never-send list
 * (`rule`), findings the policy would not redact (each with its confidence), or a text whose
 * redaction could not be proven (`target` only). Names rules and places, never values.
 */
function secretRiskHelp(d: Record<string, unknown>): { title: string; narrow: string[] } {
  const where = typeof d.path === 'string' ? d.path : typeof d.target === 'string' ? d.target : 'the text';
  if (typeof d.rule === 'string') {
    return {
      title: `Refused: ${where} is never sent`,
      narrow: [
        `${where} matches the never-send rule ${d.rule}: files like it hold credentials, so its contents stay out of every bundle.`,
        'Target the code that reads it instead.',
        'If it holds no secrets, an application can re-include it with an allow rule (the sandbox option of indexProject and buildContext); this page keeps the defaults.',
      ],
    };
  }
  const findings = Array.isArray(d.findings) ? (d.findings as SecretFindingRef[]) : [];
  // The first five findings by rule and place, for either kind of text below.
  const list = findings.slice(0, 5).map((f) => `${f.ruleId} at line ${f.line}, column ${f.column}`).join('; ');
  const more = findings.length > 5 ? ` and ${findings.length - 5} more` : '';
  // The builder says whether the text was the request's own or a file's.
  const requestText = d.source === 'request';
  if (findings.length && requestText) {
    // Not a file's: text the request gave (the task from the intent, a constraint, a target's name).
    return {
      title: 'Refused: the request holds a secret the policy does not redact',
      narrow: [
        `Found in ${where}: ${list}${more}.`,
        'Remove it from what you typed (the intent, or a target or symbol name) and build again.',
        'Or set "Medium confidence" to "redact the span": it is then sent as a placeholder.',
      ],
    };
  }
  if (findings.length) {
    const high = findings.some((f) => f.confidence === 'high');
    return {
      title: `Refused: ${where} holds ${findings.length === 1 ? 'a secret' : 'secrets'} the policy does not redact`,
      narrow: [
        `Found: ${list}${more}.`,
        `Move ${findings.length === 1 ? 'it' : 'them'} out of the file (into an environment variable or a secrets manager) and load the project again.`,
        high
          ? 'Or set "High confidence" to "redact the span": the file is then sent with placeholders where the secrets were.'
          : 'Or set "Medium confidence" to "redact the span", if you accept that a medium-confidence finding may be an ordinary value.',
      ],
    };
  }
  return {
    title: 'Refused: a secret could not be removed safely',
    narrow: [`Remove the secret from ${where} (the intent or a target's name, if you typed one there) and build again.`],
  };
}

/** The advice for INVALID_PARAMS: a target the index left out, or the form control to correct. */
function invalidParamsHelp(error: { message: string; details?: Record<string, unknown> }): { title: string; narrow: string[] } {
  const d = error.details ?? {};
  // The builder names a target the indexer excluded, with the reason at the end of its message.
  const excluded = /was excluded by the indexer \(([^)]+)\)\s*$/.exec(error.message);
  if (d.field === 'planStep.targetFiles' && typeof d.path === 'string' && excluded) {
    return {
      title: 'Refused: a target was left out of the project',
      narrow: [`${d.path} was left out when the project was indexed (${excluded[1]}): binary files, files too large and ignored files cannot be targets.`, 'Target a text file of the project.'],
    };
  }
  const control = fieldControl(d.field);
  return { title: 'The request is not valid', narrow: [control ? `Correct "${control.label}" and build again.` : 'Correct the request and build again.'] };
}

/** A refusal or error, shown as what happened and what to narrow. */
export function renderRefusal(
  error: { code: string; message: string; details?: Record<string, unknown> },
  onPick: (choice: { name: string; path: string }) => void,
): HTMLElement {
  const d = error.details ?? {};
  const help =
    error.code === 'SECRET_RISK'
      ? secretRiskHelp(d)
      : error.code === 'INVALID_PARAMS'
        ? invalidParamsHelp(error)
        : (REFUSAL_HELP[error.code] ?? { title: `${isRefusal(error.code) ? 'Refused' : 'Failed'} (${error.code})`, narrow: [] });
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
    error.code === 'INVALID_PARAMS' && typeof d.field === 'string' && !fieldControl(d.field) ? h('p', {}, 'Field: ', h('code', {}, d.field)) : null,
  );
}
