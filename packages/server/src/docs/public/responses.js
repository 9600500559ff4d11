// Responses of an operation: status, description, body type and headers. Their examples are in the
// right-hand column (code-panel.js).

import { h, markdown, markdownInline } from './dom.js';
import { constraints, fieldTable, renderSchema, typeNode } from './schema.js';

export function statusClass(status) {
  return /^[1-5]/.test(status) ? `status-${status[0]}xx` : 'status-default';
}

function headersTable(headers) {
  const rows = Object.entries(headers).map(([name, header = {}]) =>
    h(
      'tr',
      {},
      h(
        'td',
        { class: 'field' },
        h('code', {}, name),
        header.required ? h('span', { class: 'always' }, 'always') : null,
      ),
      h('td', { class: 'type' }, typeNode(header.schema)),
      h('td', {}, markdown(header), constraints({ ...header.schema, example: header.example })),
    ),
  );
  return fieldTable(rows, 'Header');
}

/** The body of a request or response: the schema of each media type. */
export function renderContent(content, options) {
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
      media.schema ? renderSchema(media.schema, 0, options) : null,
    ),
  );
}

function renderResponse(status, response = {}) {
  const headers = Object.keys(response.headers ?? {});
  return h(
    'details',
    { class: 'response', 'data-response': status, open: status.startsWith('2') },
    h('summary', {}, h('span', { class: `status ${statusClass(status)}` }, status), markdownInline(response)),
    h(
      'div',
      { class: 'response-body' },
      response.content ? renderContent(response.content, { expandNamed: false, description: false }) : null,
      headers.length
        ? h(
            'details',
            { class: 'response-headers' },
            h('summary', {}, `Headers (${headers.length})`),
            headersTable(response.headers),
          )
        : null,
      !headers.length && !response.content
        ? h('p', { class: 'note' }, 'No headers or body described.')
        : null,
    ),
  );
}

export function renderResponses(responses) {
  const entries = Object.entries(responses ?? {});
  if (entries.length === 0) return null;
  return h(
    'div',
    { class: 'responses' },
    h('h4', {}, 'Responses'),
    entries.map(([status, node]) => renderResponse(status, node)),
  );
}
