import assert from 'node:assert/strict';
import { type TestContext, test } from 'node:test';
import { generateKey } from '../src/auth/keys.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { assertRefused, FREE_POLICY, MINUTE, NOON } from './ratelimit-http-support.ts';

async function open(t: TestContext): Promise<TestApp> {
  const app = await makeTestApp();
  t.after(() => app.close());
  return app;
}

/** A Free project with `count` keys; `own` gives the first key lower limits of its own. */
async function freeProject(app: TestApp, slug: string, count: number, own: { perMinute?: number } = {}) {
  const project = (await app.storage.projects.create({
    id: `prj_${slug}`,
    slug,
    name: slug,
    plan: 'free',
    perMinute: null,
    perDay: null,
    createdAt: app.clock.now(),
  }))!;
  const secrets = [];
  for (let i = 0; i < count; i++) {
    const { secret, id, digest, prefix } = generateKey('test');
    await app.storage.keys.create({
      id,
      digest,
      prefix,
      projectId: project.id,
      plan: 'free',
      perMinute: null,
      perDay: null,
      ownPerMinute: i === 0 ? (own.perMinute ?? null) : null,
      label: `key ${i}`,
      environment: 'test',
      createdAt: app.clock.now(),
      expiresAt: null,
    });
    secrets.push(secret);
  }
  return secrets;
}

test('GET /v1/pets with ten keys of a Free project → 60 answered in the minute, then 429 for every key', async (t) => {
  const app = await open(t);
  const keys = await freeProject(app, 'acme', 10);
  const statuses = [];
  for (let round = 0; round < 10; round++) {
    for (const key of keys) statuses.push((await app.request({ url: '/v1/pets', key })).status);
  }
  assert.equal(statuses.filter((s) => s === 200).length, 60);
  assert.equal(statuses.filter((s) => s === 429).length, 40);
  const refused = await app.request({ url: '/v1/pets', key: keys[9]! });
  assertRefused(refused, 'rate_limited', 60);
  assert.equal(refused.headers['x-ratelimit-limit'], '60');
  assert.equal(refused.headers['ratelimit-policy'], FREE_POLICY);
  app.clock.set(NOON + MINUTE);
  assert.equal((await app.request({ url: '/v1/pets', key: keys[3]! })).status, 200);
});

test('GET /v1/pets with a project key limited below its project → 429 at its own limit, the project’s other keys answered', async (t) => {
  const app = await open(t);
  const [capped, other] = await freeProject(app, 'caps', 2, { perMinute: 3 });
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await app.request({ url: '/v1/pets', key: capped! }));
  assert.deepEqual(
    answers.map((r) => [r.status, r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']]),
    [
      [200, '3', '2'],
      [200, '3', '1'],
      [200, '3', '0'],
      [429, '3', '0'],
    ],
  );
  assert.equal(answers[3]!.headers.ratelimit, '"key-minute";r=0;t=60');
  const fine = await app.request({ url: '/v1/pets', key: other! });
  assert.equal(fine.status, 200);
  assert.equal(fine.headers['x-ratelimit-remaining'], '56', 'the refusal spent nothing of the project');
});

test('GET /v1/pets with a key refused because another key used the project’s minute → 429 rate_limited, never banned (issue 50)', async (t) => {
  const app = await open(t);
  const [a, b] = await freeProject(app, 'shared', 2);
  for (let i = 0; i < 40; i++) assert.equal((await app.request({ url: '/v1/pets', key: a! })).status, 200);
  const statuses = [];
  for (let i = 0; i < 100; i++) statuses.push((await app.request({ url: '/v1/pets', key: b! })).status);
  assert.equal(statuses.filter((s) => s === 200).length, 20, 'key B gets what key A left');
  const last = await app.request({ url: '/v1/pets', key: b! });
  assertRefused(last, 'rate_limited');
  const [, idB] = (await app.storage.keys.list('prj_shared')).map((key) => key.id);
  assert.equal((await app.storage.keys.get(idB!))?.bannedUntil, null, 'no ban recorded for key B');
  app.clock.set(NOON + MINUTE);
  assert.equal((await app.request({ url: '/v1/pets', key: b! })).status, 200);
});

test('GET /v1/pets with a key limited to 3 a minute after other keys used 5 of the project’s minute → 200: its own limit is not the project’s', async (t) => {
  const app = await open(t);
  const [capped, other] = await freeProject(app, 'own-window', 2, { perMinute: 3 });
  for (let i = 0; i < 5; i++) assert.equal((await app.request({ url: '/v1/pets', key: other! })).status, 200);
  const answer = await app.request({ url: '/v1/pets', key: capped! });
  assert.equal(answer.status, 200, answer.body);
  assert.equal(answer.headers['x-ratelimit-remaining'], '2');
});
