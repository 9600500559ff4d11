import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { openStoreAt, type Store } from '../src/features/store.ts';
import { FakeClock } from '../src/time/clock.ts';
import { makeTestApp, type RequestOptions, type TestApp, type TestResponse } from './harness.ts';

export const MINUTE = 60_000;
export const DAY = 86_400_000;
/** Sunday 22 November 2026, 12:00:00 UTC, the harness's default start. */
export const NOON = Date.UTC(2026, 10, 22, 12);
export const NEXT_MIDNIGHT = Date.UTC(2026, 10, 23);
export const FREE_POLICY = '"minute";q=60;w=60, "day";q=1000;w=86400';

export interface ErrorJson {
  code: string;
  message: string;
  status: number;
  param?: string;
}

export const errorOf = (response: TestResponse): ErrorJson => JSON.parse(response.body) as ErrorJson;

/** Unix seconds as the X-RateLimit-Reset header writes them. */
export const unixSeconds = (ms: number): string => String(Math.ceil(ms / 1_000));

/**
 * Asserts the five rate-limit fields are present and agree with each other (RateLimit repeats the
 * X-RateLimit-Remaining of the reported window); `expected` pins some of them.
 */
export function assertLimitHeaders(
  response: TestResponse,
  expected: { limit?: number; remaining?: number; reset?: number; policy?: string } = {},
): void {
  const h = response.headers;
  const context = `${response.status} ${response.body}`;
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
    assert.match(String(h[name]), /^\d+$/, `${name} on ${context}`);
  }
  assert.match(String(h['ratelimit-policy']), /^"minute";q=\d+;w=60, "day";q=\d+;w=86400$/, context);
  const state = /^"(minute|day)";r=(\d+);t=(\d+)$/.exec(String(h.ratelimit));
  assert.ok(state, `RateLimit '${h.ratelimit}' on ${context}`);
  assert.equal(state[2], h['x-ratelimit-remaining'], 'RateLimit r = X-RateLimit-Remaining');
  if (expected.limit !== undefined) assert.equal(h['x-ratelimit-limit'], String(expected.limit), context);
  if (expected.remaining !== undefined)
    assert.equal(h['x-ratelimit-remaining'], String(expected.remaining), context);
  if (expected.reset !== undefined)
    assert.equal(h['x-ratelimit-reset'], unixSeconds(expected.reset), context);
  if (expected.policy !== undefined) assert.equal(h['ratelimit-policy'], expected.policy, context);
}

/** Asserts a 429 with the given code, its Error body and Retry-After (whole seconds). */
export function assertRefused(
  response: TestResponse,
  code: 'rate_limited' | 'temporarily_banned',
  retryAfter?: number,
): void {
  assert.equal(response.status, 429, response.body);
  assert.equal(errorOf(response).code, code, response.body);
  assert.match(String(response.headers['retry-after']), /^[1-9]\d*$/);
  if (retryAfter !== undefined) assert.equal(response.headers['retry-after'], String(retryAfter));
  assertLimitHeaders(response, { remaining: 0 });
}

/** Sends the same request `count` times, one after another. */
export async function repeat(app: TestApp, count: number, request: RequestOptions): Promise<TestResponse[]> {
  const responses: TestResponse[] = [];
  for (let i = 0; i < count; i++) responses.push(await app.request(request));
  return responses;
}

export interface FileApp extends TestApp {
  /** The SQLite file the app uses. */
  path: string;
  /** Another connection to the same file, as `petstore keys` opens it; closed with the test. */
  otherConnection(): Promise<Store>;
}

/**
 * The in-process app on a SQLite file, so a second connection (standing in for the CLI) or a second
 * app (a restart, given `path`) can open the same file. `close` may be called early; whatever is
 * still open is closed after the test, newest first, and the file removed.
 */
export async function openFileApp(
  t: TestContext,
  options: { start?: number; banThreshold?: number; path?: string } = {},
): Promise<FileApp> {
  const cleanups: (() => Promise<void>)[] = [];
  t.after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  let path = options.path;
  if (path === undefined) {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-rl-'));
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    path = join(dir, 'petstore.db');
  }
  const app = await makeTestApp({
    storage: await openStoreAt(path),
    clock: new FakeClock(options.start ?? NOON),
    banThreshold: options.banThreshold,
  });
  let closing: Promise<void> | undefined;
  const close = () => {
    closing ??= app.close();
    return closing;
  };
  cleanups.push(close);
  const otherConnection = async () => {
    const storage = await openStoreAt(path);
    await storage.migrate();
    cleanups.push(() => storage.close());
    return storage;
  };
  return { ...app, close, path, otherConnection };
}
