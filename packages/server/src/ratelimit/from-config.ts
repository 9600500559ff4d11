import type { Redis } from 'ioredis';
import type { Clock } from '../time/clock.ts';
import { createRateLimiter, type RateLimiter } from './limiter.ts';
import { createMemoryStore } from './memory-store.ts';

export interface LimiterLogger {
  warn(obj: object, msg: string): void;
  info(msg: string): void;
}

export interface ConfiguredLimiter {
  limiter: RateLimiter;
  /** The Redis client of the limits, when configured: other state shared by the instances may use it. */
  redis: Redis | undefined;
  /** Store failures are logged to the console until the app's logger exists. */
  attachLogger(log: LimiterLogger): void;
  /** Closes the limiter, then its Redis client. */
  close(): Promise<void>;
}

/** What the limiter is built from (config.ts reads them from the environment and flags). */
export interface LimiterSettings {
  redisUrl: string | undefined;
  banThreshold: number;
  banDurationMs: number;
}

/** Redis when configured (limits shared by every instance), otherwise this process's memory. */
export async function createLimiterFromConfig(
  config: LimiterSettings,
  clock: Clock,
): Promise<ConfiguredLimiter> {
  let log: LimiterLogger | undefined;
  // Loaded on demand: a single process without Redis never pays for the client at start-up.
  const redisStore = config.redisUrl ? await import('./redis-store.ts') : undefined;
  const redis = config.redisUrl ? redisStore!.createRedisClient(config.redisUrl) : undefined;
  const store = redis ? redisStore!.createRedisStore({ client: redis }) : createMemoryStore();
  const limiter = createRateLimiter({
    store,
    clock,
    banThreshold: config.banThreshold,
    banDurationMs: config.banDurationMs,
    onStoreError: (err) => {
      const msg = 'rate-limit store unreachable: limiting from the in-process fallback';
      if (log) log.warn({ err }, msg);
      else console.warn(msg, err);
    },
    onStoreRecovered: () => log?.info('rate-limit store answering again'),
  });
  return {
    limiter,
    redis,
    attachLogger: (logger) => {
      log = logger;
    },
    async close() {
      await limiter.close();
      redis?.disconnect();
    },
  };
}
