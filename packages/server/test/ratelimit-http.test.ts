import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import type { Plan } from '../src/storage/records.ts';
import { makeTestApp, type RequestOptions, type TestApp } from './harness.ts';
import {
  assertLimitHeaders,
  assertRefused,
  FREE_POLICY,
  MINUTE,
  NEXT_MIDNIGHT,
  NOON,
  openFileApp,
  repeat,
} from './ratelimit-http-support.ts';

async function open(t: TestContext): Promise<TestApp> {
  const app = await makeTestApp();
  t.after(() => app.close());
  return app;
}

const PLANS: [Plan, number, number][] = [
  ['free', 60, 1_000],
  ['pro', 300, 10_000],
  ['business', 1_000, 100_000],
];

for (const [plan, perMinute, perDay] of PLANS) {
  test(`GET /v1/pets → X-RateLimit-Limit ${perMinute} and the ${plan} policy for a ${plan} key`, async (t) => {
    const app = await open(t);
    const { secret } = await app.createKey(plan);
    const response = await app.request({ url: '/v1/pets', key: secret });
    assert.equal(response.status, 200);
    assertLimitHeaders(response, {
      limit: perMinute,
      remaining: perMinute - 1,
      reset: NOON + MINUTE,
      policy: `"minute";q=${perMinute};w=60, "day";q=${perDay};w=86400`,
    });
    assert.equal(response.headers.ratelimit, `"minute";r=${perMinute - 1};t=60`);
  });
}

test('GET /v1/pets → 429 rate_limited when an enterprise key spends its own minute, then day, limit', async (t) => {
  const app = await open(t);
  const { secret: key } = await app.createKey('enterprise', { perMinute: 5, perDay: 8 });
  const first = await app.request({ url: '/v1/pets', key });
  assertLimitHeaders(first, { limit: 5, remaining: 4, policy: '"minute";q=5;w=60, "day";q=8;w=86400' });
  await repeat(app, 4, { url: '/v1/pets', key });
  assertRefused(await app.request({ url: '/v1/pets', key }), 'rate_limited', 60);

  app.clock.advance(MINUTE);
  const ok = await repeat(app, 3, { url: '/v1/pets', key });
  assert.deepEqual(
    ok.map((r) => [r.status, r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']]),
    [
      [200, '8', '2'],
      [200, '8', '1'],
      [200, '8', '0'],
    ],
    'the window closer to exhaustion is reported',
  );
  const refused = await app.request({ url: '/v1/pets', key });
  assertRefused(refused, 'rate_limited', (NEXT_MIDNIGHT - NOON - MINUTE) / 1_000);
  assertLimitHeaders(refused, { limit: 8, reset: NEXT_MIDNIGHT });
});

test('GET /v1/pets → 429 rate_limited after a Free key spends 1,000 in a day, until 00:00 UTC', async (t) => {
  const app = await open(t);
  const { secret: key } = await app.createKey('free');
  for (let minute = 0; minute < 17; minute++) {
    const burst = await repeat(app, minute < 16 ? 60 : 40, { url: '/v1/pets?limit=1', key, unchecked: true });
    assert.ok(burst.every((r) => r.status === 200));
    app.clock.advance(MINUTE);
  }
  const refused = await app.request({ url: '/v1/pets', key });
  assertRefused(refused, 'rate_limited');
  assertLimitHeaders(refused, { limit: 1_000, reset: NEXT_MIDNIGHT });
  assert.equal(refused.headers['retry-after'], String((NEXT_MIDNIGHT - app.clock.now()) / 1_000));

  app.clock.set(NEXT_MIDNIGHT - 1);
  assertRefused(await app.request({ url: '/v1/pets', key }), 'rate_limited', 1);
  app.clock.set(NEXT_MIDNIGHT);
  const nextDay = await app.request({ url: '/v1/pets', key });
  assert.equal(nextDay.status, 200);
  assertLimitHeaders(nextDay, { limit: 60, remaining: 59 });
});

test('every /v1 operation → counts against the key’s minute window; the 61st of any is 429', async (t) => {
  const app = await open(t);
  const { secret: key } = await app.createKey('free');
  const created = await app.request({
    method: 'POST',
    url: '/v1/pets',
    key,
    body: { name: 'Rex', categoryId: 1 },
  });
  const operations: RequestOptions[] = [
    { url: '/v1/pets', key },
    { method: 'POST', url: '/v1/pets', key, body: { name: 'Max', categoryId: 2 } },
    { url: created.headers.location!, key },
    { url: '/v1/store/orders', key },
    { url: '/v1/pets?limit=0', key },
    { url: '/v1/pets/999', key },
    { url: '/v1/categories', key, unchecked: true },
    { method: 'DELETE', url: '/v1/pets', key, unchecked: true },
  ];
  for (let i = 1; i < 60; i++) {
    const response = await app.request(operations[i % operations.length]!);
    assertLimitHeaders(response, { limit: 60, remaining: 59 - i });
  }
  for (const operation of operations) assertRefused(await app.request(operation), 'rate_limited');
});

test('GET /v1/pets → a Free key’s 60th request shows Remaining 0 and the 61st is the first 429', async (t) => {
  const app = await open(t);
  const { secret: key } = await app.createKey('free');
  const responses = await repeat(app, 61, { url: '/v1/pets', key });
  responses.slice(0, 60).forEach((response, i) => {
    assert.equal(response.status, 200, `request ${i + 1}`);
    assertLimitHeaders(response, { limit: 60, remaining: 59 - i });
  });
  const refused = responses[60]!;
  assertRefused(refused, 'rate_limited', 60);
  assert.deepEqual(JSON.parse(refused.body), {
    code: 'rate_limited',
    message: 'rate limit exceeded: retry after 60 s',
    status: 429,
    requestId: refused.headers['x-request-id'],
  });
  assertLimitHeaders(refused, { limit: 60, reset: NOON + MINUTE, policy: FREE_POLICY });
  assert.equal(refused.headers.ratelimit, '"minute";r=0;t=60');
});

test('GET /v1/pets → 429 until exactly Retry-After seconds have passed, never longer', async (t) => {
  const app = await open(t);
  const { secret: key } = await app.createKey('free');
  app.clock.advance(437);
  for (let i = 0; i < 60; i++) {
    assert.equal((await app.request({ url: '/v1/pets', key })).status, 200);
    app.clock.advance(613);
  }
  const refused = await app.request({ url: '/v1/pets', key });
  const retryAfter = Number(refused.headers['retry-after']);
  assertRefused(refused, 'rate_limited');
  const refusedAt = app.clock.now();
  app.clock.set(refusedAt + (retryAfter - 1) * 1_000);
  assertRefused(await app.request({ url: '/v1/pets', key }), 'rate_limited', 1);
  app.clock.set(refusedAt + retryAfter * 1_000);
  assert.equal((await app.request({ url: '/v1/pets', key })).status, 200);
});

test('GET /v1/pets → refused requests use no quota of either window', async (t) => {
  const app = await open(t);
  const { secret: key } = await app.createKey('enterprise', { perMinute: 3, perDay: 5 });
  await repeat(app, 3, { url: '/v1/pets', key });
  const refused = await repeat(app, 10, { url: '/v1/pets', key });
  for (const response of refused) assertRefused(response, 'rate_limited');
  app.clock.advance(MINUTE);
  const next = await repeat(app, 3, { url: '/v1/pets', key });
  assert.deepEqual(
    next.map((r) => [r.status, r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']]),
    [
      [200, '5', '1'],
      [200, '5', '0'],
      [429, '5', '0'],
    ],
  );
});

test('GET /v1/pets → a plan changed by another process (keys set-plan) applies to the next request', async (t) => {
  const app = await openFileApp(t);
  const { secret: key, id } = await app.createKey('free');
  assertLimitHeaders(await app.request({ url: '/v1/pets', key }), { limit: 60, remaining: 59 });
  const cli = await app.otherConnection();

  assert.equal(await cli.keys.setPlan(id, 'pro', null, null), true);
  assertLimitHeaders(await app.request({ url: '/v1/pets', key }), {
    limit: 300,
    remaining: 298,
    policy: '"minute";q=300;w=60, "day";q=10000;w=86400',
  });

  await cli.keys.setPlan(id, 'enterprise', 2, 50);
  const refused = await app.request({ url: '/v1/pets', key });
  assertRefused(refused, 'rate_limited');
  assertLimitHeaders(refused, { limit: 2, policy: '"minute";q=2;w=60, "day";q=50;w=86400' });

  await cli.keys.setPlan(id, 'business', null, null);
  assertLimitHeaders(await app.request({ url: '/v1/pets', key }), { limit: 1_000, remaining: 997 });
});
