// Entry point of the docs page: reads its title and API origin from the HTML, loads the reference the
// server prepared (contract dereferenced, descriptions rendered, search index) and renders the page.

import { pageConfig } from './config.js';
import { addCopyButtons } from './copy.js';
import { h, markdown, setChildren } from './dom.js';
import { renderIntro } from './intro.js';
import { parseLossless } from './json.js';
import { createKeyStore } from './key-store.js';
import { renderOperation } from './operation.js';
import { collectOperations, groupByTag } from './operations.js';
import { renderSchemas } from './schemas.js';
import { createSearch } from './search.js';
import { renderSidebar, trackPosition, wireMenu } from './sidebar.js';

function renderTag({ tag, operations }, context) {
  const header = h(
    'section',
    { class: 'row tag-row wide', id: `tag/${tag.name}` },
    h('div', { class: 'prose-column' }, h('h2', { class: 'tag-title' }, tag.name), markdown(tag)),
  );
  return [header, ...operations.map((op) => renderOperation(op, context))];
}

/** How to install the typed client: its package, served by the API's origin (it is on no registry). */
function installCommand(clientPackage, apiOrigin) {
  return clientPackage ? `npm install ${apiOrigin}/docs/assets/${clientPackage.file}` : undefined;
}

function scrollToHash() {
  const id = decodeURIComponent(location.hash.slice(1));
  if (id) document.getElementById(id)?.scrollIntoView();
}

async function load() {
  const main = document.getElementById('main');
  const config = pageConfig();
  try {
    const response = await fetch(config.reference);
    if (!response.ok) throw new Error(`${config.reference} answered ${response.status}`);
    const spec = parseLossless(await response.text());
    const operations = collectOperations(spec);
    const context = {
      ...config,
      operations,
      store: createKeyStore(),
      clientOperations: spec['x-client-operations'] ?? [],
      clientInstall: installCommand(spec['x-client-package'], config.apiOrigin),
    };
    const groups = groupByTag(spec, operations);
    const sidebar = document.getElementById('sidebar');
    setChildren(sidebar, renderSidebar(spec, groups));
    setChildren(
      main,
      ...renderIntro(spec, context),
      ...groups.flatMap((group) => renderTag(group, context)),
      ...renderSchemas(spec),
    );
    addCopyButtons(main);
    createSearch(spec['x-search'] ?? [], document.querySelector('.search-button'));
    wireMenu(sidebar, document.querySelector('.menu-button'));
    trackPosition(sidebar);
    document.body.dataset.state = 'ready';
    scrollToHash();
  } catch (error) {
    console.error(error);
    setChildren(
      main,
      h('p', { class: 'notice deprecated' }, `The API reference could not be loaded: ${error.message}`),
    );
    document.body.dataset.state = 'failed';
  }
}

load();
