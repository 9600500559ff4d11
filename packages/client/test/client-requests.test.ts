import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CLIENT_VERSION, createPetstoreClient, PetstoreError } from '../src/index.ts';
import {
  apiError,
  BASE_URL,
  json,
  PET_JSON,
  recordingSleep,
  scriptedFetch,
  type Step,
} from './fake-fetch.ts';

const MAX = 9_223_372_036_854_775_807n;
const MIN = -9_223_372_036_854_775_808n;

function setup(steps: Step[]) {
  const fake = scriptedFetch(steps);
  const client = createPetstoreClient({
    baseUrl: `${BASE_URL}/`,
    apiKey: 'ps_test_k',
    fetch: fake.fetch,
    ...recordingSleep(),
  });
  return { client, requests: fake.requests };
}

test('every request → Bearer key, JSON accept and the default User-Agent', async () => {
  const { client, requests } = setup([json(200, '[]')]);
  await client.listPets();
  const headers = requests[0]?.headers;
  assert.equal(headers?.get('authorization'), 'Bearer ps_test_k');
  assert.equal(headers?.get('accept'), 'application/json');
  assert.equal(headers?.get('user-agent'), `petstore-client/${CLIENT_VERSION}`);
});

test('CLIENT_VERSION → the version in package.json', async () => {
  const { default: manifest } = await import('../package.json', { with: { type: 'json' } });
  assert.equal(CLIENT_VERSION, manifest.version);
});

test('listPets → query from the params, nextCursor from Link, rate limit from the headers', async () => {
  const link = '</v1/pets?limit=2&status=sold&cursor=abc_1>; rel="next"';
  const { client, requests } = setup([json(200, `[${PET_JSON}]`, { link })]);
  const page = await client.listPets({ limit: 2, status: 'sold' });
  assert.equal(requests[0]?.url, `${BASE_URL}/pets?limit=2&status=sold`);
  assert.equal(page.nextCursor, 'abc_1');
  assert.deepEqual(page.rateLimit, { limit: 60, remaining: 59, reset: 1_767_268_860 });
  assert.deepEqual(page.pets, [{ id: 1n, name: 'Rex', categoryId: 3n, status: 'available' }]);
});

test('listPets → the last page has no nextCursor; a cursor is sent back as given', async () => {
  const { client, requests } = setup([json(200, '[]')]);
  const page = await client.listPets({ status: 'sold', cursor: 'abc_1' });
  assert.equal(requests[0]?.url, `${BASE_URL}/pets?status=sold&cursor=abc_1`);
  assert.equal('nextCursor' in page, false);
});

test('pets() → follows Link rel="next" as written until the last page', async () => {
  const pet = (id: number) => `{"id":${id},"name":"P${id}","categoryId":1}`;
  const { client, requests } = setup([
    json(200, `[${pet(1)},${pet(2)}]`, { link: '</v1/pets?limit=2&cursor=c2>; rel="next"' }),
    json(200, `[${pet(3)},${pet(4)}]`, { link: '</v1/pets?limit=2&cursor=c4>; rel="next"' }),
    json(200, `[${pet(5)}]`),
  ]);
  const ids: bigint[] = [];
  for await (const p of client.pets({ pageSize: 2 })) ids.push(p.id);
  assert.deepEqual(ids, [1n, 2n, 3n, 4n, 5n]);
  assert.deepEqual(
    requests.map((r) => r.url),
    [`${BASE_URL}/pets?limit=2`, `${BASE_URL}/pets?limit=2&cursor=c2`, `${BASE_URL}/pets?limit=2&cursor=c4`],
  );
});

test('pets() → a next link to another origin is refused: the key is never sent there', async () => {
  const { client, requests } = setup([
    json(200, `[${PET_JSON}]`, { link: '<https://evil.example/v1/pets?cursor=x>; rel="next"' }),
  ]);
  await assert.rejects(async () => {
    for await (const _ of client.pets()) {
      // drain
    }
  }, PetstoreError);
  assert.equal(requests.length, 1);
});

test('createPet → int64 categoryId sent digit for digit and parsed back exactly', async () => {
  const { client, requests } = setup([
    (request) => json(201, request.body?.replace('{', `{"id":${MAX},`) ?? ''),
    (request) => json(201, request.body?.replace('{', '{"id":2,') ?? ''),
  ]);
  const max = await client.createPet({ name: 'Big', categoryId: MAX });
  const min = await client.createPet({ name: 'Small', categoryId: MIN, status: 'sold' });
  assert.equal(requests[0]?.body, `{"name":"Big","categoryId":${MAX}}`);
  assert.equal(requests[0]?.headers.get('content-type'), 'application/json');
  assert.equal(requests[0]?.method, 'POST');
  assert.deepEqual(max.pet, { id: MAX, name: 'Big', categoryId: MAX });
  assert.deepEqual(min.pet, { id: 2n, name: 'Small', categoryId: MIN, status: 'sold' });
  assert.equal(max.replayed, false);
});

test('getPet → GET /pets/{id} with the id in decimal', async () => {
  const { client, requests } = setup([json(200, `{"id":${MAX},"name":"Big","categoryId":1}`)]);
  const { pet } = await client.getPet(MAX);
  assert.equal(requests[0]?.url, `${BASE_URL}/pets/${MAX}`);
  assert.equal(pet.id, MAX);
});

test('a 2xx that is not the documented body → unexpected_response, not retried', async () => {
  const { client, requests } = setup([json(200, '<html>'), json(200, '{"id":1}')]);
  const notJson = await client.listPets().catch((e: unknown) => e);
  assert.ok(notJson instanceof PetstoreError && notJson.code === 'unexpected_response');
  const notPets = await client.listPets().catch((e: unknown) => e);
  assert.ok(notPets instanceof PetstoreError && notPets.code === 'unexpected_response');
  assert.equal(requests.length, 2);
});

test('a 502 page from a proxy → unexpected_response with the status, retried like any 5xx', async () => {
  const html = () => new Response('<html>Bad gateway</html>', { status: 502 });
  const fake = scriptedFetch([html(), html()]);
  const client = createPetstoreClient({
    baseUrl: BASE_URL,
    apiKey: 'k',
    fetch: fake.fetch,
    retry: { maxAttempts: 2 },
    ...recordingSleep(),
  });
  const error = await client.listPets().catch((e: unknown) => e);
  assert.ok(error instanceof PetstoreError);
  assert.equal(error.code, 'unexpected_response');
  assert.equal(error.status, 502);
  assert.equal(error.rateLimit, undefined);
  assert.equal(fake.requests.length, 2);
});

test('createPetstoreClient → bad options are refused at creation', () => {
  const fetch = scriptedFetch([]).fetch;
  assert.throws(() => createPetstoreClient({ baseUrl: 'api.example/v1', apiKey: 'k', fetch }), TypeError);
  assert.throws(() => createPetstoreClient({ baseUrl: 'ftp://x/v1', apiKey: 'k', fetch }), TypeError);
  assert.throws(() => createPetstoreClient({ baseUrl: BASE_URL, apiKey: '', fetch }), TypeError);
  for (const retry of [
    { maxAttempts: 0 },
    { maxAttempts: 1.5 },
    { baseDelayMs: -1 },
    { maxDelayMs: Number.NaN },
  ]) {
    assert.throws(() => createPetstoreClient({ baseUrl: BASE_URL, apiKey: 'k', fetch, retry }), RangeError);
  }
});

test('an error body → PetstoreError fields mirror it', async () => {
  const { client } = setup([apiError(400, 'invalid_body', {}, { param: 'categoryId', requestId: 'req-9' })]);
  const error = await client.createPet({ name: 'X', categoryId: 1n }).catch((e: unknown) => e);
  assert.ok(error instanceof PetstoreError);
  assert.equal(error.name, 'PetstoreError');
  assert.deepEqual(
    [error.code, error.status, error.message, error.param, error.requestId, error.retryAfterSeconds],
    ['invalid_body', 400, 'invalid_body happened', 'categoryId', 'req-9', undefined],
  );
});
