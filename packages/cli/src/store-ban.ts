import { loadConfig } from '@petstore/server/operator';

/**
 * A ban also lives in the shared rate-limit store when Redis is configured; lift it there too so every
 * instance sees it at once (in-process stores notice the database's banLiftedAt instead).
 */
export async function liftStoreBan(keyId: string): Promise<void> {
  const config = loadConfig(process.env);
  if (!config.redisUrl) return;
  const { liftBanInRedis } = await import('@petstore/server/ratelimit');
  await liftBanInRedis(config.redisUrl, `key:${keyId}`);
}
