import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import fc from 'fast-check';
import { createRateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import {
  createRedisClient,
  createRedisStore,
  liftBanInRedis,
  whenReady,
} from '../src/ratelimit/redis-store.ts';
import { FakeClock } from '../src/time/clock.ts';
import { runLimiterContract } from './ratelimit-contract.ts';
import { checks, freeSubject, NOON } from './ratelimit-harness.ts';
import { service } from './services.ts';

const redis = await service('redis');
const skip = 'skip' in redis ? redis.skip : undefined;
const url = 'url' in redis ? redis.url : '';

async function connect(): Promise<Redis> {
  const client = createRedisClient(url);
  await whenReady(client);
  return client;
}

async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 })) {
    if (keys.length > 0) await client.del(...keys);
  }
}

/** A limiter instance of its own (own client, own fallback) on a shared prefix, closed after the test. */
async function instance(t: test.TestContext, prefix: string, clock: FakeClock) {
  const client = await connect();
  const limiter = createRateLimiter({
    store: createRedisStore({ client, prefix }),
    clock,
    onStoreError: (err) => {
      throw err;
    },
  });
  t.after(async () => {
    await limiter.close();
    await deleteKeys(client, prefix);
    client.disconnect();
  });
  return { limiter, client };
}

const newPrefix = () => `petstore-test:${crypto.randomUUID()}:`;

runLimiterContract(
  'redis',
  async () => {
    const prefix = newPrefix();
    const client = await connect();
    return {
      store: createRedisStore({ client, prefix }),
      close: async () => {
        await deleteKeys(client, prefix);
        client.disconnect();
      },
    };
  },
  { skip, propertyRuns: 30 },
);

describe('rate limiter on Redis shared by several instances', { skip }, () => {
  test('two instances on one prefix → one shared limit of 60', async (t) => {
    const prefix = newPrefix();
    const clock = new FakeClock(NOON);
    const [a, b] = [await instance(t, prefix, clock), await instance(t, prefix, clock)];
    const subject = freeSubject('key:a');
    for (let i = 0; i < 30; i++) {
      assert.equal((await a.limiter.check(subject)).allowed, true);
      assert.equal((await b.limiter.check(subject)).allowed, true);
    }
    assert.equal((await a.limiter.check(subject)).allowed, false);
    assert.equal((await b.limiter.check(subject)).allowed, false);
  });

  test('two instances, 100 concurrent checks split between them → exactly 60 allowed', async (t) => {
    const prefix = newPrefix();
    const clock = new FakeClock(NOON);
    const [a, b] = [await instance(t, prefix, clock), await instance(t, prefix, clock)];
    const subject = freeSubject('key:a');
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).limiter.check(subject)),
    );
    assert.equal(decisions.filter((d) => d.allowed).length, 60);
  });

  test('two instances, 100 concurrent checks of ten keys of one Free project → exactly 60 allowed', async (t) => {
    const prefix = newPrefix();
    const clock = new FakeClock(NOON);
    const [a, b] = [await instance(t, prefix, clock), await instance(t, prefix, clock)];
    const key = (i: number) => ({
      bucket: `key:k${i % 10}`,
      perMinute: Infinity,
      perDay: Infinity,
      group: { bucket: 'project:p', perMinute: 60, perDay: 1_000 },
    });
    const decisions = await Promise.all(
      Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).limiter.check(key(i))),
    );
    assert.equal(decisions.filter((d) => d.allowed).length, 60);
    // Every key of the project is kept beside it: one Redis Cluster slot for the script.
    const keys = await a.client.keys(`${prefix}*`);
    assert.ok(keys.length > 0 && keys.every((k) => k.startsWith(`${prefix}{project:p}:`)));
    for (const key of keys) assert.ok((await a.client.pttl(key)) > 0, `${key} expires`);
  });

  test('bursts of checks made together (one script call) → the decisions of the same checks made one by one', async (t) => {
    const prefix = newPrefix();
    const clock = new FakeClock(NOON);
    const { client } = await instance(t, prefix, clock);
    // Checks of one turn: most share their millisecond (one run of the script), some do not, and the
    // key's plan or ban lift may change between two of them.
    const check = fc.record({
      advanceMs: fc.constantFrom(0, 0, 0, 1, 25_000),
      plan: fc.constantFrom(0, 0, 1),
    });
    const burst = fc.record({
      checks: fc.array(check, { minLength: 1, maxLength: 8 }),
      advanceMs: fc.integer({ min: 0, max: 40_000 }),
    });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 15 }),
        fc.integer({ min: 0, max: 3 }),
        fc.array(burst, { minLength: 1, maxLength: 12 }),
        async (perMinute, perDay, banThreshold, bursts) => {
          clock.set(NOON);
          const bucket = `key:burst-${run++}`;
          const plans = [
            { bucket, perMinute, perDay },
            { bucket, perMinute: perMinute + 2, perDay, banLiftedAt: NOON + 60_000 },
          ];
          const oneByOne = createRateLimiter({ store: createMemoryStore(), clock, banThreshold });
          const together = createRateLimiter({
            store: createRedisStore({ client, prefix }),
            clock,
            banThreshold,
            onStoreError: (err) => {
              throw err;
            },
          });
          for (const { checks, advanceMs } of bursts) {
            clock.advance(advanceMs);
            const made = checks.map(({ advanceMs: gap, plan }) => {
              clock.advance(gap);
              return { at: clock.now(), decision: together.check(plans[plan]!) };
            });
            const batched = await Promise.all(made.map(({ decision }) => decision));
            const sequential = [];
            for (const [i, { plan }] of checks.entries()) {
              clock.set(made[i]!.at);
              sequential.push(await oneByOne.check(plans[plan]!));
            }
            assert.deepEqual(batched, sequential);
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  test('checks of one turn that differ only in their instant → each applied at its own instant', async (t) => {
    const prefix = newPrefix();
    const client = await connect();
    t.after(async () => {
      await deleteKeys(client, prefix);
      client.disconnect();
    });
    const redisStore = createRedisStore({ client, prefix });
    const memoryStore = createMemoryStore();
    // The window opened at NOON resets at NOON + 50; later checks share every argument but `now`.
    const input = (now: number, resetAtIfNew: number) => ({
      bucket: 'key:instants',
      now,
      windows: [{ name: 'minute', limit: 2, resetAtIfNew }],
      banLiftedAt: null,
      banThreshold: 5,
      banUntilIfStarted: NOON + 10_000,
    });
    const inputs = [input(NOON, NOON + 50), input(NOON + 10, NOON + 100), input(NOON + 60, NOON + 100)];
    inputs.push(input(NOON + 70, NOON + 100), input(NOON + 70, NOON + 100), input(NOON + 80, NOON + 100));
    const together = await Promise.all(inputs.map((one) => redisStore.consume(one)));
    const oneByOne = [];
    for (const one of inputs) oneByOne.push(await memoryStore.consume(one));
    assert.deepEqual(together, oneByOne);
  });

  test('ban started on one instance → enforced by the other, lifted for both', async (t) => {
    const prefix = newPrefix();
    const clock = new FakeClock(NOON);
    const [a, b] = [await instance(t, prefix, clock), await instance(t, prefix, clock)];
    const subject = freeSubject('key:a');
    await checks(a.limiter, subject, 90);
    assert.ok((await b.limiter.check(subject)).bannedNow, 'the 31st refusal counted across instances');
    const seen = await a.limiter.check(subject);
    assert.equal(seen.reason, 'temporarily_banned');
    assert.equal(seen.bannedNow, undefined);
    await b.limiter.unban(subject.bucket);
    assert.equal((await a.limiter.check(subject)).reason, 'rate_limited');
    await checks(a.limiter, subject, 30);
    assert.equal((await b.limiter.check(subject)).reason, 'temporarily_banned');
    await liftBanInRedis(url, subject.bucket, prefix);
    assert.equal((await b.limiter.check(subject)).reason, 'rate_limited');
  });

  test('every key the store writes → carries an expiry', async (t) => {
    const prefix = newPrefix();
    const { limiter, client } = await instance(t, prefix, new FakeClock(NOON));
    await checks(limiter, freeSubject('key:a'), 91);
    const keys = await client.keys(`${prefix}*`);
    assert.equal(keys.length, 3);
    for (const key of keys) assert.ok((await client.pttl(key)) > 0, `${key} expires`);
  });
});

describe('rate limiter when Redis fails', { skip }, () => {
  test('unreachable Redis → answers fast from the fallback, degraded, failure reported once', async (t) => {
    const errors: unknown[] = [];
    const limiter = createRateLimiter({
      store: createRedisStore({ url: 'redis://127.0.0.1:1' }),
      clock: new FakeClock(NOON),
      onStoreError: (err) => errors.push(err),
    });
    t.after(() => limiter.close());
    const started = performance.now();
    const decisions = await checks(limiter, freeSubject('key:a'), 61);
    assert.ok(performance.now() - started < 1_000, 'no check waits for Redis');
    assert.equal(decisions.filter((d) => d.allowed).length, 60, 'the fallback still limits');
    assert.deepEqual(limiter.status(), { store: 'redis', degraded: true });
    assert.equal(errors.length, 1);
  });

  test('checks sent while the client is still connecting → wait for the connection, not degraded', async (t) => {
    const prefix = newPrefix();
    const limiter = createRateLimiter({
      store: createRedisStore({ url, prefix }),
      clock: new FakeClock(NOON),
      onStoreError: (err) => {
        throw err;
      },
    });
    t.after(async () => {
      await limiter.close();
      const cleaner = await connect();
      await deleteKeys(cleaner, prefix);
      cleaner.disconnect();
    });
    const decisions = await Promise.all([1, 2, 3].map(() => limiter.check(freeSubject('key:a'))));
    assert.deepEqual(decisions.map((d) => d.headers['X-RateLimit-Remaining']).sort(), ['57', '58', '59']);
    assert.equal(limiter.status().degraded, false);
  });

  test('client disconnected → degraded; reconnected → back on Redis, each reported once', async (t) => {
    const prefix = newPrefix();
    const client = await connect();
    const clock = new FakeClock(NOON);
    const events: string[] = [];
    const limiter = createRateLimiter({
      store: createRedisStore({ client, prefix }),
      clock,
      onStoreError: () => events.push('error'),
      onStoreRecovered: () => events.push('recovered'),
    });
    t.after(async () => {
      await limiter.close();
      await deleteKeys(client, prefix);
      client.disconnect();
    });
    const subject = freeSubject('key:a');
    await checks(limiter, subject, 10);
    client.disconnect();
    const during = await checks(limiter, subject, 5);
    assert.ok(during.every((d) => d.allowed));
    assert.equal(during[0]!.headers['X-RateLimit-Remaining'], '59', 'the fallback counts on its own');
    assert.equal(limiter.status().degraded, true);
    if (client.status !== 'end') await once(client, 'end');
    await client.connect();
    clock.advance(1_000);
    const back = await limiter.check(subject);
    assert.equal(back.headers['X-RateLimit-Remaining'], '49', 'Redis kept its count');
    assert.deepEqual(limiter.status(), { store: 'redis', degraded: false });
    assert.deepEqual(events, ['error', 'recovered']);
  });
});
