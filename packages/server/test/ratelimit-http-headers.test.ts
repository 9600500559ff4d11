import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { getPetDeprecation } from './contract-deprecation.ts';
import { FakeClock } from '../src/time/clock.ts';
import { makeTestApp, type RequestOptions, type TestApp, type TestResponse } from './harness.ts';
import { assertMatchesContract, assertUnknownRouteResponse } from './openapi-validator.ts';
import { assertLimitHeaders, assertRefused, errorOf, FREE_POLICY, repeat } from './ratelimit-http-support.ts';

async function open(t: TestContext, clock?: FakeClock): Promise<TestApp> {
  const app = await makeTestApp({ clock });
  t.after(() => app.close());
  return app;
}

const pet = { name: 'Rex', categoryId: 1 };

test('every /v1 status → carries X-RateLimit-*, RateLimit-Policy and RateLimit', async (t) => {
  const app = await open(t);
  const created = await app.request({ method: 'POST', url: '/v1/pets', body: pet });
  await app.request({ method: 'POST', url: '/v1/pets', headers: { 'idempotency-key': 'k' }, body: pet });
  const cases: [number, RequestOptions][] = [
    [200, { url: '/v1/pets' }],
    [200, { url: created.headers.location! }],
    [201, { method: 'POST', url: '/v1/pets', body: pet }],
    [201, { method: 'POST', url: '/v1/pets', headers: { 'idempotency-key': 'k' }, body: pet }],
    [400, { url: '/v1/pets?limit=0' }],
    [400, { method: 'POST', url: '/v1/pets', body: { name: '' } }],
    [401, { url: '/v1/pets', key: null }],
    [401, { url: '/v1/store/orders', key: 'ps_test_not-a-key' }],
    [404, { url: '/v1/pets/999' }],
    [404, { url: '/v1/categories', unchecked: true }],
    [405, { method: 'DELETE', url: '/v1/pets', unchecked: true }],
    [
      413,
      { method: 'POST', url: '/v1/pets', body: JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 }) },
    ],
    [415, { method: 'POST', url: '/v1/pets', headers: { 'content-type': 'text/plain' }, body: 'Rex' }],
    [
      422,
      { method: 'POST', url: '/v1/pets', headers: { 'idempotency-key': 'k' }, body: { ...pet, name: 'Max' } },
    ],
    [501, { url: '/v1/store/orders' }],
  ];
  for (const [status, request] of cases) {
    const response = await app.request(request);
    assert.equal(response.status, status, `${request.method ?? 'GET'} ${request.url}: ${response.body}`);
    assertLimitHeaders(response, { limit: status === 401 ? 60 : 1_000 });
    if (request.unchecked)
      assertUnknownRouteResponse({ method: request.method ?? 'GET', path: request.url, ...response });
  }
});

test('GET /v1/pets/{petId} → 410 gone after the sunset still carries the rate-limit headers', async (t) => {
  const app = await open(t, new FakeClock(getPetDeprecation.sunsetAt));
  const response = await app.request({ url: '/v1/pets/1' });
  assert.equal(response.status, 410);
  assertLimitHeaders(response, { limit: 1_000, remaining: 999 });
});

test('GET /v1/pets → 429 rate_limited carries the headers of the refusing window and Retry-After', async (t) => {
  const app = await open(t);
  const { secret: key } = await app.createKey('free');
  const [response] = (await repeat(app, 61, { url: '/v1/pets', key })).slice(60);
  assertRefused(response!, 'rate_limited', 60);
  assertLimitHeaders(response!, { limit: 60, policy: FREE_POLICY });
});

test('GET /v1/pets → 401 without a key is limited per address at the Free rates; the 61st is 429', async (t) => {
  const app = await open(t);
  const bad = ['', 'ps_test_unknown', `ps_test_${'A'.repeat(43)}`, 'Basic dXNlcjpwYXNz'];
  for (let i = 0; i < 60; i++) {
    const token = bad[i % bad.length]!;
    const response = await app.request({ url: '/v1/pets', key: null, headers: { authorization: token } });
    assert.equal(response.status, 401, response.body);
    assert.equal(errorOf(response).code, 'unauthorized');
    assertLimitHeaders(response, { limit: 60, remaining: 59 - i, policy: FREE_POLICY });
  }
  assertRefused(await app.request({ url: '/v1/pets', key: null }), 'rate_limited', 60);
  assertRefused(await app.request({ method: 'POST', url: '/v1/pets', key: null, body: pet }), 'rate_limited');

  const withKey = await app.request({ url: '/v1/pets' });
  assert.equal(withKey.status, 200, 'a valid key has its own bucket');
  const spec = await app.request({ url: '/v1/openapi.json', key: null });
  assert.equal(spec.status, 200, 'the public document counts in a budget of its own');
  assertLimitHeaders(spec, { limit: 1_200, remaining: 1_199 });
});

test('GET /v1/pets → 401 requests from another client address count in that address’s bucket', async (t) => {
  const app = await open(t);
  await repeat(app, 61, { url: '/v1/pets', key: null });
  const send = async (remoteAddress: string): Promise<TestResponse> => {
    const reply = await app.app.inject({ url: '/v1/pets', remoteAddress });
    const response = {
      status: reply.statusCode,
      headers: reply.headers as Record<string, string>,
      body: reply.body,
    };
    assertMatchesContract({ method: 'GET', path: '/v1/pets', ...response });
    return { ...response, json: () => JSON.parse(reply.body) };
  };
  assertRefused(await send('127.0.0.1'), 'rate_limited');
  const other = await send('192.0.2.7');
  assert.equal(other.status, 401);
  assertLimitHeaders(other, { limit: 60, remaining: 59 });
});
