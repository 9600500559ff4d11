import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { ADDRESS_BUDGETS } from '../src/ratelimit/address-budgets.ts';
import { concretePath, makeTestApp, type TestApp, type TestResponse } from './harness.ts';
import { assertMatchesContract } from './openapi-validator.ts';
import { assertLimitHeaders, assertRefused, MINUTE } from './ratelimit-http-support.ts';

const MONITORING = ADDRESS_BUDGETS.monitoring;
const PUBLIC = ADDRESS_BUDGETS.public;

async function open(t: TestContext): Promise<TestApp> {
  const app = await makeTestApp();
  t.after(() => app.close());
  return app;
}

const anonymous = (app: TestApp, url: string) => app.request({ url, key: null });

/** A request from another client address, checked against the contract like the harness's. */
async function from(app: TestApp, remoteAddress: string, url: string): Promise<TestResponse> {
  const reply = await app.app.inject({ url, remoteAddress });
  const response = {
    status: reply.statusCode,
    headers: reply.headers as Record<string, string>,
    body: reply.body,
  };
  assertMatchesContract({ method: 'GET', path: url, ...response });
  return { ...response, json: () => JSON.parse(reply.body) };
}

test('every public route → limited per client address in the budget the route table gives it', async (t) => {
  const app = await open(t);
  // The API host's public routes; pages (dashboard, docs sites) are covered by their own suites.
  const publicRoutes = app.app.routeTable.filter(
    (route) => route.config.access === 'public' && !route.config.htmlErrors,
  );
  assert.deepEqual(publicRoutes.map((route) => route.config.operationId).sort(), [
    'getDocs',
    'getDocsAsset',
    'getHealth',
    'getManageDocs',
    'getManageDocument',
    'getMetrics',
    'getOpenApiDocument',
    'getReadiness',
    'redirectDocsSlash',
    'redirectToDocs',
    'tlsAsk',
  ]);
  for (const route of publicRoutes) {
    const { rateLimited, addressBudget } = route.config;
    assert.equal(rateLimited, true, route.url);
    const budget = ADDRESS_BUDGETS[addressBudget!];
    const ask = route.config.operationId === 'tlsAsk'; // the TLS proxy's question: no such site here
    const unchecked = [
      'getDocsAsset',
      'tlsAsk',
      'redirectToDocs',
      'redirectDocsSlash',
      'getManageDocs',
    ].includes(route.config.operationId); // outside the contract
    const url = concretePath(route.url) + (ask ? '?domain=nothing.example' : '');
    // The TLS proxy asks on the internal listener, the only place that answers it.
    const response = ask ? await app.internal(url) : await app.request({ url, key: null, unchecked });
    const redirects: Record<string, number> = { redirectToDocs: 302, redirectDocsSlash: 301 };
    const expected = ask ? 404 : (redirects[route.config.operationId] ?? 200);
    assert.equal(response.status, expected, route.url);
    assertLimitHeaders(response, { limit: budget.perMinute });
  }
});

/** Uses `count` requests of an address's budget through the limiter itself, as requests would. */
async function spend(
  app: TestApp,
  budget: keyof typeof ADDRESS_BUDGETS,
  count: number,
  address = '127.0.0.1',
) {
  const { bucket, ...limits } = ADDRESS_BUDGETS[budget];
  for (let i = 0; i < count; i++) await app.limiter.check({ bucket: `${bucket}:${address}`, ...limits });
}

test('GET /healthz → 200 for a load balancer probing 100 times a second while its address exhausts every other budget', async (t) => {
  const app = await open(t);
  // The first 59 seconds are counted through the limiter (what each request's check does), the last
  // one through HTTP: every probe of the minute's 6,000 is admitted.
  for (let second = 0; second < 60; second++) {
    const http = second === 59;
    // Traffic of other kinds from the same address, over its own budgets within the minute.
    if (http) {
      for (let i = 0; i < 2; i++) await anonymous(app, '/v1/pets');
      for (let i = 0; i < 25; i++) await anonymous(app, '/docs');
    } else {
      await spend(app, 'api', 2);
      await spend(app, 'public', 25);
    }
    for (let probe = 0; probe < 100; probe++) {
      if (!http) {
        const { bucket, ...limits } = MONITORING;
        const decision = await app.limiter.check({ bucket: `${bucket}:127.0.0.1`, ...limits });
        assert.equal(decision.allowed, true, `second ${second}, probe ${probe}`);
        continue;
      }
      const response = await anonymous(app, probe % 2 ? '/healthz' : '/readyz');
      assert.equal(response.status, 200, `second ${second}, probe ${probe}: ${response.body}`);
    }
    if (http) {
      // By now refused, and for ignoring the refusals banned, in the address's API and public buckets.
      for (const url of ['/v1/pets', '/docs']) assertRefused(await anonymous(app, url), 'temporarily_banned');
    }
    app.clock.advance(1_000);
  }
});

test('GET /healthz → 429 rate_limited with Retry-After once one address sends more than 6,000 probes a minute', async (t) => {
  const app = await open(t);
  await spend(app, 'monitoring', MONITORING.perMinute - 30);
  // The last 30 of the minute's probes through HTTP: all three routes count in the one bucket.
  for (let i = 0; i < 30; i++) {
    const response = await app.app.inject({ url: ['/healthz', '/metrics', '/readyz'][i % 3]! });
    assert.equal(response.statusCode, 200, `probe ${i}`);
  }
  const refused = await anonymous(app, '/healthz');
  assertRefused(refused, 'rate_limited', 60);
  assertLimitHeaders(refused, { limit: MONITORING.perMinute, remaining: 0 });
  assertRefused(await anonymous(app, '/readyz'), 'rate_limited');
  assertRefused(await anonymous(app, '/metrics'), 'rate_limited');

  const elsewhere = await from(app, '192.0.2.7', '/healthz');
  assert.equal(elsewhere.status, 200, 'another address has its own bucket');
  assertLimitHeaders(elsewhere, { limit: MONITORING.perMinute, remaining: MONITORING.perMinute - 1 });
  const api = await anonymous(app, '/v1/pets');
  assert.equal(api.status, 401, 'the API budget of the address is untouched');
  assertLimitHeaders(api, { limit: 60, remaining: 59 });

  app.clock.advance(MINUTE);
  assert.equal((await anonymous(app, '/healthz')).status, 200, 'the next minute probes again');
});

test('GET /docs and GET /v1/openapi.json → 429 after 1,200 requests a minute from one address, in one shared bucket', async (t) => {
  const app = await open(t);
  await spend(app, 'public', PUBLIC.perMinute - 30);
  // The last 30 through HTTP: the page, the document and the assets count in the one bucket.
  for (let i = 0; i < 30; i++) {
    const url = ['/docs', '/v1/openapi.json', '/docs/assets/app.js'][i % 3]!;
    const response = await app.app.inject({ url });
    assert.equal(response.statusCode, 200, `${url} #${i}`);
  }
  for (const url of ['/docs', '/v1/openapi.json']) {
    const refused = await anonymous(app, url);
    assertRefused(refused, 'rate_limited', 60);
    assertLimitHeaders(refused, { limit: PUBLIC.perMinute, remaining: 0 });
  }
  const asset = await app.app.inject({ url: '/docs/assets/app.js' });
  assert.equal(asset.statusCode, 429);

  const probe = await anonymous(app, '/healthz');
  assertLimitHeaders(probe, { limit: MONITORING.perMinute, remaining: MONITORING.perMinute - 1 });
  assert.equal((await from(app, '192.0.2.7', '/docs')).status, 200, 'another address has its own bucket');
});

test('GET /nope → 404 outside /v1 still counts in the API budget of the address, not the public one', async (t) => {
  const app = await open(t);
  const response = await app.request({ url: '/nope', key: null, unchecked: true });
  assert.equal(response.status, 404);
  assertLimitHeaders(response, { limit: 60, remaining: 59 });
  const docs = await anonymous(app, '/docs');
  assertLimitHeaders(docs, { limit: PUBLIC.perMinute, remaining: PUBLIC.perMinute - 1 });
});
