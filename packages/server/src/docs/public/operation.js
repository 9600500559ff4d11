// One operation: method and path, stability, deprecation notice, description, parameters, request
// body, responses and the Try it panel.

import { h, markdown } from './dom.js';
import { renderContent, renderResponses } from './responses.js';
import { constraints, typeLabel } from './schema.js';
import { renderTryIt } from './try-it.js';

const STABILITY = {
  stable: 'Stable',
  beta: 'Beta',
  experimental: 'Experimental',
  deprecated: 'Deprecated',
};

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

function sunsetNotice(operation) {
  const sunset = operation['x-sunset'] ? new Date(operation['x-sunset']) : null;
  if (!sunset || Number.isNaN(sunset.getTime())) {
    return h(
      'div',
      { class: 'notice deprecated', role: 'note' },
      h('strong', {}, 'Deprecated. '),
      'This operation may be removed in a future version.',
    );
  }
  const day = sunset.toISOString().slice(0, 10);
  const spelled = sunset.toLocaleDateString('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
  });
  return h(
    'div',
    { class: 'notice deprecated', role: 'note', 'data-sunset': day },
    h('strong', {}, 'Deprecated. '),
    'This operation will be removed on ',
    h('time', { datetime: operation['x-sunset'] }, `${spelled} (${day})`),
    '. Until then every response carries ',
    h('code', {}, 'Deprecation'),
    ' and ',
    h('code', {}, 'Sunset'),
    ' headers; from then on it answers ',
    h('code', {}, '410 gone'),
    '.',
  );
}

function parametersTable(spec, parameters) {
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
      h('td', { class: 'type' }, typeLabel(spec, parameter.schema)),
      h(
        'td',
        {},
        markdown(parameter),
        constraints({ ...parameter.schema, example: parameter.example ?? parameter.schema?.example }),
      ),
    ),
  );
  return h(
    'div',
    { class: 'parameters' },
    h('h4', {}, 'Parameters'),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'fields' },
        h('thead', {}, h('tr', {}, h('th', {}, 'Name'), h('th', {}, 'Type'), h('th', {}, 'Description'))),
        h('tbody', {}, rows),
      ),
    ),
  );
}

function requestBody(spec, node) {
  const body = node;
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
    renderContent(spec, body.content),
  );
}

function authLine(op) {
  if (op.security.length === 0) return h('span', { class: 'auth public' }, 'Public: no API key');
  const schemes = op.security.flatMap((requirement) => Object.keys(requirement));
  return h(
    'span',
    { class: 'auth' },
    'Auth: ',
    h('a', { href: '#section/Security-schemes' }, schemes.join(', ')),
  );
}

export function renderOperation(spec, op, store) {
  const { operation } = op;
  return h(
    'section',
    {
      class: `operation${operation.deprecated ? ' is-deprecated' : ''}`,
      id: op.anchor,
      'data-operation-id': op.operationId,
    },
    h(
      'header',
      { class: 'operation-header' },
      h(
        'h3',
        {},
        h('a', { class: 'anchor', href: `#${op.anchor}`, 'aria-label': 'Link to this operation' }, '#'),
        operation.summary ?? op.operationId,
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
    operation.deprecated ? sunsetNotice(operation) : null,
    markdown(operation),
    parametersTable(spec, op.parameters),
    requestBody(spec, operation.requestBody),
    renderResponses(spec, operation.responses),
    renderTryIt(spec, op, store),
  );
}
