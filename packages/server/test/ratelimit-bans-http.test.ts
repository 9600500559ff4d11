import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StorageUnavailableError } from '../src/storage/errors.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import {
  assertLimitHeaders,
  assertRefused,
  MINUTE,
  NOON,
  openFileApp,
  repeat,
  unixSeconds,
} from './ratelimit-http-support.ts';

const BAN_MS = 15 * MINUTE;

/**
 * 60 allowed (answered 200, or 401 without a key), `threshold` refused as rate_limited; the next
 * refusal starts the ban and is returned.
 */
async function getBanned(app: TestApp, key: string | null, threshold = 30) {
  const responses = await repeat(app, 60 + threshold + 1, { url: '/v1/pets', key });
  assert.ok(responses.slice(0, 60).every((r) => r.status === (key === null ? 401 : 200)));
  for (const response of responses.slice(60, -1)) assertRefused(response, 'rate_limited');
  return responses.at(-1)!;
}

test('GET /v1/pets → 429 temporarily_banned on the 31st refusal within one window, for 15 minutes', async (t) => {
  const app = await openFileApp(t);
  const { secret: key, id } = await app.createKey('free');
  const banned = await getBanned(app, key);
  assertRefused(banned, 'temporarily_banned', 900);
  assertLimitHeaders(banned, { limit: 60, remaining: 0, reset: NOON + BAN_MS });
  assert.equal(banned.headers.ratelimit, '"minute";r=0;t=900');
  assert.equal((await app.storage.keys.get(id))?.bannedUntil, NOON + BAN_MS, 'keys list shows the ban');

  const post = await app.request({
    method: 'POST',
    url: '/v1/pets',
    key,
    body: { name: 'Rex', categoryId: 1 },
  });
  assertRefused(post, 'temporarily_banned', 900);
  assert.equal(await app.storage.pets.count(), 0);
});

test('GET /v1/pets → the ban outlives the minute and day resets, Retry-After is the time left, ends on time', async (t) => {
  const start = Date.UTC(2026, 10, 22, 23, 55);
  const app = await openFileApp(t, { start });
  const { secret: key } = await app.createKey('free');
  await getBanned(app, key);
  const until = start + BAN_MS;

  app.clock.set(Date.UTC(2026, 10, 23, 0, 0, 30, 250));
  const afterMidnight = await app.request({ url: '/v1/pets', key });
  assertRefused(afterMidnight, 'temporarily_banned', Math.ceil((until - app.clock.now()) / 1_000));
  assert.equal(afterMidnight.headers['x-ratelimit-reset'], unixSeconds(until));

  app.clock.set(until - 1);
  assertRefused(await app.request({ url: '/v1/pets', key }), 'temporarily_banned', 1);
  app.clock.set(until);
  const after = await app.request({ url: '/v1/pets', key });
  assert.equal(after.status, 200, after.body);
  assertLimitHeaders(after, { limit: 60, remaining: 59 });
});

test('GET /v1/pets → 200 on the next request after keys unban from another process', async (t) => {
  const app = await openFileApp(t);
  const { secret: key, id } = await app.createKey('free');
  await getBanned(app, key);
  app.clock.advance(2 * MINUTE);
  assertRefused(await app.request({ url: '/v1/pets', key }), 'temporarily_banned', 780);

  const cli = await app.otherConnection();
  assert.equal(await cli.keys.unban(id, app.clock.now()), true);
  const record = await app.storage.keys.get(id);
  assert.deepEqual([record?.bannedUntil, record?.banLiftedAt], [null, app.clock.now()]);
  const lifted = await app.request({ url: '/v1/pets', key });
  assert.equal(lifted.status, 200, lifted.body);
  assertLimitHeaders(lifted, { limit: 60, remaining: 59 });
});

test('GET /v1/pets → 429 rate_limited, not banned, when unbanned while the minute is still spent', async (t) => {
  const app = await openFileApp(t);
  const { secret: key, id } = await app.createKey('free');
  await getBanned(app, key);
  await (await app.otherConnection()).keys.unban(id, app.clock.now());
  assertRefused(await app.request({ url: '/v1/pets', key }), 'rate_limited', 60);
});

test('GET /v1/pets → 429 temporarily_banned after a restart while the database records the ban', async (t) => {
  const first = await openFileApp(t);
  const { secret: key, id } = await first.createKey('free');
  await getBanned(first, key);
  await first.close();

  const restarted = await openFileApp(t, { path: first.path, start: NOON + 5 * MINUTE });
  assertRefused(await restarted.request({ url: '/v1/pets', key }), 'temporarily_banned', 600);
  restarted.clock.set(NOON + BAN_MS);
  assert.equal((await restarted.request({ url: '/v1/pets', key })).status, 200);
  assert.equal((await restarted.storage.keys.get(id))?.bannedUntil, NOON + BAN_MS);
});

test('GET /v1/pets → 429 temporarily_banned, not 503, when the database cannot record the ban', async (t) => {
  const app = await makeTestApp();
  t.after(() => app.close());
  const { secret: key, id } = await app.createKey('free');
  app.storage.keys.ban = async () => {
    throw new StorageUnavailableError('database is locked');
  };
  assertRefused(await getBanned(app, key), 'temporarily_banned', 900);
  assertRefused(await app.request({ url: '/v1/pets', key }), 'temporarily_banned', 900);
  assert.equal((await app.storage.keys.get(id))?.bannedUntil, null);
});

test('GET /v1/pets → 429 temporarily_banned after banThreshold + 1 refusals when configured', async (t) => {
  const app = await makeTestApp({ banThreshold: 3 });
  t.after(() => app.close());
  const { secret: key } = await app.createKey('free');
  assertRefused(await getBanned(app, key, 3), 'temporarily_banned', 900);
});

test('GET /v1/pets → no ban for 30 refusals in each of two minute windows', async (t) => {
  const app = await makeTestApp();
  t.after(() => app.close());
  const { secret: key } = await app.createKey('free');
  for (const _ of [1, 2]) {
    const responses = await repeat(app, 90, { url: '/v1/pets', key });
    for (const response of responses.slice(60)) assertRefused(response, 'rate_limited');
    app.clock.advance(MINUTE);
  }
});

test('GET /v1/pets → 429 temporarily_banned for a client address that keeps sending without a key', async (t) => {
  const app = await makeTestApp();
  t.after(() => app.close());
  const banned = await getBanned(app, null);
  assertRefused(banned, 'temporarily_banned', 900);
  assert.equal((await app.request({ url: '/v1/pets' })).status, 200, 'keys are not affected');
});
