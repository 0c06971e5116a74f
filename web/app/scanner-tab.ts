// The scanner tab: text is scanned in ctxgate's worker as you type (debounced); findings are
// listed by rule and position and shown in place as their placeholders, never as values. The
// optional file name is the scan's `path`: it decides whether a line is read as configuration (a
// value after a name is a secret) or as source code (a name followed by a type is code).
import { checkContent, type Redaction, type RedactResult, type TextEncodingName } from '../../src/index.ts';
import { $, debounce, fmt, h, replace } from './dom.ts';
import { fakeChars } from './planted.mjs';
import { scroller } from './build-view.ts';
import { describeError, type EngineKeeper } from './workers.ts';

/** Above this, the preview shows only the lines around each finding (a 4 MB <pre> is slow to lay out). */
const FULL_PREVIEW_CHARS = 100_000;
const MAX_EXCERPTS = 200;
/** A picked file larger than this is not read (the page keeps the whole text in memory). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** An example with fake secrets, assembled at run time so the repository holds none. */
function example(): string {
  return [
    '# deploy.sh — fake credentials for the demo',
    `export GITHUB_TOKEN=${'gh' + 'p_' + fakeChars(ALNUM, 36, 7)}`,
    `export OPENAI_API_KEY=${'sk-' + 'proj-' + fakeChars(ALNUM + '-_', 120, 11)}`,
    'curl -H "Accept: application/json" https://api.example.com/v1/status',
    `DB_PASSWORD=${fakeChars(ALNUM, 16, 3)}`,
    'password: ${DB_PASSWORD}   # a reference, not a secret',
  ].join('\n');
}

/** A large input: ~4 MB of code-like lines with a few fake secrets spread through it. */
export function largeInput(targetBytes = 4 * 1024 * 1024): string {
  const lines: string[] = [];
  let size = 0;
  let i = 0;
  while (size < targetBytes) {
    const line =
      i % 20_000 === 10_000
        ? `const token${i} = '${'gh' + 'p_' + fakeChars(ALNUM, 36, i + 1)}';`
        : `export function handler${i}(req: Request): Response { return new Response(JSON.stringify({ id: ${i}, ok: true })); }`;
    lines.push(line);
    size += line.length + 1;
    i++;
  }
  return lines.join('\n');
}

/** Renders `text[a, b)` with every finding inside replaced by its highlighted placeholder. */
function redactedRange(text: string, found: readonly Redaction[], a: number, b: number): DocumentFragment {
  const frag = document.createDocumentFragment();
  let at = a;
  for (const r of found) {
    if (r.end <= a || r.start >= b) continue;
    if (r.start > at) frag.append(text.slice(at, r.start));
    frag.append(h('mark', { class: `redacted ${r.confidence}`, title: `${r.ruleId} (${r.confidence} confidence)` }, r.placeholder));
    at = Math.max(at, r.end);
  }
  if (at < b) frag.append(text.slice(at, b));
  return frag;
}

/** Says how a picked file was decoded, when it was not plain UTF-8. */
function decodedAs(encoding: TextEncodingName): string {
  return encoding === 'utf-8' || encoding === 'ascii' ? '' : `, decoded as ${encoding}`;
}

/** Wires the scanner tab. */
export function setupScanner(engines: EngineKeeper): { scanNow(): Promise<void> } {
  const input = $<HTMLTextAreaElement>('scan-input');
  const pathInput = $<HTMLInputElement>('scan-path');
  const status = $('scan-status');
  const list = $('scan-findings');
  const preview = $('scan-preview');
  const source = $('scan-source');
  let seq = 0;
  // A generated or opened large input is scanned from memory: a multi-megabyte text box alone
  // costs the main thread hundreds of milliseconds of layout.
  let large: { name: string; text: string } | null = null;
  const setLarge = (value: typeof large, note = ''): void => {
    large = value;
    source.textContent = value ? `Scanning ${value.name} (${fmt(value.text.length)} characters${note}, kept out of the text box). Type in the box to scan your own text again.` : '';
  };
  const clearResults = (): void => {
    replace(list);
    replace(preview);
  };

  const scan = async (): Promise<void> => {
    const mine = ++seq;
    const text = large?.text ?? input.value;
    if (!text) {
      clearResults();
      status.textContent = '';
      return;
    }
    const path = pathInput.value.trim();
    status.textContent = `Scanning ${fmt(text.length)} characters in the worker…`;
    const t0 = performance.now();
    let result: RedactResult;
    try {
      result = await engines.run((engine) => engine.redactSecrets(text, path ? { path } : {}));
    } catch (error) {
      if (mine !== seq) return;
      clearResults();
      status.textContent = `The scan failed. ${describeError(error)}`;
      return;
    }
    if (mine !== seq) return; // a newer edit superseded this scan
    const ms = performance.now() - t0;
    const found = result.redactions; // in input order
    status.textContent = `${found.length} finding(s) in ${fmt(text.length)} characters (${ms.toFixed(0)} ms, in the worker).`;
    replace(
      list,
      found.length === 0
        ? h('p', {}, 'No secrets found.')
        : scroller('Findings', h('table', { id: 'scan-table' },
            h('thead', {}, h('tr', {}, ['Rule', 'Confidence', 'Line', 'Column', 'Length', 'Shown as'].map((t) => h('th', { scope: 'col' }, t)))),
            h('tbody', {}, found.slice(0, 500).map((r) => h('tr', {},
              h('td', {}, h('code', {}, r.ruleId)),
              h('td', {}, h('span', { class: `badge ${r.confidence === 'high' ? 'bad' : 'warn'}` }, r.confidence)),
              h('td', { class: 'num' }, r.line), h('td', { class: 'num' }, r.column), h('td', { class: 'num' }, r.end - r.start),
              h('td', {}, h('code', {}, r.placeholder))))),
          )),
    );
    if (text.length <= FULL_PREVIEW_CHARS) {
      replace(preview, redactedRange(text, found, 0, text.length));
      return;
    }
    // Large input: one line of context around each finding.
    const parts: (Node | string)[] = [`Large input: showing the line of each of the first ${Math.min(found.length, MAX_EXCERPTS)} finding(s).\n\n`];
    for (const r of found.slice(0, MAX_EXCERPTS)) {
      const a = Math.max(text.lastIndexOf('\n', r.start - 1) + 1, r.start - 200);
      const nl = text.indexOf('\n', r.end);
      const b = Math.min(nl < 0 ? text.length : nl, r.end + 200);
      parts.push(`line ${r.line}: `, redactedRange(text, found, a, b), '\n');
    }
    replace(preview, ...parts);
  };
  const debounced = debounce(() => void scan(), 250);
  input.addEventListener('input', () => {
    setLarge(null);
    debounced();
  });
  pathInput.addEventListener('input', debounced);
  $('scan-example').addEventListener('click', () => {
    setLarge(null);
    input.value = example();
    pathInput.value = 'deploy.sh';
    void scan();
  });
  $('scan-large').addEventListener('click', () => {
    input.value = '';
    pathInput.value = '';
    setLarge({ name: 'a generated 4 MB input', text: largeInput() });
    void scan();
  });
  $<HTMLInputElement>('scan-file').addEventListener('change', async (e) => {
    const picker = e.currentTarget as HTMLInputElement;
    const file = picker.files?.[0];
    // Emptied so that picking the same file again scans it again.
    picker.value = '';
    if (!file) return;
    const mine = ++seq;
    input.value = '';
    // The file's name says how its lines are read (ScanOptions.path).
    pathInput.value = file.name;
    // ctxgate's content gate, as the builder reads a file: UTF-8, UTF-16 with a BOM or windows-1252;
    // anything else is binary, and scanning its bytes as text would only find noise.
    const d = file.size > MAX_FILE_BYTES ? null : checkContent(new Uint8Array(await file.arrayBuffer()), { maxBytes: MAX_FILE_BYTES });
    if (mine !== seq) return;
    if (!d?.allowed) {
      setLarge(null);
      clearResults();
      status.textContent =
        d?.reason === 'binary'
          ? `${file.name} looks binary (${d.detail}), so it was not scanned: ctxgate never sends such a file to a model.`
          : `${file.name} is larger than ${fmt(MAX_FILE_BYTES / 1024 / 1024)} MiB; not scanned here.`;
      return;
    }
    setLarge({ name: file.name, text: d.text }, decodedAs(d.encoding));
    void scan();
  });
  $('scan-clear').addEventListener('click', () => {
    setLarge(null);
    input.value = '';
    pathInput.value = '';
    void scan();
  });
  return { scanNow: scan };
}
