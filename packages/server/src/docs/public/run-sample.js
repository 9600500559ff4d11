// "Run in this page": the TypeScript sample of an operation executed by the browser build of the typed
// client (served at /docs/assets/petstore-client.js), with the API key typed into the page.

import { copyable } from './copy.js';
import { h, setChildren } from './dom.js';
import { stringifyPretty } from './json.js';
import { argumentValue, clientCall } from './samples.js';

const CLIENT_MODULE = '/docs/assets/petstore-client.js';

async function run(request, context, output, button) {
  const apiKey = context.store.get();
  if (!apiKey) {
    setChildren(
      output,
      h('p', { class: 'result-error' }, 'Enter your API key first (Authentication, at the top of the page).'),
    );
    return;
  }
  button.disabled = true;
  setChildren(output, h('p', { class: 'muted' }, 'Running…'));
  try {
    const { createPetstoreClient } = await import(CLIENT_MODULE);
    const petstore = createPetstoreClient({ baseUrl: `${context.apiOrigin}${request.base}`, apiKey });
    const { method, args } = clientCall(request);
    const result = await petstore[method](...args.map(({ value, schema }) => argumentValue(value, schema)));
    setChildren(
      output,
      h('p', { class: 'muted' }, 'result ='),
      copyable(h('pre', { class: 'run-result' }, h('code', {}, stringifyPretty(result))), 'result'),
    );
  } catch (error) {
    const fields = error?.name === 'PetstoreError' ? ` (${error.status} ${error.code})` : '';
    setChildren(
      output,
      h(
        'p',
        { class: 'result-error', 'data-error': error?.code ?? 'error' },
        `${error.name}${fields}: ${error.message}`,
      ),
    );
  } finally {
    button.disabled = false;
  }
}

/** The Run button and where its result goes, under a TypeScript sample the client can run. */
export function runInPage(request, context) {
  const output = h('div', { class: 'run-output', 'aria-live': 'polite' });
  const button = h('button', { type: 'button', class: 'run-button' }, 'Run in this page');
  button.addEventListener('click', () => run(request, context, output, button));
  return h(
    'div',
    { class: 'run' },
    h(
      'div',
      { class: 'run-bar' },
      button,
      h('span', { class: 'muted' }, 'Sends a real request with the typed client.'),
    ),
    output,
  );
}
