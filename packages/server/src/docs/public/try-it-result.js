// What Try it shows of a response: status, the rate-limit and deprecation headers in plain words, the
// next page's button, the body, every header, and the same request as curl.

import { copyable } from './copy.js';
import { h, setChildren } from './dom.js';
import { formatBody, parseLossless } from './json.js';
import { statusClass } from './responses.js';
import { deprecationWords, parseLink, rateLimitWords } from './response-words.js';

const shellQuote = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The request as curl, the key left as an environment variable. */
function curlOf(request, origin) {
  const lines = [`curl -i -X ${request.method} ${shellQuote(new URL(request.target, origin).href)}`];
  for (const [name, value] of Object.entries(request.headers)) {
    lines.push(
      name === 'Authorization'
        ? '-H "Authorization: Bearer $PETSTORE_API_KEY"'
        : `-H ${shellQuote(`${name}: ${value}`)}`,
    );
  }
  if (request.body !== undefined) lines.push(`-d ${shellQuote(request.body)}`);
  return lines.join(' \\\n  ');
}

function errorCode(text) {
  try {
    return parseLossless(text)?.code;
  } catch {
    return undefined;
  }
}

function explain(response, text) {
  const get = (name) => response.headers.get(name);
  const sentences = rateLimitWords(get, { status: response.status, code: errorCode(text) });
  const deprecated = deprecationWords(get);
  if (deprecated) sentences.push(deprecated);
  if (sentences.length === 0) return null;
  return h(
    'ul',
    { class: 'result-words' },
    sentences.map((sentence) => h('li', {}, sentence)),
  );
}

export function showResult(output, context, request, response, text, ms, page, onNext) {
  const headers = [...response.headers.entries()].map(([name, value]) =>
    h('tr', {}, h('td', {}, h('code', {}, name)), h('td', {}, h('code', {}, value))),
  );
  const next = parseLink(response.headers.get('link')).next;
  setChildren(
    output,
    h(
      'div',
      { class: 'result-status' },
      h(
        'span',
        { class: `status ${statusClass(String(response.status))}`, 'data-status': response.status },
        response.status,
      ),
      h('span', {}, response.statusText),
      h(
        'span',
        { class: 'muted' },
        `${request.method} ${request.target} · ${ms} ms${page > 1 ? ` · page ${page}` : ''}`,
      ),
    ),
    explain(response, text),
    next
      ? h(
          'div',
          { class: 'next-page' },
          h(
            'button',
            { type: 'button', class: 'next-button', onclick: () => onNext(next) },
            `Next page (${page + 1})`,
          ),
          h('span', { class: 'muted' }, 'follows the Link header (rel="next")'),
        )
      : page > 1 && response.ok
        ? h('p', { class: 'muted', 'data-last-page': '' }, 'Last page: the response has no next link.')
        : null,
    h('h5', {}, 'Response body'),
    copyable(
      h('pre', { class: 'result-body' }, h('code', {}, formatBody(text) || '(empty)')),
      'response body',
    ),
    h(
      'details',
      { class: 'result-headers' },
      h('summary', {}, `Response headers (${headers.length})`),
      h('div', { class: 'table-wrap', tabindex: '0' }, h('table', {}, h('tbody', {}, headers))),
    ),
    h(
      'details',
      { class: 'result-curl' },
      h('summary', {}, 'The same request with curl'),
      copyable(h('pre', {}, h('code', {}, curlOf(request, context.apiOrigin))), 'curl command'),
    ),
  );
}
