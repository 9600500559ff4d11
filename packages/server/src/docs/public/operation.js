// One operation as a row: on the left its method and path, stability, deprecation notice, description,
// parameters, request body, responses and Try it; on the right its samples and response examples.

import { renderCodePanel } from './code-panel.js';
import { h, markdown } from './dom.js';
import { renderContent, renderResponses } from './responses.js';
import { constraints, fieldTable, typeNode } from './schema.js';
import { renderTryIt } from './try-it.js';

const STABILITY = { stable: 'Stable', beta: 'Beta', experimental: 'Experimental', deprecated: 'Deprecated' };

export function stabilityBadge(stability) {
  if (!stability) return null;
  const known = Object.hasOwn(STABILITY, stability) ? stability : 'other';
  return h(
    'span',
    { class: `badge badge-${known}`, 'data-stability': stability },
    STABILITY[stability] ?? stability,
  );
}

/** The path with its `{parameters}` highlighted. */
export function pathElement(url) {
  return h(
    'code',
    { class: 'path' },
    url
      .split(/(\{[^}]+\})/)
      .map((part) => (part.startsWith('{') ? h('span', { class: 'path-param' }, part) : part)),
  );
}

const longDate = (date) =>
  date.toLocaleDateString('en-GB', { timeZone: 'UTC', day: 'numeric', month: 'long', year: 'numeric' });

/** The one deprecation notice: when it goes, what replaces it, how responses say so. */
function deprecationNotice(operation, context) {
  const sunset = operation['x-sunset'] ? new Date(operation['x-sunset']) : null;
  const successor = context.operations.find((op) => op.operationId === operation['x-successor']);
  const replacement = successor
    ? [
        ' Use ',
        h('a', { href: `#${successor.anchor}` }, `${successor.method.toUpperCase()} ${successor.url}`),
        ' instead.',
      ]
    : null;
  if (!sunset || Number.isNaN(sunset.getTime())) {
    return h(
      'div',
      { class: 'notice deprecated', role: 'note' },
      h('strong', {}, 'Deprecated. '),
      'This operation may be removed in a future version.',
      replacement,
    );
  }
  const day = sunset.toISOString().slice(0, 10);
  return h(
    'div',
    { class: 'notice deprecated', role: 'note', 'data-sunset': day },
    h('strong', {}, 'Deprecated. '),
    'Removed on ',
    h('time', { datetime: operation['x-sunset'] }, `${longDate(sunset)} (${day})`),
    '.',
    replacement,
    ' Until then every response carries ',
    h('code', {}, 'Deprecation'),
    ' and ',
    h('code', {}, 'Sunset'),
    ' headers; from then on it answers ',
    h('code', {}, '410 gone'),
    '.',
  );
}

function parametersTable(parameters) {
  if (parameters.length === 0) return null;
  const rows = parameters.map((parameter) =>
    h(
      'tr',
      {},
      h(
        'td',
        { class: 'field' },
        h('code', {}, parameter.name),
        h('span', { class: 'location' }, parameter.in),
        parameter.required ? h('span', { class: 'required' }, 'required') : null,
      ),
      h('td', { class: 'type' }, typeNode(parameter.schema)),
      h(
        'td',
        {},
        markdown(parameter),
        constraints({ ...parameter.schema, example: parameter.example ?? parameter.schema?.example }),
      ),
    ),
  );
  return h('div', { class: 'parameters' }, h('h4', {}, 'Parameters'), fieldTable(rows, 'Name'));
}

function requestBody(body) {
  if (!body) return null;
  return h(
    'div',
    { class: 'request-body' },
    h(
      'h4',
      {},
      'Request body ',
      body.required
        ? h('span', { class: 'required' }, 'required')
        : h('span', { class: 'muted' }, 'optional'),
    ),
    markdown(body),
    renderContent(body.content, { expandNamed: true }),
  );
}

function authLine(op) {
  if (op.security.length === 0) return h('span', { class: 'auth public' }, 'Public: no API key');
  const schemes = op.security.flatMap((requirement) => Object.keys(requirement));
  return h(
    'span',
    { class: 'auth' },
    'Auth: ',
    h('a', { href: '#section/Authentication' }, schemes.join(', ')),
  );
}

export function renderOperation(op, context) {
  const { operation } = op;
  return h(
    'section',
    {
      class: `row operation${operation.deprecated ? ' is-deprecated' : ''}`,
      id: op.anchor,
      'data-operation-id': op.operationId,
    },
    h(
      'div',
      { class: 'prose-column' },
      h(
        'header',
        { class: 'operation-header' },
        h(
          'h3',
          {},
          operation.summary ?? op.operationId,
          h(
            'a',
            {
              class: 'anchor',
              href: `#${op.anchor}`,
              'aria-label': `Link to ${operation.summary ?? op.operationId}`,
            },
            '#',
          ),
        ),
        h(
          'div',
          { class: 'operation-line' },
          h('span', { class: `method method-${op.method}` }, op.method.toUpperCase()),
          pathElement(op.url),
          stabilityBadge(op.stability),
        ),
        h(
          'div',
          { class: 'operation-meta' },
          h('span', {}, 'Operation ', h('code', {}, op.operationId)),
          authLine(op),
        ),
      ),
      // The contract's own notice (a description opening with a bold "Deprecated") is shown once.
      operation.deprecated && !operation.descriptionHtml?.includes('class="notice deprecated"')
        ? deprecationNotice(operation, context)
        : null,
      markdown(operation),
      parametersTable(op.parameters),
      requestBody(operation.requestBody),
      renderResponses(operation.responses),
      renderTryIt(op, context),
    ),
    renderCodePanel(op, context),
  );
}
