// The top of the page: title, version, the document's description, servers and security schemes.

import { h, markdown, markdownInline } from './dom.js';
import { losslessSupported } from './json.js';
import { keyField } from './key-store.js';

export const OPENAPI_URL = '/v1/openapi.json';

function servers(spec) {
  if (!spec.servers?.length) return null;
  const rows = spec.servers.map((server) =>
    h('tr', {}, h('td', {}, h('code', {}, server.url)), h('td', {}, markdownInline(server))),
  );
  return h(
    'section',
    { class: 'intro-section', id: 'section/Servers' },
    h('h2', {}, 'Servers'),
    h('p', {}, 'Paths below are relative to the server. Try it sends requests to this server.'),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        {},
        h('thead', {}, h('tr', {}, h('th', {}, 'URL'), h('th', {}, 'Description'))),
        h('tbody', {}, rows),
      ),
    ),
  );
}

function scheme(name, definition) {
  const kind =
    definition.type === 'http'
      ? `HTTP ${definition.scheme ?? ''} authentication`.replace('bearer', 'Bearer')
      : definition.type;
  return h(
    'div',
    { class: 'scheme' },
    h('h3', {}, h('code', {}, name), ' ', h('span', { class: 'muted' }, kind)),
    definition.bearerFormat ? h('p', {}, 'Token: ', definition.bearerFormat) : null,
    markdown(definition),
  );
}

function security(spec, store) {
  const schemes = Object.entries(spec.components?.securitySchemes ?? {});
  if (schemes.length === 0) return null;
  return h(
    'section',
    { class: 'intro-section', id: 'section/Security-schemes' },
    h('h2', {}, 'Security schemes'),
    schemes.map(([name, definition]) => scheme(name, definition)),
    h(
      'form',
      { class: 'key-box', onsubmit: (event) => event.preventDefault() },
      h('label', { for: 'api-key' }, 'Your API key for Try it'),
      keyField(store, 'api-key'),
      h(
        'p',
        { class: 'muted' },
        'Kept in this browser tab only (session storage) and sent only to this server, as a bearer token.',
      ),
    ),
  );
}

export function renderIntro(spec, store) {
  const { info = {} } = spec;
  return [
    h(
      'header',
      { class: 'intro' },
      h('h1', {}, info.title ?? 'API reference'),
      h(
        'div',
        { class: 'intro-meta' },
        h('span', { class: 'badge badge-version' }, `v${info.version}`),
        h('span', { class: 'badge badge-plain' }, `OpenAPI ${spec.openapi}`),
        info.license ? h('span', { class: 'muted' }, `License: ${info.license.name}`) : null,
        h('a', { href: OPENAPI_URL, download: 'petstore-openapi.json' }, 'Download the OpenAPI document'),
      ),
      info.summary ? h('p', { class: 'lead' }, info.summary) : null,
      losslessSupported
        ? null
        : h(
            'p',
            { class: 'notice' },
            'This browser cannot read 64-bit integers exactly: examples may show the largest ones rounded. The downloaded document has every digit.',
          ),
    ),
    info.description ? h('section', { class: 'intro-section description' }, markdown(info)) : null,
    servers(spec),
    security(spec, store),
  ];
}
