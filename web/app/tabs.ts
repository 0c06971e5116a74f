// The WAI-ARIA tabs pattern: one tab stop for the tab list, arrow keys / Home / End move and
// activate, the panel follows. The active tab is kept in the URL hash so a reload stays put.

/** Wires every `[role=tablist]` under `root`. Returns a function that selects a tab by id. */
export function setupTabs(root: ParentNode, onChange?: (tabId: string) => void): (tabId: string) => void {
  const list = root.querySelector<HTMLElement>('[role=tablist]');
  if (!list) throw new Error('no tablist');
  const tabs = [...list.querySelectorAll<HTMLButtonElement>('[role=tab]')];
  const select = (tab: HTMLButtonElement, focus: boolean): void => {
    for (const t of tabs) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      const panel = document.getElementById(t.getAttribute('aria-controls') ?? '');
      if (panel) panel.hidden = !on;
    }
    if (focus) tab.focus();
    history.replaceState(null, '', `#${tab.id.replace(/^tab-/, '')}`);
    onChange?.(tab.id);
  };
  list.addEventListener('keydown', (e) => {
    const i = tabs.indexOf(document.activeElement as HTMLButtonElement);
    if (i < 0) return;
    const next =
      e.key === 'ArrowRight' ? tabs[(i + 1) % tabs.length] :
      e.key === 'ArrowLeft' ? tabs[(i - 1 + tabs.length) % tabs.length] :
      e.key === 'Home' ? tabs[0] :
      e.key === 'End' ? tabs[tabs.length - 1] : undefined;
    if (!next) return;
    e.preventDefault();
    select(next, true);
  });
  for (const t of tabs) t.addEventListener('click', () => select(t, false));
  const initial = tabs.find((t) => t.id === `tab-${location.hash.slice(1)}`) ?? tabs[0]!;
  select(initial, false);
  return (tabId) => {
    const t = tabs.find((x) => x.id === tabId);
    if (t) select(t, false);
  };
}
