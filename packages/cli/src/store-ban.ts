import { loadConfig } from '@petstore/server/operator';
import type { CliIo } from './io.ts';

/**
 * A ban also lives in the shared rate-limit store when Redis is configured; lift it there too so every
 * instance sees it at once (in-process stores notice the database's banLiftedAt instead).
 */
export async function liftStoreBan(io: CliIo, keyId: string): Promise<void> {
  const config = loadConfig(io.env);
  if (!config.redisUrl) return;
  const { liftBanInRedis } = await import('@petstore/server/ratelimit');
  await liftBanInRedis(config.redisUrl, `key:${keyId}`);
}
