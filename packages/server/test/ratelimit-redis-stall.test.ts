import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { createRateLimiter } from '../src/ratelimit/limiter.ts';
import { createRedisClient, createRedisStore, whenReady } from '../src/ratelimit/redis-store.ts';
import { FakeClock } from '../src/time/clock.ts';
import { freeSubject, NOON } from './ratelimit-harness.ts';
import { service } from './services.ts';

const redis = await service('redis');
const skip = 'skip' in redis ? redis.skip : undefined;
const url = 'url' in redis ? redis.url : '';

/**
 * Holds the event loop for `ms`, as a long synchronous turn of the server would: the thread sleeps in
 * Atomics.wait, so the loop reads no socket and runs no timer meanwhile, without spending the CPU.
 */
function block(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Three limiters (own client, own fallback, the default 250 ms store timeout) on one Redis prefix. */
async function instances(t: test.TestContext) {
  const prefix = `petstore-test:${crypto.randomUUID()}:`;
  const clock = new FakeClock(NOON);
  const errors: unknown[] = [];
  const made = await Promise.all(
    [0, 1, 2].map(async () => {
      const client = createRedisClient(url);
      await whenReady(client);
      const limiter = createRateLimiter({
        store: createRedisStore({ client, prefix }),
        clock,
        onStoreError: (err) => errors.push(err),
      });
      return { client, limiter };
    }),
  );
  t.after(async () => {
    const { client } = made[0]!;
    const keys = await client.keys(`${prefix}*`);
    if (keys.length > 0) await client.del(...keys);
    for (const { limiter, client } of made) {
      await limiter.close();
      client.disconnect();
    }
  });
  return { limiters: made.map(({ limiter }) => limiter), errors };
}

describe('rate limiter on Redis while the event loop stalls', { skip }, () => {
  // Node runs expired timers before it reads sockets: a 400 ms turn outlasts the 250 ms store timeout
  // although every reply is waiting. Stalls come before the calls are sent and after, five rounds each.
  for (const where of ['before the calls are sent', 'after the calls are sent'] as const) {
    test(`150 concurrent checks of one free key on 3 instances, loop blocked 400 ms ${where} → exactly 60 allowed, never degraded`, async (t) => {
      const { limiters, errors } = await instances(t);
      for (let round = 0; round < 5; round++) {
        const subject = freeSubject(`key:stall-${round}`);
        if (where === 'before the calls are sent') setImmediate(() => block(400));
        else setImmediate(() => setImmediate(() => block(400)));
        const decisions = await Promise.all(
          Array.from({ length: 150 }, (_, i) => limiters[i % 3]!.check(subject)),
        );
        assert.equal(decisions.filter((d) => d.allowed).length, 60, `round ${round}: allowed`);
        assert.deepEqual(errors, [], `round ${round}: no store call counted as failed`);
        assert.ok(limiters.every((limiter) => !limiter.status().degraded));
      }
    });
  }
});
