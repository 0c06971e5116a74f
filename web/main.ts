// The playground page: wires the SDK (in its worker), the page's own analysis worker and the
// four tabs. The main thread only reads files, sends messages and draws.
import { buildContext, isCtxgateError, type BuildContextInput, type BuildContextResult } from '../src/index.ts';
import { BUILTIN_MODELS, type ModelInfo } from '../src/tokens/models.ts';
import { isRefusal, renderRefusal, renderResult, scroller, type CountingLabel } from './app/build-view.ts';
import { $, fmt, fmtBytes, h, pathCode, replace } from './app/dom.ts';
import { checkSymbol, checkTarget, symbolNames, type Verdict, fromDataTransfer, fromDirectoryHandle, fromFileList, fromTexts, hasDirectoryPicker, loadProject, pickDirectory, type LoadedProject, type LoadProgress, type ProjectInput } from './app/project.ts';
import { SAMPLE_DEFAULTS, loadSampleProject } from './app/sample.ts';
import { setupScanner } from './app/scanner-tab.ts';
import { PlaygroundStore, type BuildRecord } from './app/store-tab.ts';
import { setupTabs } from './app/tabs.ts';
import { setupTokens } from './app/tokens-tab.ts';
import { AnalyzerClient, EngineKeeper, describeError, engineStopped, type EngineState } from './app/workers.ts';

const coreStatus = $('core-status');
const state: { project?: LoadedProject; targets: string[]; symbols: string[]; picks: { name: string; path: string }[]; activity: 'loading' | 'building' | null } = {
  targets: [],
  symbols: [],
  picks: [],
  activity: null,
};
const engines = new EngineKeeper(showEngine);
const analyzer = new AnalyzerClient();
// Target names are typed by people: a pasted token is redacted before the store keeps it, also
// as a configuration line reads it (`NAME=value` is a secret in a .env, not in code).
const store = new PlaygroundStore((text) =>
  engines.run(async (engine) => (await engine.redactSecrets((await engine.redactSecrets(text)).text, { path: '.env' })).text),
);
const buildBtn = $<HTMLButtonElement>('build');
const buildStatus = $('build-status');
/** Bumped by every load and build: a late message of an earlier one must not overwrite a newer status. */
let actions = 0;

// ---- Models and budget
const modelSelect = $<HTMLSelectElement>('model');
const maxInput = $<HTMLInputElement>('max-input');
const reserve = $<HTMLInputElement>('reserve');
const softPct = $<HTMLInputElement>('soft-pct');
const exactRadio = $<HTMLInputElement>('counting-exact');
const estimateRadio = $<HTMLInputElement>('counting-estimate');
const byProvider = new Map<string, ModelInfo[]>();
for (const m of BUILTIN_MODELS) (byProvider.get(m.provider) ?? byProvider.set(m.provider, []).get(m.provider)!).push(m);
for (const [provider, models] of byProvider) {
  modelSelect.append(h('optgroup', { label: provider }, models.map((m) => h('option', { value: m.id }, m.id))));
}
modelSelect.value = 'gpt-4o';
const model = (): ModelInfo => BUILTIN_MODELS.find((m) => m.id === modelSelect.value) ?? BUILTIN_MODELS[0]!;
const onModel = (): void => {
  const m = model();
  maxInput.value = String(m.maxInputTokens);
  reserve.value = String(m.responseReserve);
  const t = m.tokenizer;
  $('model-help').textContent =
    `${fmt(m.maxInputTokens)} input / ${fmt(m.maxOutputTokens)} output tokens. ` +
    (t.kind === 'exact'
      ? `Tokenizer ${t.encoding} (exact counts possible).`
      : `No public tokenizer: counts are ${t.encoding} estimates, and the budget given to the builder is divided by the ×${t.factor} safety factor of ctxgate's model registry.`);
  // An "exact" count of another model's encoding would be labelled exact and be wrong for this one.
  exactRadio.disabled = t.kind !== 'exact';
  if (exactRadio.disabled && exactRadio.checked) estimateRadio.checked = true;
  $('counting-help').textContent = t.kind === 'exact' ? `Exact counts use ${t.encoding} (js-tiktoken).` : `Exact is not available: ${m.id}'s tokenizer is not public.`;
};
modelSelect.addEventListener('change', onModel);
onModel();

// ---- Targets and symbols
/** A field that adds what is typed (a target file or a symbol) to a list shown as chips; its elements' ids start with `label`. */
interface ListField {
  label: 'target' | 'symbol';
  /** What the suggestions are, plural ("files", "symbols"). */
  what: string;
  values: string[];
  input: HTMLInputElement;
  suggest: HTMLElement;
  check(p: LoadedProject, typed: string): Verdict;
}
const listField = (label: ListField['label'], what: string, values: string[], check: ListField['check']): ListField =>
  ({ label, what, values, check, input: $<HTMLInputElement>(`${label}-input`), suggest: $(`${label}-suggest`) });
// The lists are state's own arrays, changed in place only.
const targetField = listField('target', 'files', state.targets, checkTarget);
const symbolField = listField('symbol', 'symbols', state.symbols, checkSymbol);

function chips(f: ListField): void {
  replace(
    $(`${f.label}-chips`),
    f.values.map((v, i) =>
      h('li', {}, h('code', {}, v), h('button', {
        type: 'button', class: 'chip-x', 'aria-label': `Remove ${f.label} ${v}`,
        onclick: () => {
          f.values.splice(i, 1);
          chips(f);
        },
      }, '×')),
    ),
  );
}
function clearMessage(f: ListField): void {
  f.input.removeAttribute('aria-invalid');
  replace(f.suggest);
}
function addValue(f: ListField, value: string): void {
  if (!f.values.includes(value)) f.values.push(value);
  f.input.value = '';
  clearMessage(f);
  chips(f);
}

/**
 * Adds what was typed if the loaded project has it (a file that can be sent, a symbol it
 * defines); otherwise marks the field invalid, says why under it and offers the closest items of
 * the project as buttons.
 */
function addTyped(f: ListField): void {
  const typed = f.input.value.trim();
  if (!typed) return;
  const verdict: Verdict = state.project
    ? f.check(state.project, typed)
    : { ok: false, message: `Load a project first: ${f.label}s are checked against it.`, suggestions: [] };
  if (verdict.ok) {
    addValue(f, verdict.value);
    return;
  }
  f.input.setAttribute('aria-invalid', 'true');
  replace(f.suggest,
    h('p', { class: 'help error' }, verdict.message),
    verdict.suggestions.length
      ? h('ul', { class: 'suggestions', 'aria-label': `Closest ${f.what} of the project` }, verdict.suggestions.map((s) =>
          h('li', {}, h('button', { type: 'button', class: 'small', 'aria-label': `Add ${f.label} ${s}`, onclick: () => {
            addValue(f, s);
            f.input.focus();
          } }, s))))
      : null);
  // The field keeps focus; the live status announces what the description now says.
  buildStatus.textContent = verdict.message;
}
for (const f of [targetField, symbolField]) {
  $(`${f.label}-add`).addEventListener('click', () => addTyped(f));
  f.input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      addTyped(f);
    }
  });
}

// ---- Loading a project
const progressBox = $('load-progress');
const progressBar = $<HTMLProgressElement>('load-bar');
const progressText = $('load-text');
const drop = $('dropzone');
const LOAD_CONTROLS = ['load-sample', 'pick-folder', 'pick-files', 'open-folder'];

/** Loading and building exclude each other: their controls are disabled rather than ignoring clicks. */
function setActivity(activity: typeof state.activity): void {
  state.activity = activity;
  for (const id of LOAD_CONTROLS) $<HTMLButtonElement | HTMLInputElement>(id).disabled = activity !== null;
  drop.setAttribute('aria-disabled', String(activity !== null));
  buildBtn.disabled = activity !== null || !canBuild(state.project);
}
const canBuild = (p: LoadedProject | undefined): boolean => Boolean(p?.index.files.some((f) => !f.excluded));

/**
 * A new project starts clean: the previous one's targets, intent and picks would not fit it. Its
 * result went when the load started, and showProject redraws the lists and the summary.
 */
function forgetProject(): void {
  state.targets.length = 0;
  state.symbols.length = 0;
  state.picks = [];
  $<HTMLTextAreaElement>('intent').value = '';
  chips(targetField);
  chips(symbolField);
  clearMessage(targetField);
  clearMessage(symbolField);
}

function progressLine(p: LoadProgress): string {
  switch (p.phase) {
    case 'reading':
      return p.total ? `Reading ${fmt(p.total)} files…` : p.done ? `Reading the folder: ${fmt(p.done)} files so far…` : 'Reading the folder…';
    case 'indexing':
      return `Reading and indexing: ${fmt(p.done)} of ${fmt(p.total)} files…`;
    case 'scanning':
      return `Analysing and scanning: ${fmt(p.done)} of ${fmt(p.total)} files…`;
    case 'linking':
      return `Linking imports of ${fmt(p.total)} files…`;
    case 'done':
      return `Indexed ${fmt(p.total)} files.`;
  }
}

async function load(input: ProjectInput): Promise<boolean> {
  if (state.activity) return false;
  // Read before the controls are disabled, which takes focus from the one that started the load.
  const from = document.activeElement;
  setActivity('loading');
  // The result is of the project being replaced: it goes now. The project, targets and intent
  // stay until the new project has loaded, so a load that fails loses none of them.
  replace(resultBody);
  resultBox.hidden = true;
  // A build's store write still running must not write its outcome into this load's status.
  actions++;
  buildStatus.textContent = 'Loading the project… Build is available once it is indexed.';
  progressBox.hidden = false;
  progressBar.value = 0;
  const onProgress = (p: LoadProgress): void => {
    // While the SDK reads, nothing is counted yet: an indeterminate bar rather than a stuck 0.
    if (p.phase === 'reading') progressBar.removeAttribute('value');
    else {
      progressBar.max = Math.max(p.total, 1);
      progressBar.value = p.done;
    }
    progressText.textContent = progressLine(p);
  };
  try {
    const loaded = await engines.run((engine) => loadProject(input, { engine, analyzer, onProgress }));
    // Only now: a load that fails keeps the project, targets and intent the person had.
    forgetProject();
    state.project = loaded;
    showProject(loaded);
    buildStatus.textContent = canBuild(state.project) ? '' : 'Nothing in this project can be sent, so there is nothing to build.';
    return true;
  } catch (error) {
    progressText.textContent = `Loading failed: ${describeError(error)}`;
    buildStatus.textContent = state.project ? `The previous project, ${state.project.name}, is still loaded.` : 'Load a project first.';
    return false;
  } finally {
    setActivity(null);
    if (from instanceof HTMLElement && from.isConnected && !document.activeElement?.closest('main')) from.focus();
  }
}

function showProject(p: LoadedProject): void {
  const files = p.index.files;
  const excluded = files.filter((f) => f.excluded);
  const withSecrets = [...p.findings.entries()];
  replace($('file-list'), files.filter((f) => !f.excluded).map((f) => h('option', { value: f.path })));
  replace($('symbol-list'), symbolNames(p).map((n) => h('option', { value: n })));
  const status = (f: (typeof files)[number]): string =>
    f.excluded === 'deny_rule' ? 'never sent (deny rule)' : f.excluded === 'binary' ? 'binary' : f.excluded ? f.excluded : 'can be sent';
  // The table is drawn when opened: thousands of rows are not worth a long task up front.
  const details = h('details', { id: 'files-details' }, h('summary', {}, `Files of the index (${fmt(files.length)})`));
  details.addEventListener('toggle', () => {
    if (!details.open || details.querySelector('table')) return;
    details.append(
      scroller('Files of the index', h('table', { id: 'files-table' },
        h('thead', {}, h('tr', {}, ['File', 'Size', 'Role', 'Encoding', 'Status', 'Secrets'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, files.slice(0, 2000).map((f) => {
          const s = p.findings.get(f.path);
          return h('tr', {},
            h('td', {}, pathCode(f.path)), h('td', { class: 'num' }, fmtBytes(f.byteSize)), h('td', {}, f.role ?? '—'), h('td', {}, f.encoding),
            h('td', {}, h('span', { class: `badge ${f.excluded ? 'bad' : 'ok'}` }, status(f))),
            h('td', {}, s ? `${s.high} high, ${s.medium} medium` : '—'));
        })),
      )),
      files.length > 2000 ? h('p', { class: 'help' }, `Showing 2,000 of ${fmt(files.length)} files.`) : '',
    );
  });
  const secrets = withSecrets.length
    ? [`secrets found in ${withSecrets.length} file(s)`,
        ` (${withSecrets.slice(0, 5).map(([f]) => f).join(', ')}${withSecrets.length > 5 ? ', …' : ''})`,
        ': they will be redacted or refused when sent.']
    : p.unscanned
      ? `no secrets found in the files scanned (${fmt(p.unscanned)} not scanned: over 1 MB or not text; the builder scans what it sends).`
      : 'no secrets found in the files that can be sent.';
  replace(
    $('project-summary'),
    files.length === 0
      ? h('p', { id: 'project-line' }, h('strong', {}, p.name), ': no files to index (its .gitignore files may leave out everything).')
      : h('p', { id: 'project-line' },
          h('strong', {}, p.name), `: ${fmt(files.length)} files, ${fmtBytes(files.reduce((n, f) => n + f.byteSize, 0))}, `,
          `${p.symbols.length} symbols and ${p.dependencies.length} import edges found by the page's toy indexer; `,
          `${excluded.length} never sent (deny rules, binary); `, secrets),
    p.leftOut ? h('p', { class: 'help' }, `${fmt(p.leftOut)} file(s) left out by the folder's .gitignore files or .git/, and not read.`) : null,
    p.notRead ? h('p', { class: 'help', id: 'not-read' }, `Not read: ${p.notRead}.`) : null,
    files.length ? details : null,
  );
}

$('load-sample').addEventListener('click', async () => {
  if (!(await load(fromTexts('Sample project (acme-orders)', loadSampleProject())))) return;
  $<HTMLTextAreaElement>('intent').value = SAMPLE_DEFAULTS.intent;
  state.targets.splice(0, state.targets.length, ...SAMPLE_DEFAULTS.targets);
  state.symbols.splice(0, state.symbols.length, ...SAMPLE_DEFAULTS.symbols);
  chips(targetField);
  chips(symbolField);
  await build();
});
for (const id of ['pick-folder', 'pick-files']) {
  $<HTMLInputElement>(id).addEventListener('change', async (e) => {
    const input = e.currentTarget as HTMLInputElement;
    if (!input.files?.length) return;
    const project = fromFileList(input.files);
    // So that picking the same folder again loads it again.
    input.value = '';
    await load(project);
  });
}
if (hasDirectoryPicker()) {
  const btn = $<HTMLButtonElement>('open-folder');
  btn.hidden = false;
  btn.addEventListener('click', async () => {
    try {
      await load(fromDirectoryHandle(await pickDirectory()));
    } catch (error) {
      if ((error as { name?: string }).name !== 'AbortError') progressText.textContent = describeError(error);
    }
  });
}
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  if (!state.activity) drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  if (!e.dataTransfer) return;
  if (state.activity) {
    buildStatus.textContent = `Still ${state.activity === 'loading' ? 'loading a project' : 'building'}: drop again when it is done.`;
    return;
  }
  // Text or a link dropped here holds no file: nothing to load, and the project stays.
  if (![...e.dataTransfer.items].some((i) => i.kind === 'file')) {
    buildStatus.textContent = 'Drop files or a folder to load them.';
    return;
  }
  void load(fromDataTransfer(e.dataTransfer));
});

// ---- Building
const resultBox = $('result');
const resultBody = $('result-body');

/** The builder's budget for the model: for one without a public tokenizer, divided by its safety factor. */
function budgetFor(m: ModelInfo): { maxInputTokens: number; responseTokenReserve: number; note?: string } {
  const max = Number(maxInput.value);
  const res = Number(reserve.value);
  const t = m.tokenizer;
  // Values the builder refuses (not whole numbers, a reserve above the input) are passed as typed,
  // so its error names the field.
  if (t.kind === 'exact' || !Number.isInteger(max) || !Number.isInteger(res) || max < 1 || res < 0 || res > max) {
    return { maxInputTokens: max, responseTokenReserve: res };
  }
  // The builder counts the encoding's estimates and has no factor of its own: given the model's
  // limits divided by the factor, what fits leaves the margin the model registry asks for. In
  // whole per-mille steps, as the registry applies the factor (4,600 / 1.15 is 4,000, not 4,001).
  const permille = Math.round(t.factor * 1000);
  const maxInputTokens = Math.max(1, Math.floor((max * 1000) / permille));
  const responseTokenReserve = Math.min(maxInputTokens, Math.ceil((res * 1000) / permille));
  return {
    maxInputTokens,
    responseTokenReserve,
    note: `${m.id} has no public tokenizer: token counts below are ${t.encoding} estimates, and the budget is ${fmt(maxInputTokens)} input and ${fmt(responseTokenReserve)} reserved tokens, the model's ${fmt(max)} and ${fmt(res)} divided by its ×${t.factor} safety factor.`,
  };
}

function buildInput(p: LoadedProject): { input: BuildContextInput; counting: CountingLabel; note?: string } {
  const m = model();
  const mode = exactRadio.checked && !exactRadio.disabled ? 'exact' : 'estimate';
  const intentText = $<HTMLTextAreaElement>('intent').value.trim();
  const purpose = $<HTMLSelectElement>('purpose').value as BuildContextInput['purpose'];
  const { note, ...budget } = budgetFor(m);
  const input: BuildContextInput = {
    purpose,
    intent: { id: 'playground-intent', text: intentText },
    planStep: { id: 'step-1', description: intentText, targetFiles: [...state.targets], targetSymbols: [...state.symbols] },
    projectIndex: p.index,
    constraints: { project: ['Do not add dependencies.'], user: ['Keep changes minimal and typed.'] },
    tokenBudget: { provider: m.provider, model: m.id, ...budget, maxOutputTokens: m.maxOutputTokens, softLimitThresholdPct: Number(softPct.value) },
    userSelectedTargets: state.picks.length ? { symbols: [...state.picks] } : null,
    secrets: {
      highConfidence: $<HTMLSelectElement>('secret-high').value as 'redact' | 'exclude',
      mediumConfidence: $<HTMLSelectElement>('secret-medium').value as 'redact' | 'refuse',
    },
    tokenizer: { mode, encoding: m.tokenizer.encoding },
  };
  const encoder = `${mode}:${m.tokenizer.encoding}${m.tokenizer.kind === 'estimated' ? `, budget ÷ ${m.tokenizer.factor}` : ''}`;
  return { input, counting: { exact: mode === 'exact', encoder }, ...(note ? { note } : {}) };
}

async function build(): Promise<void> {
  const p = state.project;
  if (!p) {
    buildStatus.textContent = 'Load a project first.';
    return;
  }
  if (state.activity) return;
  // Read before the button is disabled, which takes focus from it.
  const from = document.activeElement;
  setActivity('building');
  const mine = ++actions;
  buildStatus.textContent = 'Building in the worker…';
  const { input, counting, note } = buildInput(p);
  const noteEl = note ? h('p', { class: 'help', id: 'budget-note' }, note) : null;
  const targets = [...state.targets, ...state.symbols];
  const t0 = performance.now();
  let result: BuildContextResult | undefined;
  try {
    result = await engines.run((engine) => buildContext(input, { contents: p.contents, engine }));
    const ms = performance.now() - t0;
    replace(resultBody, noteEl, renderResult(result, counting));
    buildStatus.textContent = `Built in ${ms.toFixed(0)} ms.`;
    const fp = result.manifest.fingerprints;
    record(mine, {
      ok: true, bundleId: result.bundle.bundleId, blocks: result.bundle.blocks.length, tokens: result.budgetReport.estimatedInputTokens, decision: result.budgetReport.decision,
      fingerprints: { bundle: fp.bundleFingerprint, projectIndex: fp.projectIndexFingerprint, config: fp.configFingerprint },
      targets, model: input.tokenBudget.model, durationMs: ms,
    });
  } catch (error) {
    const ms = performance.now() - t0;
    const e = isCtxgateError(error)
      ? { code: error.code, message: error.message, details: (error.details ?? {}) as Record<string, unknown> }
      : { code: 'UNEXPECTED', message: String(error) };
    replace(resultBody, noteEl, renderRefusal(e, (choice) => {
      state.picks = [...state.picks.filter((x) => x.name !== choice.name), choice];
      void build();
    }));
    // A stopped engine refused nothing: it is not recorded as a refusal.
    if (engineStopped(error)) buildStatus.textContent = describeError(error);
    else {
      buildStatus.textContent = isRefusal(e.code) ? `Refused (${e.code}).` : `Failed (${e.code}).`;
      record(mine, { ok: false, code: e.code, targets, model: input.tokenBudget.model, durationMs: ms });
    }
  } finally {
    setActivity(null);
    resultBox.hidden = false;
    focusResult(from);
  }
}
$('build-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void build();
});

/**
 * Focus goes to the result, unless the build was started with Enter in a field of the form:
 * taking focus from there would lose the person's place; the live status says the outcome.
 */
function focusResult(from: Element | null): void {
  const field = from instanceof HTMLInputElement || from instanceof HTMLSelectElement || from instanceof HTMLTextAreaElement;
  if (field && from.isConnected && $('build-form').contains(from)) return;
  $('result-h').focus({ preventScroll: false });
}

/** Records a build in the store; a failure is told where the build was (the Store tab may be closed). */
function record(mine: number, build: BuildRecord): void {
  store.record(build).then(refreshStoreIfVisible, (error: unknown) => {
    if (mine === actions) buildStatus.textContent += ` Recording it in the store failed: ${describeError(error)}`;
  });
}

// ---- Store
const storeStatus = $('store-status');
/** Draws the store. A message already shown stays: it is cleared by the next store action only. */
const refreshStore = async (): Promise<void> => {
  try {
    await store.render();
  } catch (error) {
    storeStatus.textContent = `The store could not be read: ${describeError(error)}`;
  }
};
const refreshStoreIfVisible = (): void => {
  if (!$('panel-store').hidden) void refreshStore();
};
$('store-refresh').addEventListener('click', () => {
  storeStatus.textContent = '';
  void refreshStore();
});
$('store-reset').addEventListener('click', async () => {
  storeStatus.textContent = '';
  try {
    await store.reset();
    storeStatus.textContent = 'Deleted.';
  } catch (error) {
    storeStatus.textContent = `Deleting failed: ${describeError(error)}`;
  }
  await refreshStore();
});

setupTabs(document, (tabId) => {
  if (tabId === 'tab-store') void refreshStore();
});

// ---- Engine
function showEngine(s: EngineState): void {
  coreStatus.classList.toggle('error', s.state !== 'ready');
  if (s.state === 'ready') {
    coreStatus.textContent = `Ready: the ctxgate core runs in a ${s.engine.mode === 'worker' ? 'Web Worker' : 'this thread'}.${s.restarted ? ' This is a new engine: the previous one stopped.' : ''}`;
    coreStatus.dataset.ready = s.engine.mode;
    return;
  }
  delete coreStatus.dataset.ready;
  coreStatus.textContent =
    s.state === 'stopped'
      ? `The ctxgate engine stopped (${isCtxgateError(s.error) ? s.error.code : 'crashed'}). Starting a new one…`
      : `The core failed to load (${describeError(s.error)}). Try again, or reload the page.`;
}
setupScanner(engines);
setupTokens(engines);
engines.get().catch(() => undefined);
