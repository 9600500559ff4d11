// Search over the guide, operations, parameters, fields, schemas and error codes, in memory (the entries
// came with the reference: no request per keystroke), indexed by MiniSearch at the first search. Opened
// with "/" or Ctrl+K (⌘K), or the button; Escape closes it.

import { h, setChildren } from './dom.js';
import MiniSearch from './minisearch.js';
import { createIndex, kindLabel, search } from './search-engine.js';

/** Where a result belongs, unless it only repeats its kind (`Guide`, `Schema`, `Error · 422` → `HTTP 422`). */
function placeOf(entry) {
  if (entry.context === kindLabel(entry.kind) || entry.context === 'Guide') return '';
  return entry.context.replace(/^Error · /, 'HTTP ');
}

/** The start of what a result says, cut at a word: at most SNIPPET characters. */
const SNIPPET = 140;
function snippetOf(text) {
  const clean = (text ?? '').replace(/\s+/g, ' ').trim();
  return clean.length <= SNIPPET ? clean : `${clean.slice(0, SNIPPET - 1).replace(/\s+\S*$/, '')}…`;
}

function isTyping(target) {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

export function createSearch(entries, button) {
  let index;
  const input = h('input', {
    type: 'search',
    id: 'search-input',
    class: 'search-input',
    placeholder: 'Search operations, fields, error codes, guides',
    autocomplete: 'off',
    spellcheck: 'false',
    role: 'combobox',
    'aria-expanded': 'false',
    'aria-controls': 'search-results',
    'aria-autocomplete': 'list',
  });
  const list = h('ul', {
    id: 'search-results',
    class: 'search-results',
    role: 'listbox',
    'aria-label': 'Results',
  });
  const status = h('p', { class: 'search-status', 'aria-live': 'polite' });
  const dialog = h(
    'dialog',
    { class: 'search-dialog', 'aria-labelledby': 'search-label' },
    h(
      'div',
      { class: 'search-box' },
      h(
        'label',
        { id: 'search-label', for: 'search-input', class: 'visually-hidden' },
        'Search the reference',
      ),
      input,
      h('button', { type: 'button', class: 'search-close', 'aria-label': 'Esc: close the search' }, 'Esc'),
    ),
    status,
    list,
  );
  document.body.append(dialog);
  let results = [];
  let active = -1;

  const go = (entry) => {
    dialog.close();
    location.hash = entry.anchor;
    document.getElementById(entry.anchor)?.scrollIntoView();
  };
  const highlight = (next) => {
    active = next;
    [...list.children].forEach((item, i) => item.setAttribute('aria-selected', String(i === active)));
    const item = list.children[active];
    input.setAttribute('aria-activedescendant', item?.id ?? '');
    item?.scrollIntoView({ block: 'nearest' });
  };
  const render = () => {
    index ??= createIndex(MiniSearch, entries);
    results = search(index, input.value);
    setChildren(
      list,
      ...results.map((entry, i) =>
        h(
          'li',
          {
            id: `search-result-${i}`,
            role: 'option',
            class: 'search-result',
            'aria-selected': 'false',
            'data-anchor': entry.anchor,
            onclick: () => go(entry),
          },
          h('span', { class: `search-kind kind-${entry.kind}` }, kindLabel(entry.kind)),
          h('span', { class: 'search-title' }, entry.title),
          placeOf(entry) ? h('span', { class: 'search-context' }, placeOf(entry)) : null,
          snippetOf(entry.text) ? h('span', { class: 'search-snippet' }, snippetOf(entry.text)) : null,
        ),
      ),
    );
    input.setAttribute('aria-expanded', String(results.length > 0));
    status.textContent = input.value.trim()
      ? `${results.length || 'No'} result${results.length === 1 ? '' : 's'}`
      : 'Type to search; ↑ ↓ to choose, Enter to go.';
    highlight(results.length ? 0 : -1);
  };
  input.addEventListener('input', render);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'ArrowDown' && results.length) highlight((active + 1) % results.length);
    else if (event.key === 'ArrowUp' && results.length)
      highlight((active - 1 + results.length) % results.length);
    else if (event.key === 'Enter' && results[active]) go(results[active]);
    // A search field's own Escape empties it; here, as in every site's search, it closes the search.
    else if (event.key === 'Escape') dialog.close();
    else return;
    event.preventDefault();
  });
  dialog.querySelector('.search-close').addEventListener('click', () => dialog.close());
  dialog.addEventListener('click', (event) => {
    if (event.target === dialog) dialog.close();
  });
  dialog.addEventListener('close', () => button.focus({ preventScroll: true }));

  const open = () => {
    if (dialog.open) return;
    dialog.showModal();
    input.select();
    render();
  };
  button.addEventListener('click', open);
  document.addEventListener('keydown', (event) => {
    const shortcut =
      (event.key === 'k' && (event.ctrlKey || event.metaKey)) ||
      (event.key === '/' && !isTyping(event.target));
    if (!shortcut) return;
    event.preventDefault();
    open();
  });
  return { open };
}
