import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.ts';
import { generateKey } from '../src/auth/keys.ts';
import type { CorsPolicy } from '../src/http/cors.ts';
import { parseJson, stringifyJson as toJson } from '@petstore/json';
import { createRateLimiter, type RateLimiter } from '../src/ratelimit/limiter.ts';
import { createMemoryStore } from '../src/ratelimit/memory-store.ts';
import { openStorage } from '../src/storage/open-storage.ts';
import type { Plan, Storage } from '../src/storage/repository.ts';
import { FakeClock } from '../src/time/clock.ts';
import { assertMatchesContract } from './openapi-validator.ts';

export interface TestResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body parsed with integers as bigint. */
  json(): unknown;
}

export interface RequestOptions {
  method?: string;
  url: string;
  /** API key to send as a bearer token; null sends none. */
  key?: string | null;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as is. */
  body?: unknown;
  /** Skip the OpenAPI check (only for requests the contract deliberately does not describe). */
  unchecked?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  storage: Storage;
  clock: FakeClock;
  limiter: RateLimiter;
  /** A business-plan key created at start (1,000 requests a minute: tests rarely meet its limit). */
  key: string;
  createKey(
    plan?: Plan,
    limits?: { perMinute?: number; perDay?: number; expiresAt?: number },
  ): Promise<{ secret: string; id: string }>;
  request(options: RequestOptions): Promise<TestResponse>;
  close(): Promise<void>;
}

export { stringifyJson as toJson } from '@petstore/json';

/** A concrete path for a route of the table: parameters filled with values that exist. */
export const concretePath = (url: string): string =>
  url.replace(':petId', '1').replace(':name', 'styles.css');

/** The app in-process on a fresh SQLite file, an in-memory limiter and a fake clock. */
export async function makeTestApp(
  options: { clock?: FakeClock; storage?: Storage; banThreshold?: number; cors?: CorsPolicy } = {},
): Promise<TestApp> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-test-'));
  const storage = options.storage ?? (await openStorage(join(dir, 'petstore.db')));
  await storage.migrate();
  const clock = options.clock ?? new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0));
  const limiter = createRateLimiter({
    store: createMemoryStore(),
    clock,
    banThreshold: options.banThreshold,
  });
  const app = buildApp({ storage, limiter, clock, keyEnvironment: 'test', cors: options.cors });
  await app.ready();

  const createKey: TestApp['createKey'] = async (plan = 'free', limits = {}) => {
    const { secret, id, digest } = generateKey('test');
    await storage.createKey({
      id,
      digest,
      plan,
      perMinute: limits.perMinute ?? null,
      perDay: limits.perDay ?? null,
      label: null,
      environment: 'test',
      createdAt: clock.now(),
      expiresAt: limits.expiresAt ?? null,
    });
    return { secret, id };
  };
  const { secret: key } = await createKey('business');

  const request = async (req: RequestOptions): Promise<TestResponse> => {
    const headers: Record<string, string> = { ...req.headers };
    const token = req.key === undefined ? key : req.key;
    if (token !== null) headers.authorization ??= `Bearer ${token}`;
    let payload: string | undefined;
    if (req.body !== undefined) {
      payload = typeof req.body === 'string' ? req.body : toJson(req.body);
      headers['content-type'] ??= 'application/json';
    }
    // A request from a socket starts a new event-loop turn; inject would otherwise run in the caller's.
    await new Promise((resolve) => setImmediate(resolve));
    const response = await app.inject({
      method: (req.method ?? 'GET') as 'GET',
      url: req.url,
      headers,
      payload,
    });
    const result: TestResponse = {
      status: response.statusCode,
      headers: response.headers as Record<string, string>,
      body: response.body,
      json: () => parseJson(response.body),
    };
    if (!req.unchecked) {
      assertMatchesContract({
        method: req.method ?? 'GET',
        path: req.url,
        status: result.status,
        headers: result.headers,
        body: result.body,
      });
    }
    return result;
  };

  return {
    app,
    storage,
    clock,
    limiter,
    key,
    createKey,
    request,
    async close() {
      await app.close();
      await limiter.close();
      await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
