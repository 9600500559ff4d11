// The right-hand column of an operation: its code samples in tabs (the language chosen is kept for the
// whole page), a Run button for the typed client's samples, and its response examples.

import { copyable } from './copy.js';
import { h, uniqueId } from './dom.js';
import { responseExamples } from './examples.js';
import { runInPage } from './run-sample.js';
import { LANGUAGES, samples } from './samples.js';

const LANGUAGE_KEY = 'petstore.docs.language';
const panels = new Set();

function storedLanguage() {
  try {
    return sessionStorage.getItem(LANGUAGE_KEY) ?? 'curl';
  } catch {
    return 'curl';
  }
}

let language = storedLanguage();

/** Shows the chosen language in every panel of the page. */
function choose(next) {
  language = next;
  try {
    sessionStorage.setItem(LANGUAGE_KEY, next);
  } catch {
    // Storage may be disabled: the choice then lasts until the page is left.
  }
  for (const show of panels) show(next);
}

function tabs(code, extras) {
  const tabList = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Language' });
  const views = LANGUAGES.map(({ id, label }) => {
    const tabId = uniqueId(`tab-${id}`);
    const panelId = uniqueId(`panel-${id}`);
    const tab = h(
      'button',
      { type: 'button', role: 'tab', id: tabId, 'aria-controls': panelId, 'data-language': id },
      label,
    );
    const pre = h('pre', { class: `language-${id}` }, h('code', {}, code[id]));
    const panel = h(
      'div',
      { role: 'tabpanel', id: panelId, 'aria-labelledby': tabId, class: 'tab-panel' },
      copyable(pre, `${label} sample`),
      extras[id],
    );
    tab.addEventListener('click', () => choose(id));
    tab.addEventListener('keydown', (event) => {
      const step = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
      if (!step) return;
      const index =
        (LANGUAGES.findIndex((item) => item.id === id) + step + LANGUAGES.length) % LANGUAGES.length;
      choose(LANGUAGES[index].id);
      tabList.querySelector(`[data-language="${LANGUAGES[index].id}"]`)?.focus();
    });
    tabList.append(tab);
    return { id, tab, panel };
  });
  const show = (chosen) => {
    for (const view of views) {
      const selected = view.id === chosen;
      view.tab.setAttribute('aria-selected', String(selected));
      view.tab.tabIndex = selected ? 0 : -1;
      view.panel.hidden = !selected;
    }
  };
  show(language);
  panels.add(show);
  return [tabList, views.map((view) => view.panel)];
}

function examplesBlock(op) {
  const examples = responseExamples(op.operation.responses);
  if (examples.length === 0) return null;
  const selectId = uniqueId('response-example');
  const pre = h('pre', { class: 'response-example' }, h('code', {}, examples[0].text));
  const select = h(
    'select',
    { id: selectId, class: 'example-select' },
    examples.map((example) => h('option', { value: example.id }, `${example.status} · ${example.summary}`)),
  );
  select.addEventListener('change', () => {
    pre.firstChild.textContent = examples.find((example) => example.id === select.value)?.text ?? '';
  });
  return h(
    'div',
    { class: 'panel response-panel' },
    h('div', { class: 'panel-header' }, h('label', { for: selectId }, 'Response'), select),
    copyable(pre, 'response example'),
  );
}

/** The samples and examples of one operation, in a panel that stays in view beside its text. */
export function renderCodePanel(op, context) {
  const code = samples(op, context.apiOrigin, context.clientOperations, context.clientInstall);
  const runnable = context.clientOperations.includes(op.operationId);
  const extras = { typescript: runnable ? runInPage(code.request, context) : null };
  const [tabList, tabPanels] = tabs(code, extras);
  return h(
    'aside',
    { class: 'examples-column', 'aria-label': `Examples: ${op.operation.summary ?? op.operationId}` },
    h(
      'div',
      { class: 'sticky' },
      h(
        'div',
        { class: 'panel request-panel' },
        h('div', { class: 'panel-header' }, h('span', { class: 'panel-title' }, 'Request'), tabList),
        tabPanels,
      ),
      examplesBlock(op),
    ),
  );
}
