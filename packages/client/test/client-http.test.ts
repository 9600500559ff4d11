import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { type TestContext, test } from 'node:test';
import { makeTestApp, type TestApp } from '../../server/test/harness.ts';
import { createPetstoreClient, type PetstoreClientOptions } from '../src/index.ts';

const MAX = 9_223_372_036_854_775_807n;
const MIN = -9_223_372_036_854_775_808n;

/** The real app on a real port (SQLite file, fake clock); its `/v1` base URL. */
async function serve(t: TestContext): Promise<{ app: TestApp; baseUrl: string }> {
  const app = await makeTestApp();
  t.after(() => app.close());
  await app.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.app.server.address() as AddressInfo;
  return { app, baseUrl: `http://127.0.0.1:${port}/v1` };
}

function countingFetch(): { fetch: typeof fetch; urls: string[] } {
  const urls: string[] = [];
  return { urls, fetch: (input, init) => (urls.push(String(input)), fetch(input, init)) };
}

test('client over HTTP → createPet, getPet and listPets agree on the pet', async (t) => {
  const { app, baseUrl } = await serve(t);
  const client = createPetstoreClient({ baseUrl, apiKey: app.key });
  const created = await client.createPet({ name: 'Rex', categoryId: 3n, status: 'available' });
  assert.equal(created.replayed, false);
  assert.deepEqual(created.pet, { id: created.pet.id, name: 'Rex', categoryId: 3n, status: 'available' });
  assert.equal(created.rateLimit?.limit, 1_000);

  const fetched = await client.getPet(created.pet.id);
  assert.deepEqual(fetched.pet, created.pet);
  const page = await client.listPets({ status: 'available' });
  assert.deepEqual(page.pets, [created.pet]);
  assert.equal(page.nextCursor, undefined);
  assert.ok((page.rateLimit?.remaining ?? 0) < (created.rateLimit?.remaining ?? 0));
});

test('client over HTTP → the same Idempotency-Key replays the first creation', async (t) => {
  const { app, baseUrl } = await serve(t);
  const client = createPetstoreClient({ baseUrl, apiKey: app.key });
  const first = await client.createPet({ name: 'Once', categoryId: 1n });
  const again = await client.createPet(
    { name: 'Once', categoryId: 1n },
    { idempotencyKey: first.idempotencyKey },
  );
  assert.equal(again.replayed, true);
  assert.deepEqual(again.pet, first.pet);
  assert.equal((await client.listPets()).pets.length, 1);
});

test('client over HTTP → int64 extremes of categoryId round-trip digit for digit', async (t) => {
  const { app, baseUrl } = await serve(t);
  const client = createPetstoreClient({ baseUrl, apiKey: app.key });
  for (const categoryId of [MAX, MIN]) {
    const { pet } = await client.createPet({ name: `c${categoryId}`, categoryId });
    assert.equal(pet.categoryId, categoryId);
    assert.equal((await client.getPet(pet.id)).pet.categoryId, categoryId);
  }
  const { pets } = await client.listPets();
  assert.deepEqual(
    pets.map((p) => p.categoryId),
    [MAX, MIN],
  );
});

test('client over HTTP → pets() with pageSize 20 sees each of 45 pets once, in 3 requests', async (t) => {
  const { app, baseUrl } = await serve(t);
  const counting = countingFetch();
  const client = createPetstoreClient({ baseUrl, apiKey: app.key, fetch: counting.fetch });
  const created: bigint[] = [];
  for (let n = 0; n < 50; n++) {
    const { pet } = await client.createPet({
      name: `p${n}`,
      categoryId: 7n,
      status: n % 10 < 9 ? 'pending' : 'sold',
    });
    if (pet.status === 'pending') created.push(pet.id);
  }
  assert.equal(created.length, 45);
  counting.urls.length = 0;

  const seen: bigint[] = [];
  for await (const pet of client.pets({ status: 'pending', pageSize: 20 })) seen.push(pet.id);
  assert.deepEqual(seen, created);
  assert.equal(counting.urls.length, 3);
  assert.ok(
    counting.urls.slice(1).every((url) => url.startsWith(`${baseUrl}/pets?limit=20&status=pending&cursor=`)),
  );
});

test('client over HTTP → a 429 is waited out for exactly Retry-After, then the retry succeeds', async (t) => {
  const { app, baseUrl } = await serve(t);
  const { secret } = await app.createKey('enterprise', { perMinute: 3, perDay: 1_000 });
  const slept: number[] = [];
  const options: PetstoreClientOptions = {
    baseUrl,
    apiKey: secret,
    random: () => 0,
    sleep: async (ms) => {
      slept.push(ms);
      app.clock.advance(ms);
    },
  };
  const client = createPetstoreClient(options);
  const spent = [];
  for (let n = 0; n < 3; n++) spent.push((await client.listPets()).rateLimit?.remaining);
  assert.deepEqual(spent, [2, 1, 0]);

  const after = await client.listPets();
  assert.deepEqual(slept, [60_000], 'the minute window, opened by the first request, resets after 60 s');
  assert.deepEqual(after.rateLimit, { limit: 3, remaining: 2, reset: (app.clock.now() + 60_000) / 1_000 });
});
