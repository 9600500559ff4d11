import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { buildApp } from '../src/app.ts';
import { createRateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { createRedisStore } from '../src/ratelimit/redis-store.ts';
import type { RateLimitStore } from '../src/ratelimit/store.ts';
import { openStoreAt, type Store } from '../src/features/store.ts';
import { systemClock } from '../src/time/clock.ts';
import { assertMatchesContract } from './openapi-validator.ts';
import { service } from './services.ts';

/** Readiness must answer well inside a load balancer's probe timeout, whatever a dependency does. */
const BOUND_MS = 3_000;

/** Accepts connections and never answers: a dependency that hangs rather than refuses. */
async function hungServer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

async function readyz(storage: Store, store: RateLimitStore) {
  const limiter = createRateLimiter({ store, clock: systemClock, onStoreError: () => {} });
  const app = buildApp({ storage, limiter, clock: systemClock, keyEnvironment: 'test' });
  try {
    // The bound is the probe's answer, not the app's start (its plugins load on the first request).
    await app.ready();
    const started = performance.now();
    const response = await app.inject({ url: '/readyz' });
    const elapsedMs = performance.now() - started;
    assertMatchesContract({
      method: 'GET',
      path: '/readyz',
      status: response.statusCode,
      headers: response.headers as Record<string, string>,
      body: response.body,
    });
    return { status: response.statusCode, body: JSON.parse(response.body), elapsedMs };
  } finally {
    await app.close();
    await limiter.close();
  }
}

describe('GET /readyz with a dependency that hangs', () => {
  let hung: Awaited<ReturnType<typeof hungServer>>;
  let dir: string;
  before(async () => {
    hung = await hungServer();
    dir = await mkdtemp(join(tmpdir(), 'petstore-readyz-'));
  });
  after(async () => {
    await hung.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('GET /readyz → 503 service_unavailable within 3 s when PostgreSQL accepts connections but never answers', async () => {
    const storage = await openStoreAt(`postgres://postgres@127.0.0.1:${hung.port}/test`);
    try {
      const answer = await readyz(storage, createMemoryStore());
      assert.equal(answer.status, 503);
      assert.equal(answer.body.code, 'service_unavailable');
      assert.match(answer.body.message, /database \(postgres\)/);
      assert.ok(answer.elapsedMs < BOUND_MS, `answered after ${Math.round(answer.elapsedMs)} ms`);
    } finally {
      await storage.close();
    }
  });

  it('GET /readyz → 503 service_unavailable within 3 s when Redis accepts connections but never answers', async () => {
    const storage = await openStoreAt(join(dir, 'petstore.db'));
    await storage.migrate();
    const store = createRedisStore({ url: `redis://127.0.0.1:${hung.port}` });
    try {
      const answer = await readyz(storage, store);
      assert.equal(answer.status, 503);
      assert.match(answer.body.message, /rate-limit store \(redis\)/);
      assert.ok(answer.elapsedMs < BOUND_MS, `answered after ${Math.round(answer.elapsedMs)} ms`);
    } finally {
      await storage.close();
    }
  });
});

const postgres = await service('postgres');
const redis = await service('redis');
const skip = 'skip' in postgres ? postgres.skip : 'skip' in redis ? redis.skip : false;

describe('GET /readyz with PostgreSQL and Redis answering', { skip }, () => {
  it('GET /readyz → 200 with database and rateLimitStore ok', async () => {
    const url = 'url' in postgres ? postgres.url : '';
    const schema = `petstore_test_${randomBytes(6).toString('hex')}`;
    const storage = await openStoreAt(url, { schema, poolSize: 2 });
    const store = createRedisStore({
      url: 'url' in redis ? redis.url : '',
      prefix: `petstore_test_${randomBytes(6).toString('hex')}:`,
    });
    try {
      await storage.migrate();
      const answer = await readyz(storage, store);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body, {
        status: 'ready',
        checks: { database: 'ok', hostRouting: 'ok', rateLimitStore: 'ok' },
      });
    } finally {
      await storage.close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await admin.end();
    }
  });
});
