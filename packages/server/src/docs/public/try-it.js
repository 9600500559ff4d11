// The "Try it" panel: sends a real request to this server with fetch and shows what came back.

import { h } from './dom.js';
import { exampleText, mediaExamples } from './examples.js';
import { formatBody } from './json.js';
import { keyField } from './key-store.js';
import { statusClass } from './responses.js';
import { API_ORIGIN } from './site.js';

const quote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

function parameterInput(spec, parameter, id) {
  const schema = parameter.schema ?? {};
  const example = parameter.example ?? schema.example;
  if (Array.isArray(schema.enum)) {
    const options = ['', ...schema.enum].map((value) =>
      h('option', { value }, value === '' ? '(not sent)' : value),
    );
    return h('select', { id }, options);
  }
  return h('input', {
    id,
    type: 'text',
    autocomplete: 'off',
    spellcheck: 'false',
    required: parameter.required,
    value: parameter.in === 'path' && example !== undefined ? String(example) : undefined,
    placeholder: example !== undefined ? String(example) : parameter.required ? 'required' : '(not sent)',
  });
}

function requestBodyText(spec, requestBody) {
  const media = requestBody?.content?.['application/json'];
  const [first] = mediaExamples(spec, media);
  return first ? exampleText(first.value, 'application/json') : '{}';
}

function buildRequest(op, form, store, bodyField) {
  const values = Object.fromEntries(
    op.parameters.map((p) => [`${p.in}:${p.name}`, form.elements[`${p.in}:${p.name}`]?.value.trim() ?? '']),
  );
  const missing = op.parameters
    .filter((p) => p.required && values[`${p.in}:${p.name}`] === '')
    .map((p) => p.name);
  if (missing.length) return { error: `Fill in ${missing.join(', ')} first.` };
  const path = op.url.replace(/\{([^}]+)\}/g, (_, name) => encodeURIComponent(values[`path:${name}`] ?? ''));
  const query = new URLSearchParams();
  const headers = {};
  for (const parameter of op.parameters) {
    const value = values[`${parameter.in}:${parameter.name}`];
    if (value === '') continue;
    if (parameter.in === 'query') query.append(parameter.name, value);
    if (parameter.in === 'header') headers[parameter.name] = value;
  }
  if (op.security.length > 0 && store.get()) headers.Authorization = `Bearer ${store.get()}`;
  const body = bodyField ? bodyField.value : undefined;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const target = query.size ? `${path}?${query}` : path;
  return { method: op.method.toUpperCase(), target, headers, body };
}

function curl(request) {
  const parts = [
    `curl -i -X ${request.method} ${quote(new URL(request.target, API_ORIGIN || location.origin).href)}`,
  ];
  for (const [name, value] of Object.entries(request.headers)) {
    const shown = name === 'Authorization' ? 'Bearer $PETSTORE_API_KEY' : value;
    parts.push(`-H ${name === 'Authorization' ? `"${name}: ${shown}"` : quote(`${name}: ${shown}`)}`);
  }
  if (request.body !== undefined) parts.push(`--data-raw ${quote(request.body)}`);
  return parts.join(' \\\n  ');
}

function showResult(output, request, response, text, ms) {
  const headers = [...response.headers.entries()].map(([name, value]) =>
    h('tr', {}, h('td', {}, h('code', {}, name)), h('td', {}, h('code', {}, value))),
  );
  output.replaceChildren(
    h(
      'div',
      { class: 'result-status' },
      h(
        'span',
        { class: `status ${statusClass(String(response.status))}`, 'data-status': response.status },
        response.status,
      ),
      h('span', {}, response.statusText),
      h('span', { class: 'muted' }, `${request.method} ${request.target} · ${ms} ms`),
    ),
    h(
      'details',
      { class: 'result-headers' },
      h('summary', {}, `Response headers (${headers.length})`),
      h('table', {}, h('tbody', {}, headers)),
    ),
    h('h5', {}, 'Response body'),
    h('pre', { class: 'result-body' }, h('code', {}, formatBody(text) || '(empty)')),
    h(
      'details',
      { class: 'result-curl' },
      h('summary', {}, 'The same request with curl'),
      h('pre', {}, h('code', {}, curl(request))),
    ),
  );
}

async function send(op, form, store, bodyField, output) {
  const request = buildRequest(op, form, store, bodyField);
  if (request.error) {
    output.replaceChildren(h('p', { class: 'result-error' }, request.error));
    return;
  }
  const button = form.querySelector('button[type="submit"]');
  button.disabled = true;
  output.replaceChildren(h('p', { class: 'muted' }, 'Sending…'));
  const started = performance.now();
  try {
    const response = await fetch(API_ORIGIN + request.target, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      cache: 'no-store',
    });
    const text = await response.text();
    showResult(output, request, response, text, Math.round(performance.now() - started));
  } catch (error) {
    output.replaceChildren(
      h('p', { class: 'result-error' }, `The request could not be sent: ${error.message}`),
    );
  } finally {
    button.disabled = false;
  }
}

export function renderTryIt(spec, op, store) {
  if (!op.tryIt) {
    return h(
      'div',
      { class: 'try-it-disabled', 'data-try-it': 'disabled' },
      h('strong', {}, 'Try it is disabled for this operation. '),
      'It cannot be called from this page; use your own HTTP client.',
    );
  }
  const prefix = `try-${op.operationId}`;
  const requestBody = op.operation.requestBody;
  const bodyField = requestBody
    ? h(
        'textarea',
        { id: `${prefix}-body`, name: 'body', rows: 7, spellcheck: 'false', class: 'body-editor' },
        requestBodyText(spec, requestBody),
      )
    : null;
  const fields = op.parameters.map((parameter) => {
    const id = `${prefix}-${parameter.in}-${parameter.name}`;
    const input = parameterInput(spec, parameter, id);
    input.name = `${parameter.in}:${parameter.name}`;
    return h(
      'div',
      { class: 'field-row' },
      h(
        'label',
        { for: id },
        h('code', {}, parameter.name),
        h('span', { class: 'muted' }, ` ${parameter.in}`),
        parameter.required ? h('span', { class: 'required' }, 'required') : null,
      ),
      input,
    );
  });
  const output = h('div', { class: 'try-it-result', 'aria-live': 'polite' });
  const form = h(
    'form',
    { class: 'try-it-form', novalidate: true },
    op.security.length > 0
      ? h(
          'div',
          { class: 'field-row' },
          h('label', { for: `${prefix}-key` }, 'API key'),
          keyField(store, `${prefix}-key`),
        )
      : h('p', { class: 'muted' }, 'No API key is needed for this operation.'),
    fields,
    bodyField
      ? h(
          'div',
          { class: 'field-row body-row' },
          h('label', { for: bodyField.id }, 'Body ', h('span', { class: 'muted' }, 'application/json')),
          bodyField,
        )
      : null,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', class: 'send' }, `Send ${op.method.toUpperCase()}`),
      h('span', { class: 'muted' }, 'Sends a real request to this server.'),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    send(op, form, store, bodyField, output);
  });
  return h(
    'details',
    { class: 'try-it', 'data-try-it': 'enabled' },
    h('summary', {}, 'Try it'),
    form,
    output,
  );
}
