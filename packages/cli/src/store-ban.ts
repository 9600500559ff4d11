import { loadConfig } from '@petstore/server/config.ts';
import type { CliIo } from './io.ts';

/**
 * A ban also lives in the shared rate-limit store when Redis is configured; lift it there too so every
 * instance sees it at once (in-process stores notice the database's banLiftedAt instead).
 */
export async function liftStoreBan(io: CliIo, keyId: string, projectId: string | null): Promise<void> {
  const config = loadConfig(io.env);
  if (!config.redisUrl) return;
  const { liftBanInRedis } = await import('@petstore/server/ratelimit');
  // A project key's state is kept beside its project's (ratelimit/plans.ts keySubject).
  await liftBanInRedis(
    config.redisUrl,
    `key:${keyId}`,
    undefined,
    projectId === null ? undefined : `project:${projectId}`,
  );
}
