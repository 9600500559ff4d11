// Entry point of /docs: loads the OpenAPI document of this server and renders the reference.

import { h, markdown } from './dom.js';
import { renderIntro } from './intro.js';
import { parseLossless } from './json.js';
import { createKeyStore } from './key-store.js';
import { renderOperation } from './operation.js';
import { collectOperations, groupByTag } from './operations.js';
import { renderSidebar } from './sidebar.js';
import { SITE_TITLE } from './site.js';

/** The contract with its `$ref`s resolved and its descriptions rendered, prepared by the server. */
const REFERENCE_URL = '/docs/assets/reference.json';

function renderTag(spec, { tag, operations }, store) {
  return h(
    'section',
    { class: 'tag', id: `tag/${tag.name}` },
    h('h2', { class: 'tag-title' }, tag.name),
    markdown(tag),
    operations.map((op) => renderOperation(spec, op, store)),
  );
}

function scrollToHash() {
  const id = decodeURIComponent(location.hash.slice(1));
  if (id) document.getElementById(id)?.scrollIntoView();
}

async function load() {
  const main = document.getElementById('main');
  try {
    const response = await fetch(REFERENCE_URL, { headers: { accept: 'application/json' } });
    if (!response.ok) throw new Error(`${REFERENCE_URL} answered ${response.status}`);
    const spec = parseLossless(await response.text());
    if (SITE_TITLE) spec.info = { ...spec.info, title: SITE_TITLE };
    const store = createKeyStore();
    const groups = groupByTag(spec, collectOperations(spec));
    document.title = `${spec.info?.title ?? 'API'} reference`;
    document.getElementById('sidebar').replaceChildren(...renderSidebar(spec, groups).flat(2));
    main.replaceChildren(
      ...renderIntro(spec, store).filter(Boolean),
      ...groups.map((group) => renderTag(spec, group, store)),
    );
    document.body.dataset.state = 'ready';
    scrollToHash();
  } catch (error) {
    main.replaceChildren(
      h('p', { class: 'notice deprecated' }, `The API reference could not be loaded: ${error.message}`),
    );
    document.body.dataset.state = 'failed';
  }
}

load();
