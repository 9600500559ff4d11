import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRateLimiter } from '../src/ratelimit/limiter.ts';
import { createRedisStore } from '../src/ratelimit/redis-store.ts';
import { systemClock } from '../src/time/clock.ts';
import {
  call,
  createKey,
  petstore,
  eventually,
  type Instance,
  logEntries,
  type Reply,
  settleAll,
  startInstance,
} from './scaleout-instance.ts';
import { type PrivateRedis, privateRedis, privateRedisAvailable } from './scaleout-servers.ts';

// One instance limits through a private redis-server (its data in a SQLite file), which the test kills
// and restarts while the instance serves.
const redisServer = privateRedisAvailable('Redis outage suite');
const skip = 'skip' in redisServer ? redisServer.skip : false;

const PER_MINUTE = 5;

describe('Redis outage: one instance whose rate-limit store goes away and comes back', { skip }, () => {
  let dir: string | undefined;
  let redis: PrivateRedis | undefined;
  let instance: Instance | undefined;
  /** Enterprise keys with a small minute limit: one used only during the outage, one after it. */
  let duringOutage: { id: string; key: string };
  let afterOutage: { id: string; key: string };
  /** A key banned while Redis answers: the ban must hold through the outage and Redis's empty restart. */
  let banned: { id: string; key: string };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-outage-redis-'));
    redis = await privateRedis('binary' in redisServer ? redisServer.binary : '');
    const env = { DATABASE_URL: join(dir, 'petstore.db'), REDIS_URL: redis.url, PETSTORE_BAN_THRESHOLD: '3' };
    const plan = ['--plan', 'enterprise', '--per-minute', String(PER_MINUTE), '--per-day', '1000'];
    const start = async () => {
      instance = await startInstance(env);
    };
    // keys create refuses a database without tables: `migrate` makes it, racing the server's own start.
    const keys = petstore(['migrate'], env).then(() =>
      Promise.all([createKey(env, plan), createKey(env, plan), createKey(env, plan)]),
    );
    await settleAll([keys, start()]);
    [duringOutage, afterOutage, banned] = await keys;
  });

  after(async () => {
    await instance?.stop();
    await redis?.dispose();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const logged = (message: RegExp) => logEntries(instance!, message).length > 0;

  /** `count` requests one after another, each answered within 1 s. */
  async function burst(key: string, count: number): Promise<Reply[]> {
    const replies: Reply[] = [];
    for (let i = 0; i < count; i++) {
      const reply = await call(instance!.url, '/v1/pets?limit=1', { key, timeoutMs: 1_000 });
      assert.ok(reply.elapsedMs < 1_000, `answered in ${Math.round(reply.elapsedMs)} ms`);
      replies.push(reply);
    }
    return replies;
  }

  it('GET /readyz → 200 while Redis answers', async () => {
    const reply = await call(instance!.url, '/readyz');
    assert.equal(reply.status, 200, reply.body);
  });

  /** The code of a banned key's next request. */
  const bannedAnswer = async () =>
    (await call(instance!.url, '/v1/pets?limit=1', { key: banned.key })).json().code;

  it('GET /v1/pets → 429 temporarily_banned for a key that kept sending past its limit, while Redis answers', async () => {
    const codes = [];
    for (let i = 0; i < PER_MINUTE + 4; i++) codes.push((await burst(banned.key, 1))[0]!.status);
    assert.deepEqual(codes, [...Array(PER_MINUTE).fill(200), 429, 429, 429, 429]);
    assert.equal(await bannedAnswer(), 'temporarily_banned');
  });

  it('GET /v1/pets → answered within 1 s under the in-process fallback limiter while Redis is down', async () => {
    // Requests in flight when Redis dies: each still answered, in time, with its usual code.
    const racing = Promise.all(
      Array.from({ length: 30 }, () => call(instance!.url, '/v1/pets?limit=1', { timeoutMs: 2_000 })),
    );
    await redis!.kill();
    for (const reply of await racing) {
      assert.ok(reply.status === 401 || reply.status === 429, `${reply.status} ${reply.body}`);
      assert.ok(reply.elapsedMs < 1_500, `answered in ${Math.round(reply.elapsedMs)} ms`);
    }
    const readyAtOnce = await call(instance!.url, '/readyz');
    const replies = await burst(duringOutage.key, PER_MINUTE + 2);
    assert.deepEqual(
      replies.map((reply) => reply.status),
      [...Array(PER_MINUTE).fill(200), 429, 429],
      'the fallback still enforces the limit',
    );
    for (const [i, reply] of replies.entries()) {
      assert.equal(reply.headers.get('x-ratelimit-limit'), String(PER_MINUTE));
      assert.equal(reply.headers.get('x-ratelimit-remaining'), String(Math.max(0, PER_MINUTE - 1 - i)));
    }
    const ready = await call(instance!.url, '/readyz');
    assert.equal(ready.status, 503);
    assert.equal(ready.json().code, 'service_unavailable');
    assert.match(String(ready.json().message), /rate-limit store/);
    assert.equal(readyAtOnce.status, 503, 'readiness reflects the outage before any /v1 request');
    assert.equal(await bannedAnswer(), 'temporarily_banned', 'the ban holds while Redis is down');
    await eventually('the outage is logged', 2_000, async () => logged(/rate-limit store unreachable/));
    assert.equal(logEntries(instance!, /rate-limit store unreachable/).length, 1, 'logged once');
  });

  it('GET /readyz → 200 again after Redis restarts, and limits are shared through Redis again', async () => {
    await redis!.start();
    await eventually('readiness after Redis restarts', 10_000, async () => {
      return (await call(instance!.url, '/readyz')).status === 200;
    });
    await eventually('the recovery is logged', 2_000, async () => logged(/rate-limit store answering again/));

    assert.equal(await bannedAnswer(), 'temporarily_banned', 'the ban holds after Redis restarted empty');
    const { id, key } = afterOutage;
    const replies = await burst(key, 2);
    assert.deepEqual(
      replies.map((reply) => reply.status),
      [200, 200],
    );
    // Another process on the same Redis sees the two requests this instance counted.
    const other = createRateLimiter({
      store: createRedisStore({ url: redis!.url }),
      clock: systemClock,
      // A fresh client's first call includes connecting; on a busy machine that can exceed 250 ms.
      storeTimeoutMs: 5_000,
      onStoreError: (err) => assert.fail(`the second limiter cannot reach Redis: ${err}`),
    });
    try {
      const decision = await other.check({ bucket: `key:${id}`, perMinute: PER_MINUTE, perDay: 1000 });
      assert.equal(decision.headers['X-RateLimit-Remaining'], String(PER_MINUTE - 3));
    } finally {
      await other.close();
    }
  });
});
