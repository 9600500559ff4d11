import type { Redis } from 'ioredis';
import type { LimiterLogger } from '../../ratelimit/from-config.ts';
import type { Clock } from '../../time/clock.ts';
import { createExportSlots, type ExportSlots } from './export-slots.ts';

export interface ConfiguredExportSlots {
  slots: ExportSlots;
  /** Store failures are logged to the console until the app's logger exists. */
  attachLogger(log: LimiterLogger): void;
  close(): Promise<void>;
}

/**
 * The export caps of the deployment on the Redis the rate limiter uses (REDIS_URL): on the limiter's
 * client when given one (`shared`, which stays open on close), else on a client of their own; without
 * Redis, each instance's caps.
 */
export async function createExportSlotsFromConfig(
  config: { redisUrl: string | undefined },
  clock: Clock,
  shared?: Redis,
): Promise<ConfiguredExportSlots> {
  let log: LimiterLogger | undefined;
  // Loaded on demand, as the limiter's store is: a single process without Redis never loads the client.
  const own =
    config.redisUrl && shared === undefined
      ? (await import('../../ratelimit/redis-store.ts')).createRedisClient(config.redisUrl)
      : undefined;
  const client = config.redisUrl ? (shared ?? own) : undefined;
  const store = client
    ? (await import('./export-slots-redis.ts')).createRedisSlotStore({ client })
    : undefined;
  const slots = createExportSlots({
    shared: store,
    clock,
    onStoreError: (err) => {
      const msg = 'export slot store unreachable: exports are capped per instance until it answers';
      if (log) log.warn({ err }, msg);
      else console.warn(msg, err);
    },
    onStoreRecovered: () => log?.info('export slot store answering again: exports are capped per deployment'),
  });
  return {
    slots,
    attachLogger: (logger) => {
      log = logger;
    },
    async close() {
      await slots.close();
      own?.disconnect();
    },
  };
}
