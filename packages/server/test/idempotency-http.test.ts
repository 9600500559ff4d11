import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { digestKey } from '../src/auth/keys.ts';
import { makeTestApp, type TestApp, type TestResponse, toJson } from './harness.ts';
import { assertLimitHeaders, DAY, errorOf, openFileApp } from './ratelimit-http-support.ts';

async function open(t: TestContext): Promise<TestApp> {
  const app = await makeTestApp();
  t.after(() => app.close());
  return app;
}

const rex = { name: 'Rex', categoryId: 7, status: 'available' };

function post(app: TestApp, idempotencyKey: string | undefined, body: unknown = rex, key?: string) {
  const headers = idempotencyKey === undefined ? undefined : { 'idempotency-key': idempotencyKey };
  return app.request({ method: 'POST', url: '/v1/pets', headers, body, key });
}

function assertCreated(response: TestResponse): void {
  assert.equal(response.status, 201, response.body);
  assert.equal(response.headers['idempotent-replayed'], undefined);
  assert.equal(response.headers.location, `/v1/pets/${(response.json() as { id: bigint }).id}`);
}

function assertReplayOf(response: TestResponse, first: TestResponse): void {
  assert.equal(response.status, 201, response.body);
  assert.equal(response.headers['idempotent-replayed'], 'true');
  assert.equal(response.body, first.body);
  assert.equal(response.headers.location, first.headers.location);
  assertLimitHeaders(response);
}

function assertIdempotencyError(response: TestResponse, status: number, code: string): void {
  assert.equal(response.status, status, response.body);
  assert.deepEqual([errorOf(response).code, errorOf(response).param], [code, 'Idempotency-Key']);
  assertLimitHeaders(response);
}

test('POST /v1/pets → 201 replayed with Idempotent-Replayed when the key and body are repeated', async (t) => {
  const app = await open(t);
  const first = await post(app, 'order-1');
  assertCreated(first);
  assertReplayOf(await post(app, 'order-1'), first);
  const reordered = toJson({ status: 'available', categoryId: 7, name: 'Rex' });
  assertReplayOf(await post(app, 'order-1', ` ${reordered}\n`), first);
  assert.equal(await app.storage.pets.count(), 1);
});

test('POST /v1/pets → 422 idempotency_key_reused when the key comes with another body', async (t) => {
  const app = await open(t);
  assertCreated(await post(app, 'order-1'));
  assertIdempotencyError(await post(app, 'order-1', { ...rex, name: 'Max' }), 422, 'idempotency_key_reused');
  assertIdempotencyError(
    await post(app, 'order-1', { name: 'Rex', categoryId: 7 }),
    422,
    'idempotency_key_reused',
  );
  assert.equal(await app.storage.pets.count(), 1);
});

test('POST /v1/pets → 50 concurrent requests with one key create one pet; the rest are 409 or replays', async (t) => {
  const app = await open(t);
  const responses = await Promise.all(Array.from({ length: 50 }, () => post(app, 'burst')));
  const created = responses.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
  assert.equal(created.length, 1);
  for (const response of responses) {
    if (response === created[0]) continue;
    if (response.status === 409) assertIdempotencyError(response, 409, 'idempotency_in_progress');
    else assertReplayOf(response, created[0]!);
  }
  assert.equal(await app.storage.pets.count(), 1);
});

test('POST /v1/pets → one pet when two instances sharing the database get the same key at once', async (t) => {
  const one = await openFileApp(t);
  const two = await openFileApp(t, { path: one.path });
  const responses = await Promise.all(
    Array.from({ length: 20 }, (_, i) => post(i % 2 ? two : one, 'shared', rex, one.key)),
  );
  const created = responses.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] === undefined);
  assert.equal(created.length, 1);
  for (const response of responses) {
    if (response !== created[0] && response.status !== 409) assertReplayOf(response, created[0]!);
  }
  assert.equal(await one.storage.pets.count(), 1);
});

test('POST /v1/pets → 201 created for another API key sending the same Idempotency-Key', async (t) => {
  const app = await open(t);
  const other = await app.createKey('pro');
  const first = await post(app, 'order-1');
  const second = await post(app, 'order-1', rex, other.secret);
  assertCreated(first);
  assertCreated(second);
  assert.notEqual(first.headers.location, second.headers.location);
  assertReplayOf(await post(app, 'order-1', rex, other.secret), second);
  assert.equal(await app.storage.pets.count(), 2);
});

test('POST /v1/pets → 400 is not stored: the same key then creates with a valid body', async (t) => {
  const app = await open(t);
  const invalid = await post(app, 'order-1', { name: 'Rex' });
  assert.equal(invalid.status, 400);
  assert.equal(errorOf(invalid).code, 'invalid_body');
  const apiKey = await app.storage.keys.findByDigest(digestKey(app.key));
  assert.equal(await app.storage.idempotency.find(apiKey!.id, 'order-1', app.clock.now()), undefined);
  assertCreated(await post(app, 'order-1'));
  assert.equal(await app.storage.pets.count(), 1);
});

for (const [what, value] of [
  ['empty', ''],
  ['256 characters', 'k'.repeat(256)],
  ['non-ASCII', 'clé-1'],
  ['with a space', 'order 1'],
]) {
  test(`POST /v1/pets → 400 invalid_parameter when Idempotency-Key is ${what}`, async (t) => {
    const app = await open(t);
    const response = await post(app, value);
    assert.equal(response.status, 400, response.body);
    assert.deepEqual(
      [errorOf(response).code, errorOf(response).param],
      ['invalid_parameter', 'Idempotency-Key'],
    );
    assert.equal(await app.storage.pets.count(), 0);
  });
}

test('POST /v1/pets → 201 with an Idempotency-Key of 255 printable ASCII characters', async (t) => {
  const app = await open(t);
  const key = `${'~'.repeat(254)}!`;
  const first = await post(app, key);
  assertCreated(first);
  assertReplayOf(await post(app, key), first);
});

test('POST /v1/pets → 201 created again once the key is 24 h old; purgeIdempotency removes it', async (t) => {
  const app = await open(t);
  const first = await post(app, 'order-1');
  app.clock.advance(DAY - 1);
  assertReplayOf(await post(app, 'order-1'), first);
  app.clock.advance(1);
  const again = await post(app, 'order-1', { ...rex, name: 'Max' });
  assertCreated(again);
  assert.notEqual(again.headers.location, first.headers.location);

  await post(app, 'order-2');
  app.clock.advance(DAY);
  assert.equal(await app.storage.idempotency.purge(app.clock.now()), 2);
  assert.equal(await app.storage.idempotency.purge(app.clock.now()), 0);
  assertCreated(await post(app, 'order-2'));
  assert.equal(await app.storage.pets.count(), 4);
});
