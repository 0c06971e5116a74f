// The playground page: wires the SDK (in its worker), the page's own analysis worker and the
// four tabs. The main thread only reads files, sends messages and draws.
import { wrap } from 'comlink';
import { buildContext, createCtxgate, isCtxgateError, type BuildContextInput, type BuildContextResult, type Engine } from '../src/index.ts';
import { BUILTIN_MODELS, type ModelInfo } from '../src/tokens/models.ts';
import type { AnalyzeApi } from './app/analyze.worker.ts';
import { renderRefusal, renderResult, scroller } from './app/build-view.ts';
import { $, fmt, fmtBytes, h, replace } from './app/dom.ts';
import { fromDataTransfer, fromDirectoryHandle, fromFileList, fromTexts, hasDirectoryPicker, loadProject, pickDirectory, type LoadedProject, type SourceFile } from './app/project.ts';
import { SAMPLE_DEFAULTS, loadSampleProject } from './app/sample.ts';
import { setupScanner } from './app/scanner-tab.ts';
import { PlaygroundStore } from './app/store-tab.ts';
import { setupTabs } from './app/tabs.ts';
import { setupTokens } from './app/tokens-tab.ts';

const coreStatus = $('core-status');
const state: { engine?: Engine; project?: LoadedProject; targets: string[]; symbols: string[]; picks: { name: string; path: string }[]; busy: boolean } = {
  targets: [],
  symbols: [],
  picks: [],
  busy: false,
};
const store = new PlaygroundStore();
const analyzer = wrap<AnalyzeApi>(new Worker(new URL('./app/analyze.worker.ts', import.meta.url), { type: 'module', name: 'playground-analyze' }));

// ---- Models and budget
const modelSelect = $<HTMLSelectElement>('model');
const maxInput = $<HTMLInputElement>('max-input');
const reserve = $<HTMLInputElement>('reserve');
const softPct = $<HTMLInputElement>('soft-pct');
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
  $('model-help').textContent =
    `${fmt(m.maxInputTokens)} input / ${fmt(m.maxOutputTokens)} output tokens. ` +
    (m.tokenizer.kind === 'exact' ? `Tokenizer ${m.tokenizer.encoding} (exact counts possible).` : `No public tokenizer: counts are ${m.tokenizer.encoding} estimates (×${m.tokenizer.factor} safety factor in ctxgate's model registry).`);
};
modelSelect.addEventListener('change', onModel);
onModel();

// ---- Target chips
function chips(listId: string, values: string[], label: string): void {
  replace(
    $(listId),
    values.map((v, i) =>
      h('li', {}, h('code', {}, v), h('button', {
        type: 'button', class: 'chip-x', 'aria-label': `Remove ${label} ${v}`,
        onclick: () => {
          values.splice(i, 1);
          chips(listId, values, label);
        },
      }, '×')),
    ),
  );
}
function addFrom(inputId: string, values: string[], listId: string, label: string): void {
  const input = $<HTMLInputElement>(inputId);
  const v = input.value.trim();
  if (v && !values.includes(v)) values.push(v);
  input.value = '';
  chips(listId, values, label);
}
$('target-add').addEventListener('click', () => addFrom('target-input', state.targets, 'target-chips', 'target'));
$('symbol-add').addEventListener('click', () => addFrom('symbol-input', state.symbols, 'symbol-chips', 'symbol'));
for (const [inputId, values, listId, label] of [['target-input', state.targets, 'target-chips', 'target'], ['symbol-input', state.symbols, 'symbol-chips', 'symbol']] as const) {
  $(inputId).addEventListener('keydown', (e) => {
    if ((e as KeyboardEvent).key === 'Enter') {
      e.preventDefault();
      addFrom(inputId, values, listId, label);
    }
  });
}

// ---- Loading a project
const progressBox = $('load-progress');
const progressBar = $<HTMLProgressElement>('load-bar');
const progressText = $('load-text');

async function load(name: string, files: SourceFile[], skipped: string[]): Promise<boolean> {
  if (!state.engine || state.busy) return false;
  state.busy = true;
  progressBox.hidden = false;
  try {
    state.project = await loadProject(name, files, skipped, {
      engine: state.engine,
      analyzer,
      onProgress: (p) => {
        progressBar.max = Math.max(p.total, 1);
        progressBar.value = p.done;
        progressText.textContent =
          p.phase === 'done' ? `Indexed ${fmt(p.total)} files.` : p.phase === 'linking' ? `Linking imports of ${fmt(p.total)} files…` : `Indexing and scanning: ${fmt(p.done)} of ${fmt(p.total)} files…`;
      },
    });
    state.picks = [];
    showProject(state.project);
    $<HTMLButtonElement>('build').disabled = false;
    return true;
  } catch (error) {
    progressText.textContent = `Loading failed: ${isCtxgateError(error) ? error.message : String(error)}`;
    return false;
  } finally {
    state.busy = false;
  }
}

function showProject(p: LoadedProject): void {
  const files = p.index.files;
  const excluded = files.filter((f) => f.excluded);
  const withSecrets = [...p.findings.entries()];
  replace($('file-list'), files.filter((f) => !f.excluded).map((f) => h('option', { value: f.path })));
  replace($('symbol-list'), [...new Set(p.symbols.map((s) => s.name))].sort().map((n) => h('option', { value: n })));
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
            h('td', {}, h('code', {}, f.path)), h('td', { class: 'num' }, fmtBytes(f.byteSize)), h('td', {}, f.role ?? '—'), h('td', {}, f.encoding),
            h('td', {}, h('span', { class: `badge ${f.excluded ? 'bad' : 'ok'}` }, status(f))),
            h('td', {}, s ? `${s.high} high, ${s.medium} medium` : '—'));
        })),
      )),
      files.length > 2000 ? h('p', { class: 'help' }, `Showing 2,000 of ${fmt(files.length)} files.`) : '',
    );
  });
  replace(
    $('project-summary'),
    h('p', { id: 'project-line' },
      h('strong', {}, p.name), `: ${fmt(files.length)} files, ${fmtBytes(files.reduce((n, f) => n + f.byteSize, 0))}, `,
      `${p.symbols.length} symbols and ${p.dependencies.length} import edges found by the page's toy indexer; `,
      `${excluded.length} never sent (deny rules, binary); secrets found in ${withSecrets.length} file(s)`,
      withSecrets.length ? ` (${withSecrets.slice(0, 5).map(([f]) => f).join(', ')}${withSecrets.length > 5 ? ', …' : ''})` : '',
      ': they will be redacted or refused when sent.'),
    p.skipped.length ? h('p', { class: 'help' }, `Not read: ${p.skipped.join(', ')}.`) : null,
    details,
  );
}

$('load-sample').addEventListener('click', async () => {
  if (!(await load('Sample project (acme-orders)', fromTexts(loadSampleProject()), []))) return;
  $<HTMLTextAreaElement>('intent').value = SAMPLE_DEFAULTS.intent;
  state.targets.splice(0, state.targets.length, ...SAMPLE_DEFAULTS.targets);
  state.symbols.splice(0, state.symbols.length, ...SAMPLE_DEFAULTS.symbols);
  chips('target-chips', state.targets, 'target');
  chips('symbol-chips', state.symbols, 'symbol');
  await build();
});
for (const id of ['pick-folder', 'pick-files']) {
  $<HTMLInputElement>(id).addEventListener('change', async (e) => {
    const input = e.currentTarget as HTMLInputElement;
    if (!input.files?.length) return;
    const { files, skipped } = fromFileList(input.files);
    const first = input.files[0]!.webkitRelativePath.split('/')[0];
    await load(first || `${files.length} file(s)`, files, skipped);
    input.value = '';
  });
}
if (hasDirectoryPicker()) {
  const btn = $<HTMLButtonElement>('open-folder');
  btn.hidden = false;
  btn.addEventListener('click', async () => {
    try {
      const dir = await pickDirectory();
      const { files, skipped } = await fromDirectoryHandle(dir);
      await load(dir.name, files, skipped);
    } catch (error) {
      if ((error as { name?: string }).name !== 'AbortError') progressText.textContent = String(error);
    }
  });
}
const drop = $('dropzone');
drop.addEventListener('dragover', (e) => {
  e.preventDefault();
  drop.classList.add('over');
});
drop.addEventListener('dragleave', () => drop.classList.remove('over'));
drop.addEventListener('drop', async (e) => {
  e.preventDefault();
  drop.classList.remove('over');
  if (!e.dataTransfer) return;
  const { files, skipped, name } = await fromDataTransfer(e.dataTransfer);
  await load(name, files, skipped);
});

// ---- Building
const buildStatus = $('build-status');
const resultBox = $('result');
const resultBody = $('result-body');

function buildInput(p: LoadedProject): BuildContextInput {
  const m = model();
  const counting = (document.querySelector<HTMLInputElement>('input[name=counting]:checked')?.value ?? 'estimate') as 'estimate' | 'exact';
  const intentText = $<HTMLTextAreaElement>('intent').value.trim();
  const purpose = $<HTMLSelectElement>('purpose').value as BuildContextInput['purpose'];
  return {
    purpose,
    intent: { id: 'playground-intent', text: intentText },
    planStep: { id: 'step-1', description: intentText, targetFiles: [...state.targets], targetSymbols: [...state.symbols] },
    projectIndex: p.index,
    constraints: { project: ['Do not add dependencies.'], user: ['Keep changes minimal and typed.'] },
    tokenBudget: {
      provider: m.provider,
      model: m.id,
      maxInputTokens: Number(maxInput.value),
      maxOutputTokens: m.maxOutputTokens,
      responseTokenReserve: Number(reserve.value),
      softLimitThresholdPct: Number(softPct.value),
    },
    userSelectedTargets: state.picks.length ? { symbols: [...state.picks] } : null,
    secrets: {
      highConfidence: $<HTMLSelectElement>('secret-high').value as 'redact' | 'exclude',
      mediumConfidence: $<HTMLSelectElement>('secret-medium').value as 'redact' | 'refuse',
    },
    tokenizer: { mode: counting, encoding: m.tokenizer.encoding },
  };
}

async function build(): Promise<void> {
  const p = state.project;
  if (!state.engine || !p) {
    buildStatus.textContent = 'Load a project first.';
    return;
  }
  if (state.busy) return;
  state.busy = true;
  const btn = $<HTMLButtonElement>('build');
  btn.disabled = true;
  buildStatus.textContent = 'Building in the worker…';
  const input = buildInput(p);
  const t0 = performance.now();
  let result: BuildContextResult | undefined;
  try {
    result = await buildContext(input, { contents: p.contents, engine: state.engine });
    const ms = performance.now() - t0;
    replace(resultBody, renderResult(result, { exact: input.tokenizer?.mode === 'exact', encoder: `${input.tokenizer?.mode}:${input.tokenizer?.encoding}` }));
    buildStatus.textContent = `Built in ${ms.toFixed(0)} ms.`;
    void store
      .record({
        ok: true, bundleId: result.bundle.bundleId, blocks: result.bundle.blocks.length, tokens: result.budgetReport.estimatedInputTokens, decision: result.budgetReport.decision,
        fingerprints: { bundle: result.manifest.fingerprints.bundleFingerprint, projectIndex: result.manifest.fingerprints.projectIndexFingerprint, config: result.manifest.fingerprints.configFingerprint },
        targets: [...state.targets, ...state.symbols], model: input.tokenBudget.model, durationMs: ms,
      })
      .then(refreshStoreIfVisible, (e) => (storeStatus.textContent = `Recording the build failed: ${String(e)}`));
  } catch (error) {
    const ms = performance.now() - t0;
    const e = isCtxgateError(error)
      ? { code: error.code, message: error.message, details: (error.details ?? {}) as Record<string, unknown> }
      : { code: 'UNEXPECTED', message: String(error) };
    replace(resultBody, renderRefusal(e, (choice) => {
      state.picks = [...state.picks.filter((x) => x.name !== choice.name), choice];
      void build();
    }));
    buildStatus.textContent = `Refused (${e.code}).`;
    void store.record({ ok: false, code: e.code, targets: [...state.targets, ...state.symbols], model: input.tokenBudget.model, durationMs: ms }).then(refreshStoreIfVisible, () => undefined);
  } finally {
    state.busy = false;
    btn.disabled = false;
    resultBox.hidden = false;
    $('result-h').focus({ preventScroll: false });
  }
}
$('build-form').addEventListener('submit', (e) => {
  e.preventDefault();
  void build();
});

// ---- Store
const storeStatus = $('store-status');
const refreshStore = async (): Promise<void> => {
  try {
    await store.render();
    storeStatus.textContent = '';
  } catch (error) {
    storeStatus.textContent = `The store could not be read: ${isCtxgateError(error) ? error.message : String(error)}`;
  }
};
const refreshStoreIfVisible = (): void => {
  if (!$('panel-store').hidden) void refreshStore();
};
$('store-refresh').addEventListener('click', () => void refreshStore());
$('store-reset').addEventListener('click', async () => {
  await store.reset();
  storeStatus.textContent = 'Deleted.';
  await refreshStore();
});

setupTabs(document, (tabId) => {
  if (tabId === 'tab-store') void refreshStore();
});

// ---- Engine
try {
  const engine = await createCtxgate();
  state.engine = engine;
  coreStatus.textContent = `Ready: the ctxgate core runs in a ${engine.mode === 'worker' ? 'Web Worker' : 'this thread'}.`;
  coreStatus.dataset.ready = engine.mode;
  setupScanner(engine);
  setupTokens(engine);
} catch (error) {
  coreStatus.textContent = `The core failed to load: ${isCtxgateError(error) ? `${error.code}: ${error.message}` : String(error)}`;
  coreStatus.classList.add('error');
}
