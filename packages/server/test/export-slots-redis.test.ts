import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Redis } from 'ioredis';
import { createExportSlotsFromConfig } from '../src/features/requests/export-slots-from-config.ts';
import { createRedisSlotStore } from '../src/features/requests/export-slots-redis.ts';
import { createLimiterFromConfig } from '../src/ratelimit/from-config.ts';
import { createRedisClient, whenReady } from '../src/ratelimit/redis-store.ts';
import { FakeClock } from '../src/time/clock.ts';
import { runExportSlotContract } from './export-slots-contract.ts';
import { service } from './services.ts';

const redis = await service('redis');
const skip = 'skip' in redis ? redis.skip : undefined;
const url = 'url' in redis ? redis.url : '';

async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 })) {
    if (keys.length > 0) await client.del(...keys);
  }
}

runExportSlotContract(
  'redis',
  async () => {
    const prefix = `petstore-test:${crypto.randomUUID()}:`;
    const client = createRedisClient(url);
    await whenReady(client);
    return {
      store: createRedisSlotStore({ client, prefix }),
      close: async () => {
        await deleteKeys(client, prefix);
        client.disconnect();
      },
    };
  },
  { skip },
);

describe('export slots on the configured Redis', { skip }, () => {
  test('REDIS_URL unreachable → exports start at once, capped per instance; the failure logged once', async (t) => {
    const warnings: string[] = [];
    const configured = await createExportSlotsFromConfig(
      { redisUrl: 'redis://127.0.0.1:1' },
      new FakeClock(),
    );
    configured.attachLogger({ warn: (_obj, msg) => warnings.push(msg), info: () => {} });
    t.after(() => configured.close());
    const started = performance.now();
    assert.ok((await configured.slots.take({ projectId: 'p', holder: 'token:a' })).ok);
    assert.ok((await configured.slots.take({ projectId: 'p', holder: 'token:b' })).ok);
    assert.deepEqual(await configured.slots.take({ projectId: 'p', holder: 'token:c' }), {
      ok: false,
      cap: 'project',
    });
    assert.ok(performance.now() - started < 1_500, 'no take waits long for Redis');
    assert.equal(warnings.length, 1);
    assert.match(warnings[0]!, /capped per instance/);
  });

  test('REDIS_URL answering → a take made while the client still connects is counted in Redis', async (t) => {
    const clock = new FakeClock();
    const [one, two] = [
      await createExportSlotsFromConfig({ redisUrl: url }, clock),
      await createExportSlotsFromConfig({ redisUrl: url }, clock),
    ];
    const warnings: string[] = [];
    for (const configured of [one, two]) {
      configured.attachLogger({ warn: (_obj, msg) => warnings.push(msg), info: () => {} });
    }
    // The configured prefix is production's: names of their own keep this test apart from any other.
    const projectId = `prj_${crypto.randomUUID()}`;
    const holder = (name: string) => `token:${name}-${projectId}`;
    const first = await one.slots.take({ projectId, holder: holder('a') });
    const second = await two.slots.take({ projectId, holder: holder('b') });
    t.after(async () => {
      for (const slot of [first, second]) if (slot.ok) slot.release();
      await Promise.all([one.close(), two.close()]);
    });
    assert.ok(first.ok && second.ok);
    assert.deepEqual(await two.slots.take({ projectId, holder: holder('c') }), {
      ok: false,
      cap: 'project',
    });
    assert.deepEqual(warnings, []);
  });

  test('on the limiter’s Redis client → counted across instances on it; closing the slots leaves it to the limiter', async (t) => {
    const clock = new FakeClock();
    const settings = { redisUrl: url, banThreshold: 1_000, banDurationMs: 60_000 };
    const limiters = [
      await createLimiterFromConfig(settings, clock),
      await createLimiterFromConfig(settings, clock),
    ];
    const [one, two] = await Promise.all(
      limiters.map((limiter) => createExportSlotsFromConfig({ redisUrl: url }, clock, limiter.redis)),
    );
    const projectId = `prj_${crypto.randomUUID()}`;
    const holder = (name: string) => `token:${name}-${projectId}`;
    const first = await one!.slots.take({ projectId, holder: holder('a') });
    const second = await two!.slots.take({ projectId, holder: holder('b') });
    assert.ok(first.ok && second.ok);
    assert.deepEqual(await two!.slots.take({ projectId, holder: holder('c') }), {
      ok: false,
      cap: 'project',
    });
    if (first.ok) first.release();
    if (second.ok) second.release();
    await Promise.all([one!.close(), two!.close()]);
    t.after(() => Promise.all(limiters.map((limiter) => limiter.close())));
    assert.equal(limiters[0]!.redis!.status, 'ready', 'the limiter’s client is still open');
    assert.equal(await limiters[0]!.redis!.ping(), 'PONG');
  });
});
