import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createPetstoreClient, PetstoreError, type PetstoreClientOptions } from '../src/index.ts';
import {
  apiError,
  BASE_URL,
  json,
  PET_JSON,
  recordingSleep,
  scriptedFetch,
  type Step,
} from './fake-fetch.ts';

const NO_RANDOM = () => {
  throw new Error('random() must not be used here');
};

function setup(steps: Step[], options: Partial<PetstoreClientOptions> = {}) {
  const fake = scriptedFetch(steps);
  const { sleep, slept } = recordingSleep();
  const client = createPetstoreClient({
    baseUrl: BASE_URL,
    apiKey: 'ps_test_k',
    fetch: fake.fetch,
    sleep,
    ...options,
  });
  return { client, requests: fake.requests, slept };
}

const PAGE = () => json(200, `[${PET_JSON}]`);

test('429 rate_limited → waits exactly Retry-After seconds, then the retry succeeds', async () => {
  const { client, requests, slept } = setup([apiError(429, 'rate_limited', { 'retry-after': '7' }), PAGE()], {
    random: NO_RANDOM,
  });
  const { pets } = await client.listPets();
  assert.equal(pets.length, 1);
  assert.equal(requests.length, 2);
  assert.deepEqual(slept, [7_000]);
});

test('503 without Retry-After → full-jitter backoff within [0, min(maxDelay, base·2^n))', async () => {
  for (const r of [0, 0.5, 0.999_999]) {
    const steps = [...Array(4)].map(() => apiError(503, 'service_unavailable'));
    const { client, slept } = setup([...steps, PAGE()], {
      random: () => r,
      retry: { baseDelayMs: 200, maxDelayMs: 1_000 },
    });
    await client.listPets();
    const caps = [200, 400, 800, 1_000];
    assert.deepEqual(
      slept,
      caps.map((cap) => r * cap),
    );
    slept.forEach((ms, n) => assert.ok(ms >= 0 && ms < (caps[n] ?? 0)));
  }
});

test('503 with Retry-After and 500 → retried; Retry-After is honoured', async () => {
  const { client, slept } = setup(
    [apiError(503, 'service_unavailable', { 'retry-after': '3' }), apiError(500, 'internal_error'), PAGE()],
    { random: () => 0.5 },
  );
  await client.listPets();
  assert.deepEqual(slept, [3_000, 200]);
});

test('a dropped connection → retried with backoff', async () => {
  const { client, requests, slept } = setup([new TypeError('fetch failed'), PAGE()], { random: () => 0.25 });
  await client.listPets();
  assert.equal(requests.length, 2);
  assert.deepEqual(slept, [50]);
});

for (const [status, code] of [
  [400, 'invalid_parameter'],
  [401, 'unauthorized'],
  [404, 'not_found'],
  [422, 'idempotency_key_reused'],
  [501, 'not_implemented'],
] as const) {
  test(`${status} ${code} → thrown at once, never retried`, async () => {
    const { client, requests, slept } = setup(
      [apiError(status, code, { 'x-request-id': 'req-1' }, { param: 'limit' })],
      { random: NO_RANDOM },
    );
    const error = await client.listPets().catch((e: unknown) => e);
    assert.ok(error instanceof PetstoreError);
    assert.equal(error.code, code);
    assert.equal(error.status, status);
    assert.equal(error.param, 'limit');
    assert.equal(error.requestId, 'req-1');
    assert.equal(error.rateLimit?.limit, 60);
    assert.equal(requests.length, 1);
    assert.deepEqual(slept, []);
  });
}

test('429 temporarily_banned → thrown at once with retryAfterSeconds, never retried', async () => {
  const { client, requests, slept } = setup([apiError(429, 'temporarily_banned', { 'retry-after': '900' })]);
  const error = await client.listPets().catch((e: unknown) => e);
  assert.ok(error instanceof PetstoreError);
  assert.equal(error.code, 'temporarily_banned');
  assert.equal(error.retryAfterSeconds, 900);
  assert.equal(requests.length, 1);
  assert.deepEqual(slept, []);
});

test('429 with a Retry-After beyond maxRetryAfterMs → thrown at once, never retried sooner', async () => {
  const { client, requests, slept } = setup([apiError(429, 'rate_limited', { 'retry-after': '3600' })]);
  const error = await client.listPets().catch((e: unknown) => e);
  assert.ok(error instanceof PetstoreError);
  assert.equal(error.retryAfterSeconds, 3_600);
  assert.equal(requests.length, 1);
  assert.deepEqual(slept, []);
});

test('maxAttempts → stops after that many attempts and throws the last error', async () => {
  const steps = [1, 2, 3].map((n) => apiError(503, 'service_unavailable', { 'x-request-id': `req-${n}` }));
  const { client, requests, slept } = setup(steps, { random: () => 0, retry: { maxAttempts: 3 } });
  const error = await client.listPets().catch((e: unknown) => e);
  assert.ok(error instanceof PetstoreError);
  assert.equal(error.requestId, 'req-3');
  assert.equal(requests.length, 3);
  assert.equal(slept.length, 2);
});

test('maxAttempts → a network error that persists is thrown as network_error with its cause', async () => {
  const cause = new TypeError('fetch failed');
  const { client } = setup([cause, cause], { random: () => 0, retry: { maxAttempts: 2 } });
  const error = await client.listPets().catch((e: unknown) => e);
  assert.ok(error instanceof PetstoreError);
  assert.equal(error.code, 'network_error');
  assert.equal(error.status, 0);
  assert.equal(error.cause, cause);
});

test('createPet → one generated Idempotency-Key, reused on every retry', async () => {
  const { client, requests, slept } = setup(
    [
      new TypeError('socket hang up'),
      apiError(409, 'idempotency_in_progress'),
      apiError(429, 'rate_limited', { 'retry-after': '1' }),
      json(201, PET_JSON, { 'idempotent-replayed': 'true' }),
    ],
    { random: () => 0.5 },
  );
  const result = await client.createPet({ name: 'Rex', categoryId: 3n, status: 'available' });
  const keys = requests.map((r) => r.headers.get('idempotency-key'));
  assert.equal(requests.length, 4);
  assert.match(keys[0] ?? '', /^[0-9a-f-]{36}$/);
  assert.ok(keys.every((key) => key === keys[0]));
  assert.ok(requests.every((r) => r.body === requests[0]?.body));
  assert.equal(result.idempotencyKey, keys[0]);
  assert.equal(result.replayed, true);
  assert.deepEqual(slept, [100, 200, 1_000], 'backoff, short backoff for 409, then Retry-After');
});

test('createPet → a given Idempotency-Key is sent as is; each call without one gets a new key', async () => {
  const { client, requests } = setup([json(201, PET_JSON), json(201, PET_JSON), json(201, PET_JSON)]);
  await client.createPet({ name: 'Rex', categoryId: 3n }, { idempotencyKey: 'order-7' });
  await client.createPet({ name: 'Rex', categoryId: 3n });
  await client.createPet({ name: 'Rex', categoryId: 3n });
  const keys = requests.map((r) => r.headers.get('idempotency-key'));
  assert.equal(keys[0], 'order-7');
  assert.notEqual(keys[1], keys[2]);
});
