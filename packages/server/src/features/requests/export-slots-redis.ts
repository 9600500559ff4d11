import type { Redis } from 'ioredis';
import { whenReady } from '../../ratelimit/redis-store.ts';
import type { ExportSlotStore, SlotLease } from './export-slot-store.ts';

/**
 * KEYS[1] is the project's sorted set, KEYS[2] the holder's: member = lease id, score = when it ends.
 * ARGV: now, expiresAt, slot, perProject, perHolder. Drops the expired leases of both, refuses by the
 * holder's cap (2) or the project's (1), else adds the lease to both (0). Each set expires with its last
 * lease, so a crashed instance leaves nothing behind for long.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
for i = 1, 2 do redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now) end
if redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  local last = redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')
  redis.call('PEXPIRE', KEYS[i], math.max(1, tonumber(last[2]) - now))
end
return 0
`;

/**
 * ARGV: now, expiresAt, slot. A lease held in both sets and not ended by `now` is moved to `expiresAt`
 * (1); otherwise it is dropped from both (0).
 */
const RENEW_SCRIPT = `
local now = tonumber(ARGV[1])
for i = 1, 2 do
  local ends = redis.call('ZSCORE', KEYS[i], ARGV[3])
  if not ends or tonumber(ends) <= now then
    for j = 1, 2 do redis.call('ZREM', KEYS[j], ARGV[3]) end
    return 0
  end
end
for i = 1, 2 do
  redis.call('ZADD', KEYS[i], ARGV[2], ARGV[3])
  local last = redis.call('ZRANGE', KEYS[i], -1, -1, 'WITHSCORES')
  redis.call('PEXPIRE', KEYS[i], math.max(1, tonumber(last[2]) - now))
end
return 1
`;

interface SlotCommands {
  petstoreTakeSlot(...keysAndArgs: string[]): Promise<number>;
  petstoreRenewSlot(...keysAndArgs: string[]): Promise<number>;
}

/**
 * Leases in a Redis every instance shares: the caps of the deployment. Instants are the callers' clocks'
 * (as the rate limiter's are), so the instances' clocks need agree only to well within a lease. Every key
 * carries the `{exports}` hash tag: a project's and a holder's sets are read by one script, and a holder
 * may export from several projects, so on a Redis Cluster all of them live in one slot (a handful of
 * small sets: exports are few). The client is the caller's and stays open on close().
 */
export function createRedisSlotStore(options: { client: Redis; prefix?: string }): ExportSlotStore {
  const prefix = options.prefix ?? 'petstore:';
  const { client } = options;
  client.defineCommand('petstoreTakeSlot', { numberOfKeys: 2, lua: TAKE_SCRIPT });
  client.defineCommand('petstoreRenewSlot', { numberOfKeys: 2, lua: RENEW_SCRIPT });
  const commands = client as unknown as SlotCommands;
  // A client still connecting (at start-up, or back after a blip) refuses commands at once: a take waits
  // for it (within the caller's timeout), as the limiter's checks do.
  const connected = async () => {
    if (client.status === 'connecting' || client.status === 'connect') await whenReady(client);
  };
  const keysOf = (lease: SlotLease) => [
    `${prefix}{exports}:project:${lease.projectId}`,
    `${prefix}{exports}:holder:${lease.holder}`,
  ];

  return {
    name: 'redis',
    async take(input) {
      await connected();
      const refused = await commands.petstoreTakeSlot(
        ...keysOf(input),
        String(input.now),
        String(input.expiresAt),
        input.slot,
        String(input.perProject),
        String(input.perHolder),
      );
      if (refused === 0) return { ok: true };
      return { ok: false, cap: refused === 2 ? 'holder' : 'project' };
    },
    async renew(lease, now, expiresAt) {
      const renewed = await commands.petstoreRenewSlot(
        ...keysOf(lease),
        String(now),
        String(expiresAt),
        lease.slot,
      );
      return renewed === 1;
    },
    async release(lease) {
      await Promise.all(keysOf(lease).map((key) => client.zrem(key, lease.slot)));
    },
    async close() {},
  };
}
