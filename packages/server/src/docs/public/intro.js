// The top of the page: title, version, where the API is and the reader's API key; then the guide
// sections of the document's introduction, each beside its examples.

import { addCopyButtons, copyable } from './copy.js';
import { h, html, markdown, markdownInline } from './dom.js';
import { guideExamples } from './guide-examples.js';
import { keyField } from './key-store.js';
import { baseUrls } from './operations.js';

/** The base URLs: this deployment's first, on the API's origin; the others only where it is one of them. */
function servers(spec, context) {
  if (!spec.servers?.length) return null;
  const items = baseUrls(spec.servers, context.apiOrigin).map(({ url, server }) =>
    h('li', {}, h('code', { class: 'url' }, url), markdownInline(server)),
  );
  return h(
    'div',
    { class: 'panel', id: 'section/Servers' },
    h('div', { class: 'panel-header' }, h('span', { class: 'panel-title' }, 'Base URLs')),
    h('ul', { class: 'servers' }, items),
  );
}

function keyBox(spec, context) {
  const [name, scheme] = Object.entries(spec.components?.securitySchemes ?? {})[0] ?? [];
  if (!name) return null;
  return h(
    'form',
    { class: 'panel key-box', id: 'section/Your-API-key', onsubmit: (event) => event.preventDefault() },
    h('div', { class: 'panel-header' }, h('label', { for: 'api-key', class: 'panel-title' }, 'Your API key')),
    h(
      'div',
      { class: 'panel-body' },
      keyField(context.store, 'api-key'),
      h(
        'p',
        { class: 'muted' },
        `Used by Try it and Run in this page, sent only to ${context.apiOrigin} as a bearer token, and kept in this browser tab only.`,
      ),
      markdown(scheme),
    ),
  );
}

/** How to install the typed client the TypeScript samples use. */
function clientBox(context) {
  if (!context.clientInstall) return null;
  return h(
    'div',
    { class: 'panel', id: 'section/TypeScript-client' },
    h('div', { class: 'panel-header' }, h('span', { class: 'panel-title' }, 'TypeScript client')),
    copyable(h('pre', {}, h('code', {}, context.clientInstall)), 'install command'),
    h(
      'div',
      { class: 'panel-body' },
      h(
        'p',
        { class: 'muted' },
        'The typed client of the samples (retries, paging, exact 64-bit ids) for Node.js 20+ and browsers. It is not on the npm registry: npm installs it from this address.',
      ),
    ),
  );
}

function header(spec, preface, context) {
  const { info = {} } = spec;
  return h(
    'section',
    { class: 'row intro', id: 'top', 'aria-label': 'Introduction' },
    h(
      'div',
      { class: 'prose-column' },
      h('h1', {}, context.title),
      h(
        'div',
        { class: 'intro-meta' },
        h('span', { class: 'badge badge-version' }, `v${info.version}`),
        h('span', { class: 'badge badge-plain' }, `OpenAPI ${spec.openapi}`),
        info.license ? h('span', { class: 'muted' }, `License: ${info.license.name}`) : null,
        h(
          'a',
          { href: `${context.apiOrigin}/v1/openapi.json`, download: 'openapi.json' },
          'Download the OpenAPI document',
        ),
      ),
      info.summary ? h('p', { class: 'lead' }, info.summary) : null,
      preface ? Object.assign(html('div', 'markdown', preface.html), { id: preface.id }) : null,
    ),
    h(
      'aside',
      { class: 'examples-column', 'aria-label': 'Base URLs, your API key and the client' },
      h('div', { class: 'sticky' }, servers(spec, context), keyBox(spec, context), clientBox(context)),
    ),
  );
}

function guideSection(section, context) {
  const prose = html('div', 'markdown prose-column', section.html);
  addCopyButtons(prose);
  const examples = guideExamples(section, context);
  return h(
    'section',
    { class: `row guide${examples ? '' : ' wide'}`, 'aria-label': section.title },
    prose,
    examples,
  );
}

/** The header with the introduction's preface (the text before its first heading), then the guide. */
export function renderIntro(spec, context) {
  const sections = spec.info?.['x-sections'] ?? [];
  const preface =
    sections[0] && !sections[0].html.includes(`id="${sections[0].id}"`) ? sections[0] : undefined;
  const guide = preface ? sections.slice(1) : sections;
  return [header(spec, preface, context), ...guide.map((section) => guideSection(section, context))];
}
