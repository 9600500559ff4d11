// Responses of an operation: status, description, headers, body schema and examples.

import { h, markdown, markdownInline } from './dom.js';
import { renderExamples } from './examples.js';
import { constraints, renderSchema, typeLabel } from './schema.js';

export function statusClass(status) {
  return /^[1-5]/.test(status) ? `status-${status[0]}xx` : 'status-default';
}

function headersTable(spec, headers) {
  const rows = Object.entries(headers).map(([name, node]) => {
    const header = node ?? {};
    return h(
      'tr',
      {},
      h(
        'td',
        { class: 'field' },
        h('code', {}, name),
        header.required ? h('span', { class: 'always' }, 'always') : null,
      ),
      h('td', { class: 'type' }, typeLabel(spec, header.schema)),
      h('td', {}, markdown(header), constraints({ ...header.schema, example: header.example })),
    );
  });
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'fields headers' },
      h('thead', {}, h('tr', {}, h('th', {}, 'Header'), h('th', {}, 'Type'), h('th', {}, 'Description'))),
      h('tbody', {}, rows),
    ),
  );
}

/** The body of a request or response: one block per media type, with schema and examples. */
export function renderContent(spec, content) {
  return Object.entries(content ?? {}).map(([mediaType, media]) =>
    h(
      'div',
      { class: 'media' },
      h(
        'div',
        { class: 'media-type' },
        h('span', { class: 'label' }, 'Content type'),
        h('code', {}, mediaType),
      ),
      media.schema ? renderSchema(spec, media.schema) : null,
      renderExamples(spec, media, mediaType),
    ),
  );
}

function renderResponse(spec, status, node) {
  const response = node ?? {};
  const headers = Object.keys(response.headers ?? {});
  return h(
    'details',
    { class: 'response', 'data-response': status, open: status.startsWith('2') },
    h('summary', {}, h('span', { class: `status ${statusClass(status)}` }, status), markdownInline(response)),
    h(
      'div',
      { class: 'response-body' },
      headers.length ? [h('h5', {}, 'Headers'), headersTable(spec, response.headers)] : null,
      response.content ? [h('h5', {}, 'Body'), renderContent(spec, response.content)] : null,
      !headers.length && !response.content
        ? h('p', { class: 'note' }, 'No headers or body described.')
        : null,
    ),
  );
}

export function renderResponses(spec, responses) {
  const entries = Object.entries(responses ?? {});
  if (entries.length === 0) return null;
  return h(
    'div',
    { class: 'responses' },
    h('h4', {}, 'Responses'),
    entries.map(([status, node]) => renderResponse(spec, status, node)),
  );
}
