import type { TestContext } from 'node:test';
import {
  createRateLimiter,
  type LimitSubject,
  type RateLimitDecision,
  type RateLimiter,
  type RateLimiterOptions,
} from '../src/ratelimit/limiter.ts';
import type { RateLimitStore } from '../src/ratelimit/store.ts';
import { FakeClock } from '../src/time/clock.ts';

export interface StoreFixture {
  store: RateLimitStore;
  /** Removes what the store kept (e.g. its Redis keys) and closes what the fixture opened. */
  close(): Promise<void>;
}

export type MakeStore = () => Promise<StoreFixture>;

/** Thursday 1 January 2026, 12:00:00.000 UTC: mid-day, on a minute boundary. */
export const NOON = Date.UTC(2026, 0, 1, 12, 0, 0);
export const NEXT_MIDNIGHT = Date.UTC(2026, 0, 2);

export function freeSubject(bucket: string, extra: Partial<LimitSubject> = {}): LimitSubject {
  return { bucket, perMinute: 60, perDay: 1_000, ...extra };
}

/**
 * A limiter on a fresh store with a fake clock. A store failure fails the test instead of being
 * hidden by the fallback: the fallback rethrows the store's error.
 */
export async function openLimiter(
  t: TestContext,
  makeStore: MakeStore,
  options: Partial<RateLimiterOptions> & { start?: number } = {},
): Promise<{ limiter: RateLimiter; clock: FakeClock }> {
  const fixture = await makeStore();
  const clock = new FakeClock(options.start ?? NOON);
  let storeError: unknown;
  const limiter = createRateLimiter({
    clock,
    ...options,
    store: fixture.store,
    onStoreError: (err) => {
      storeError = err;
    },
    fallback: {
      name: 'rethrow',
      consume: async () => {
        throw storeError;
      },
      peek: async () => {
        throw storeError;
      },
      unban: async () => {},
      close: async () => {},
    },
  });
  t.after(async () => {
    await limiter.close();
    await fixture.close();
  });
  return { limiter, clock };
}

export async function checks(
  limiter: RateLimiter,
  subject: LimitSubject,
  count: number,
): Promise<RateLimitDecision[]> {
  const decisions = [];
  for (let i = 0; i < count; i++) decisions.push(await limiter.check(subject));
  return decisions;
}

export function uniqueBucket(label: string): string {
  return `${label}:${crypto.randomUUID()}`;
}

export const seconds = (ms: number) => String(Math.ceil(ms / 1_000));
