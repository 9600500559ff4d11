import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ERROR_STATUS } from '../src/errors.ts';
import { type OpenApiDocument, publicContract } from '../src/openapi/contract.ts';
import type { Node } from './openapi-routes.ts';
import {
  assertMatchesContract,
  assertUnknownRouteResponse,
  type ContractResponse,
} from './openapi-validator.ts';

const { json: openapiJson, document: contract } = publicContract();
/** The served document as parsed, `$ref`s intact. */
const openapiDocument = JSON.parse(openapiJson) as OpenApiDocument;

const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': '60',
  'x-ratelimit-remaining': '59',
  'x-ratelimit-reset': '1767268860',
  'ratelimit-policy': '"minute";q=60;w=60, "day";q=1000;w=86400',
  ratelimit: '"minute";r=59;t=60',
  'x-request-id': '3f1c9a52-8d4e-4b7a-9c61-2e5d7f0a1b34',
  vary: 'Origin',
};
const CORS_HEADERS = ['access-control-allow-origin', 'access-control-expose-headers'];
const DEPRECATION_HEADERS = {
  deprecation: '@1767225600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</docs#tag/Pets/operation/getPet>; rel="deprecation", </v1/pets>; rel="successor-version"',
};
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };

const getPet200 = (body: string, headers: ContractResponse['headers'] = {}): ContractResponse => ({
  method: 'GET',
  path: '/v1/pets/42',
  status: 200,
  headers: { ...JSON_TYPE, ...RATE_LIMIT_HEADERS, ...DEPRECATION_HEADERS, ...headers },
  body,
});

const operations = (): { path: string; method: string; operation: Node }[] =>
  Object.entries(contract.paths).flatMap(([path, item]) =>
    ['get', 'post']
      .filter((method) => item[method])
      .map((method) => ({ path, method, operation: item[method] as Node })),
  );

test('the contract is OpenAPI 3.1.0 "Pet Store API" 1.0.0, served under /v1 first', () => {
  assert.equal(openapiDocument.openapi, '3.1.0');
  assert.equal(openapiDocument.info.title, 'Pet Store API');
  assert.equal(openapiDocument.info.version, '1.0.0');
  assert.deepEqual(
    openapiDocument.servers.map((server) => server.url),
    ['/v1', 'https://api.petstore.example/v1', 'https://staging-api.petstore.example/v1'],
  );
});

test('every operation exists with its method, path and tag', () => {
  const expected = [
    ['listPets', 'get', '/pets', 'Pets'],
    ['createPet', 'post', '/pets', 'Pets'],
    ['getPet', 'get', '/pets/{petId}', 'Pets'],
    ['listStoreOrders', 'get', '/store/orders', 'Store'],
    ['getOpenApiDocument', 'get', '/openapi.json', 'Operations'],
    ['getHealth', 'get', '/healthz', 'Operations'],
    ['getReadiness', 'get', '/readyz', 'Operations'],
    ['getMetrics', 'get', '/metrics', 'Operations'],
    ['getDocs', 'get', '/docs', 'Operations'],
  ];
  const actual = operations().map(({ path, method, operation }) => [
    operation.operationId,
    method,
    path,
    ...(operation.tags as string[]),
  ]);
  assert.deepEqual(actual.sort(), expected.sort());
});

test('getPet is deprecated, sunsets on 5 December 2030 and names GET /pets as its replacement', () => {
  const getPet = openapiDocument.paths['/pets/{petId}']!.get as Node;
  assert.equal(getPet.deprecated, true);
  assert.equal(getPet['x-stability'], 'deprecated');
  assert.equal(getPet['x-sunset'], '2030-12-05T00:00:00Z');
  assert.match(String(getPet.description), /5 December 2030[\s\S]*GET \/pets` with the `status` filter/);
});

test('every response of every operation requires the rate-limit headers, X-Request-Id and Vary, plus its own', () => {
  for (const { operation } of operations()) {
    for (const [status, response] of Object.entries(operation.responses as Record<string, Node>)) {
      const headers = (response.headers ?? {}) as Record<string, Node>;
      const required = Object.keys(headers).filter((name) => headers[name]!.required);
      const expected = Object.keys(RATE_LIMIT_HEADERS);
      if (status === '401') expected.push('www-authenticate');
      if (status === '429') expected.push('retry-after');
      if (status === '201') expected.push('location');
      if (operation.operationId === 'getPet') expected.push('deprecation', 'sunset', 'link');
      if (operation.operationId === 'getDocs' && ['200', '304'].includes(status)) expected.push('etag');
      const where = `${operation.operationId} ${status}`;
      assert.deepEqual(required.map((name) => name.toLowerCase()).sort(), expected.sort(), where);
      const declared = Object.keys(headers).map((name) => name.toLowerCase());
      for (const name of CORS_HEADERS) {
        assert.ok(declared.includes(name), `${where} declares ${name}`);
        assert.equal(headers[Object.keys(headers).find((h) => h.toLowerCase() === name)!]!.required, false);
      }
    }
  }
});

test('the validator accepts a getPet 200 with an int64 categoryId, and a 429 with Retry-After', () => {
  assertMatchesContract(
    getPet200('{"id":42,"name":"Biscuit","categoryId":9223372036854775807,"status":"sold"}'),
  );
  assertMatchesContract(getPet200('{"id":43,"name":"Rex","categoryId":-9223372036854775808}'));
  assertMatchesContract({
    method: 'GET',
    path: '/v1/pets?limit=3&status=sold',
    status: 429,
    headers: { ...JSON_TYPE, ...RATE_LIMIT_HEADERS, 'retry-after': '18' },
    body: '{"code":"rate_limited","message":"slow down","status":429}',
  });
});

test('the validator rejects a Pet that breaks the contract', () => {
  const cases = [
    ['missing id', getPet200('{"name":"Rex","categoryId":3}'), /required property 'id'/],
    [
      'status null',
      getPet200('{"id":1,"name":"Rex","categoryId":3,"status":null}'),
      /body\/status must be string/,
    ],
    [
      'extra field',
      getPet200('{"id":1,"name":"Rex","categoryId":3,"owner":"Ann"}'),
      /additional properties 'owner'/,
    ],
    [
      'wrong content type',
      getPet200('{"id":1,"name":"Rex","categoryId":3}', { 'content-type': 'text/plain' }),
      /content-type is text\/plain, expected application\/json/,
    ],
    [
      'missing X-RateLimit-Limit',
      getPet200('{"id":1,"name":"Rex","categoryId":3}', { 'x-ratelimit-limit': undefined }),
      /header X-RateLimit-Limit is required but missing/,
    ],
    ['undeclared status', { ...getPet200(''), status: 418 }, /status 418 is not declared/],
  ] as const;
  for (const [cause, response, message] of cases) {
    assert.throws(() => assertMatchesContract(response), { name: 'AssertionError', message }, cause);
  }
});

test('unknown routes answer 404 not_found, wrong methods 405 method_not_allowed with Allow', () => {
  const error = (code: string, status: number) => JSON.stringify({ code, message: 'no', status });
  assertUnknownRouteResponse({
    method: 'GET',
    path: '/v1/categories',
    status: 404,
    headers: JSON_TYPE,
    body: error('not_found', 404),
  });
  const wrongMethod = {
    method: 'DELETE',
    path: '/v1/pets',
    status: 405,
    body: error('method_not_allowed', 405),
  };
  assertUnknownRouteResponse({ ...wrongMethod, headers: { ...JSON_TYPE, allow: 'GET, HEAD, POST' } });
  assert.throws(
    () => assertUnknownRouteResponse({ ...wrongMethod, headers: JSON_TYPE }),
    /Allow '' lacks get, post/,
  );
});

test('the served JSON is the same document and keeps the int64 bounds digit for digit', () => {
  assert.deepEqual(JSON.parse(openapiJson), openapiDocument);
  assert.ok(openapiJson.includes('"minimum":-9223372036854775808,"maximum":9223372036854775807'));
  assert.ok(openapiJson.includes('"categoryId":9223372036854775807'));
});

test('the error catalogue of the server is the contract: the Error code enum and the table of the introduction', () => {
  const schemas = contract.components.schemas as Record<string, { properties: { code: { enum: string[] } } }>;
  const enumerated = [...schemas.Error!.properties.code.enum].sort();
  assert.deepEqual(enumerated, Object.keys(ERROR_STATUS).sort());
  const description = String(contract.info.description);
  for (const [code, status] of Object.entries(ERROR_STATUS)) {
    assert.match(
      description,
      new RegExp(`\\| \`${code}\` \\| ${status} \\|`),
      `${code} ${status} in the table`,
    );
  }
});
