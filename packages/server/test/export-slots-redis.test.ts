import type { Redis } from 'ioredis';
import { createRedisSlotStore } from '../src/features/requests/export-slots-redis.ts';
import { createRedisClient, whenReady } from '../src/ratelimit/redis-store.ts';
import { runExportSlotContract } from './export-slots-contract.ts';
import { service } from './services.ts';

const redis = await service('redis');
const skip = 'skip' in redis ? redis.skip : undefined;
const url = 'url' in redis ? redis.url : '';

async function deleteKeys(client: Redis, prefix: string): Promise<void> {
  for await (const keys of client.scanStream({ match: `${prefix}*`, count: 500 })) {
    if (keys.length > 0) await client.del(...keys);
  }
}

runExportSlotContract(
  'redis',
  async () => {
    const prefix = `petstore-test:${crypto.randomUUID()}:`;
    const client = createRedisClient(url);
    await whenReady(client);
    return {
      store: createRedisSlotStore({ client, prefix }),
      close: async () => {
        await deleteKeys(client, prefix);
        client.disconnect();
      },
    };
  },
  { skip },
);
