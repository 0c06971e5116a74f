// The tokens tab: ctxgate's estimate next to the exact count for each encoding, with the
// difference. Both run in the worker; the exact ranks load on first use.
import type { TokenCount } from '../../src/index.ts';
import { $, debounce, fmt, h, replace } from './dom.ts';
import { scroller } from './build-view.ts';
import { describeError, type EngineKeeper } from './workers.ts';

const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
const SAMPLE = 'ctxgate decides what an AI agent gets to see: context under token budgets, secret redaction and fingerprints.\n\nfunction add(a: number, b: number): number { return a + b; } // naïve café, Grüße, ½ × π ≈ 1.571';

/** Wires the tokens tab. */
export function setupTokens(engines: EngineKeeper): void {
  const input = $<HTMLTextAreaElement>('tok-input');
  const out = $('tok-table');
  input.value = SAMPLE;
  // Bumped by every edit: a count of an older text is never drawn.
  let seq = 0;
  let ranksLoaded = false;
  /** The counting state, shown as soon as the text changes: the previous numbers no longer match it. */
  const counting = (): void => {
    out.setAttribute('aria-busy', 'true');
    replace(out, h('p', {}, `Counting ${fmt(input.value.length)} characters…${ranksLoaded ? '' : ' (loading the exact tokenizer ranks the first time)'}`));
  };
  /** Ends the counting state (before the counts or the failure are drawn). */
  const idle = (): void => {
    out.setAttribute('aria-busy', 'false');
    delete out.dataset.counting;
  };
  const run = async (): Promise<void> => {
    const mine = seq;
    const text = input.value;
    counting();
    // Which text the worker is counting now (the end-to-end test waits for a run in flight).
    out.dataset.counting = String(text.length);
    let rows: { encoding: (typeof ENCODINGS)[number]; est: TokenCount; exact: TokenCount }[];
    try {
      rows = await engines.run((engine) =>
        Promise.all(
          ENCODINGS.map(async (encoding) => {
            const [est, exact] = await Promise.all([engine.estimateTokens(text, { encoding }), engine.countTokens(text, { encoding })]);
            return { encoding, est, exact };
          }),
        ),
      );
      ranksLoaded = true;
    } catch (error) {
      if (mine !== seq) return;
      idle();
      replace(out, h('p', { class: 'error' }, `Counting failed. ${describeError(error)} Edit the text to count again.`));
      return;
    }
    if (mine !== seq) return;
    idle();
    replace(
      out,
      h('p', {}, `${fmt(text.length)} characters.`),
      scroller('Token counts by encoding', h('table', { id: 'tok-results' },
        h('thead', {}, h('tr', {}, ['Encoding', 'Estimate', 'Exact', 'Difference'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, rows.map(({ encoding, est, exact }) => {
          const diff = est.tokens - exact.tokens;
          const pct = exact.tokens ? (diff / exact.tokens) * 100 : 0;
          return h('tr', { 'data-encoding': encoding },
            h('td', {}, h('code', {}, encoding)),
            h('td', { class: 'num', title: est.encoder }, fmt(est.tokens), h('span', { class: 'help' }, ' estimated')),
            h('td', { class: 'num', title: exact.encoder }, fmt(exact.tokens), h('span', { class: 'help' }, ' exact')),
            h('td', { class: 'num' }, `${diff >= 0 ? '+' : '−'}${fmt(Math.abs(diff))} (${diff >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(1)}%)`,
              h('span', { class: 'help' }, diff > 0 ? ' estimate is high (safe)' : diff === 0 ? ' same' : ' estimate is low')));
        })),
      )),
    );
  };
  const debounced = debounce(() => void run(), 300);
  input.addEventListener('input', () => {
    seq++;
    counting();
    debounced();
  });
  let started = false;
  // Counting starts when the tab is first shown, so the exact ranks load only if someone looks.
  new MutationObserver(() => {
    if (!started && !$('panel-tokens').hidden) {
      started = true;
      void run();
    }
  }).observe($('panel-tokens'), { attributes: true, attributeFilter: ['hidden'] });
  if (!$('panel-tokens').hidden) {
    started = true;
    void run();
  }
}
