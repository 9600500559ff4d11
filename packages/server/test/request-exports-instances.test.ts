import assert from 'node:assert/strict';
import { type IncomingMessage, request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { createExportSlots, EXPORT_RETRY_AFTER_SECONDS } from '../src/features/requests/export-slots.ts';
import { createRedisSlotStore } from '../src/features/requests/export-slots-redis.ts';
import { createRequestIds } from '../src/http/request-ids.ts';
import { createRedisClient, whenReady } from '../src/ratelimit/redis-store.ts';
import { FakeClock } from '../src/time/clock.ts';
import { eventually } from './eventually.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { tokenHolder } from './manage-support.ts';
import { service } from './services.ts';
import { sharedStorage } from './shared-storage.ts';
import { logged } from './storage-contract-request-log.ts';

const redis = await service('redis');
const skip = 'skip' in redis ? redis.skip : undefined;
const NDJSON = { accept: 'application/x-ndjson' };
const PATH = '/manage/v1/projects/acme/requests';
/** Far more rows than the loopback's socket buffers hold: an export whose client reads nothing stays open. */
const MANY_ROWS = 60_000;

/**
 * Two instances of the service on one database and one Redis, as behind a balancer: the caps of exports
 * streaming at once hold for both together (docs/reliability.md, "Exports").
 */
describe('exports on two instances sharing a Redis', { skip }, () => {
  const clock = new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const prefix = `petstore-test:${crypto.randomUUID()}:`;
  const clients: Redis[] = [];
  const streams: IncomingMessage[] = [];
  const origins = new Map<TestApp, string>();
  let one: TestApp;
  let two: TestApp;
  let cleanup: () => Promise<void> = async () => {};
  /** Request ids as the service makes them (UUIDv7): a batch of such rows needs no index entry per row. */
  const requestIds = createRequestIds(() => clock.now());
  const firstRequestId = requestIds.next();

  const instance = async (storage: TestApp['storage']) => {
    const client = createRedisClient('url' in redis ? redis.url : '');
    await whenReady(client);
    clients.push(client);
    const exportSlots = createExportSlots({ shared: createRedisSlotStore({ client, prefix }), clock });
    return makeTestApp({ storage, clock, exportSlots });
  };

  /** An export over a real socket whose client reads nothing: the response, paused. */
  const stalledExport = async (t: TestApp, token: string) => {
    if (!origins.has(t)) origins.set(t, await t.app.listen({ port: 0, host: '127.0.0.1' }));
    const { hostname, port } = new URL(origins.get(t)!);
    const headers = { authorization: `Bearer ${token}`, ...NDJSON };
    const response = await new Promise<IncomingMessage>((resolve, reject) =>
      httpRequest({ host: hostname, port, path: PATH, headers }, resolve).once('error', reject).end(),
    );
    response.pause();
    streams.push(response);
    return response;
  };

  before(async () => {
    if (skip) return;
    const shared = await sharedStorage(undefined, 'petstore-exports-');
    cleanup = shared.cleanup;
    one = await instance(await shared.open());
    two = await instance(await shared.open());
    const now = clock.now();
    for (let start = 0; start < MANY_ROWS; start += 10_000) {
      await one.storage.requestLog.write(
        Array.from({ length: 10_000 }, (_, i) =>
          logged({
            projectId: 'prj_acme',
            at: now - MANY_ROWS + start + i,
            requestId: start + i === 0 ? firstRequestId : requestIds.next(),
          }),
        ),
      );
    }
  });
  after(async () => {
    if (skip) return;
    for (const stream of streams.splice(0)) stream.destroy();
    await one.close();
    await two.close();
    for (const client of clients) {
      const keys = await client.keys(`${prefix}*`);
      if (keys.length > 0) await client.del(...keys);
      client.disconnect();
    }
    await cleanup();
  });

  it('two exports of one project on one instance → the third, on the other instance, is 429 too_many_exports with Retry-After', async () => {
    const [a, b, c] = [
      await tokenHolder(one, ['acme'], { role: 'viewer', scope: 'read' }),
      await tokenHolder(one, ['acme'], { role: 'viewer', scope: 'read' }),
      await tokenHolder(one, ['acme'], { role: 'viewer', scope: 'read' }),
    ];
    const first = await stalledExport(one, a.token);
    const second = await stalledExport(one, b.token);
    assert.deepEqual([first.statusCode, second.statusCode], [200, 200]);

    const third = await two.request({ url: PATH, key: c.token, headers: NDJSON });
    assert.equal(third.status, 429);
    assert.equal(third.headers['retry-after'], String(EXPORT_RETRY_AFTER_SECONDS));
    assert.equal((third.json() as { code: string }).code, 'too_many_exports');
    const sameToken = await two.request({ url: PATH, key: a.token, headers: NDJSON });
    assert.match((sameToken.json() as { message: string }).message, /token already has an export streaming/);

    // An export that ends on one instance frees its slot for the other. The slot is taken whatever the
    // filters, so the export asked for here is of one request: not the whole log read and checked again.
    first.destroy();
    await eventually(
      async () =>
        (await two.request({ url: `${PATH}?requestId=${firstRequestId}`, key: c.token, headers: NDJSON }))
          .status === 200,
    );
  });
});
