// The right-hand column of the guide sections: what the section describes, as the API shows it (HTTP
// responses built from the contract's own examples: status line, headers, body) and as code.

import { copyable } from './copy.js';
import { h } from './dom.js';
import { exampleText, mediaExamples } from './examples.js';
import { curlSample, sampleRequest } from './samples.js';

const REASONS = {
  200: 'OK',
  201: 'Created',
  400: 'Bad Request',
  401: 'Unauthorized',
  429: 'Too Many Requests',
};

/** `HTTP/1.1 429 Too Many Requests`, the named headers with their examples, a blank line, an example body. */
function httpResponse(op, status, headerNames, exampleKey) {
  const response = op?.operation.responses?.[status];
  if (!response) return undefined;
  const headers = headerNames
    .filter(
      (name) =>
        response.headers?.[name]?.example !== undefined ||
        response.headers?.[name]?.schema?.example !== undefined,
    )
    .map((name) => `${name}: ${response.headers[name].example ?? response.headers[name].schema.example}`);
  const [mediaType, media] = Object.entries(response.content ?? {})[0] ?? [];
  const examples = mediaExamples(media);
  const example = examples.find((candidate) => candidate.key === exampleKey) ?? examples[0];
  const body = example ? ['', exampleText(example.value, mediaType)] : [];
  return [`HTTP/1.1 ${status} ${REASONS[status] ?? ''}`.trim(), ...headers, ...body].join('\n');
}

const RATE_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit-Policy',
  'RateLimit',
];

/** By guide section id: the blocks to show beside it, each `[title, text]` or nothing. */
const BUILDERS = {
  'section/Authentication': ({ find, origin }) => [
    ['Request', find('listPets') && curlSample(sampleRequest(find('listPets')), origin)],
    ['Without a valid key', httpResponse(find('listPets'), '401', ['WWW-Authenticate', 'X-Request-Id'])],
  ],
  'section/Errors': ({ find }) => [
    ['An error', httpResponse(find('createPet'), '400', ['X-Request-Id'], 'invalidBody')],
  ],
  'section/Rate-limits': ({ find }) => [
    ['Every response', httpResponse(find('listPets'), '200', RATE_HEADERS, 'empty')],
    [
      'Over the limit',
      httpResponse(find('listPets'), '429', ['Retry-After', ...RATE_HEADERS], 'rateLimited'),
    ],
  ],
  'section/Paging': ({ find }) => [
    ['A page with more after it', httpResponse(find('listPets'), '200', ['Link'], 'page')],
  ],
  'section/64-bit-integers': ({ find }) => [
    ['Every digit, both ways', httpResponse(find('createPet'), '201', ['Location'], 'created')],
  ],
  'section/Idempotent-creation': ({ find, origin }) => [
    ['Request', find('createPet') && curlSample(sampleRequest(find('createPet')), origin)],
    [
      'A retry, replayed',
      httpResponse(find('createPet'), '201', ['Idempotent-Replayed', 'Location'], 'created'),
    ],
  ],
  'section/Versioning-and-deprecation': ({ find }) => [
    ['A deprecated operation', httpResponse(find('getPet'), '200', ['Deprecation', 'Sunset', 'Link'])],
  ],
};

/** The examples column of a guide section, or nothing when it has none. */
export function guideExamples(section, context) {
  const sectionId = section.id;
  const build = BUILDERS[sectionId];
  if (!build) return null;
  const find = (operationId) => context.operations.find((op) => op.operationId === operationId);
  const blocks = build({ find, origin: context.apiOrigin }).filter(([, text]) => text);
  if (blocks.length === 0) return null;
  return h(
    'aside',
    { class: 'examples-column', 'aria-label': `Examples: ${section.title}` },
    h(
      'div',
      { class: 'sticky' },
      blocks.map(([title, text]) =>
        h(
          'div',
          { class: 'panel' },
          h('div', { class: 'panel-header' }, h('span', { class: 'panel-title' }, title)),
          copyable(h('pre', {}, h('code', {}, text)), title.toLowerCase()),
        ),
      ),
    ),
  );
}
