// The "Try it" panel: sends a real request to the API with fetch, shows what came back, explains its
// rate-limit headers in plain words and follows `Link: rel="next"` to the next page.

import { h, setChildren } from './dom.js';
import { exampleText, mediaExamples } from './examples.js';
import { keyField } from './key-store.js';
import { showResult } from './try-it-result.js';

function parameterInput(parameter, id) {
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

function requestBodyText(requestBody) {
  const [first] = mediaExamples(requestBody?.content?.['application/json']);
  return first ? exampleText(first.value, 'application/json') : '{}';
}

function buildRequest(op, form, store, bodyField) {
  const value = (p) => form.elements[`${p.in}:${p.name}`]?.value.trim() ?? '';
  const missing = op.parameters.filter((p) => p.required && value(p) === '').map((p) => p.name);
  if (missing.length) return { error: `Fill in ${missing.join(', ')} first.` };
  const path = op.url.replace(/\{([^}]+)\}/g, (_, name) =>
    encodeURIComponent(value(op.parameters.find((p) => p.in === 'path' && p.name === name) ?? {})),
  );
  const query = new URLSearchParams();
  const headers = {};
  for (const parameter of op.parameters) {
    if (value(parameter) === '') continue;
    if (parameter.in === 'query') query.append(parameter.name, value(parameter));
    if (parameter.in === 'header') headers[parameter.name] = value(parameter);
  }
  if (op.security.length > 0 && store.get()) headers.Authorization = `Bearer ${store.get()}`;
  const body = bodyField ? bodyField.value : undefined;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return { method: op.method.toUpperCase(), target: query.size ? `${path}?${query}` : path, headers, body };
}

async function send(context, request, output, button, page = 1) {
  button.disabled = true;
  setChildren(output, h('p', { class: 'muted' }, 'Sending…'));
  const started = performance.now();
  try {
    const response = await fetch(new URL(request.target, context.apiOrigin), {
      method: request.method,
      headers: request.headers,
      body: request.body,
      cache: 'no-store',
    });
    const text = await response.text();
    const onNext = (target) =>
      send(context, { ...request, target, body: undefined }, output, button, page + 1);
    showResult(
      output,
      context,
      request,
      response,
      text,
      Math.round(performance.now() - started),
      page,
      onNext,
    );
  } catch (error) {
    setChildren(output, h('p', { class: 'result-error' }, `The request could not be sent: ${error.message}`));
  } finally {
    button.disabled = false;
  }
}

export function renderTryIt(op, context) {
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
        { id: `${prefix}-body`, name: 'body', rows: 6, spellcheck: 'false', class: 'body-editor' },
        requestBodyText(requestBody),
      )
    : null;
  const fields = op.parameters.map((parameter) => {
    const id = `${prefix}-${parameter.in}-${parameter.name}`;
    const input = parameterInput(parameter, id);
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
  const button = h('button', { type: 'submit', class: 'send' }, `Send ${op.method.toUpperCase()}`);
  const form = h(
    'form',
    { class: 'try-it-form', novalidate: true },
    op.security.length > 0
      ? h(
          'div',
          { class: 'field-row' },
          h('label', { for: `${prefix}-key` }, 'API key'),
          keyField(context.store, `${prefix}-key`),
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
      button,
      h('span', { class: 'muted' }, `Sends a real request to ${context.apiOrigin}.`),
    ),
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const request = buildRequest(op, form, context.store, bodyField);
    if (request.error) setChildren(output, h('p', { class: 'result-error' }, request.error));
    else send(context, request, output, button);
  });
  return h(
    'details',
    { class: 'try-it', 'data-try-it': 'enabled' },
    h('summary', {}, 'Try it'),
    form,
    output,
  );
}
