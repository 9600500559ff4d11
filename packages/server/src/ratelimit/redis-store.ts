import { once } from 'node:events';
import { Redis } from 'ioredis';
import { CONSUME_SCRIPT } from './redis-script.ts';
import type { ConsumeInput, ConsumeOutcome, RateLimitStore } from './store.ts';

export interface RedisStore extends RateLimitStore {
  readonly client: Redis;
}

export type RedisStoreOptions = ({ url: string } | { client: Redis }) & {
  /** Prepended to every key; default `petstore:rl:`. */
  prefix?: string;
};

interface ConsumeCommand {
  petstoreRateLimit(numKeys: number, ...keysAndArgs: string[]): Promise<unknown[]>;
}

/**
 * A client that fails fast while Redis is unreachable: commands are refused at once instead of
 * queueing, so the limiter can answer from its fallback. It reconnects in the background.
 */
export function createRedisClient(url: string): Redis {
  const client = new Redis(url, {
    enableOfflineQueue: false,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 1,
  });
  // Failures surface through the commands that fail, and the limiter reports those.
  client.on('error', () => {});
  return client;
}

/** Resolves once the client takes commands; rejects on a connection error or after `timeoutMs`. */
export async function whenReady(client: Redis, timeoutMs = 2_000): Promise<void> {
  if (client.status === 'ready') return;
  await once(client, 'ready', { signal: AbortSignal.timeout(timeoutMs) });
}

interface Waiting {
  input: ConsumeInput;
  resolve: (outcome: ConsumeOutcome) => void;
  reject: (error: unknown) => void;
}

const argsOf = (input: ConsumeInput) => [
  String(input.now),
  input.banLiftedAt === null ? '' : String(input.banLiftedAt),
  String(input.banThreshold),
  String(input.banUntilIfStarted),
  ...input.windows.flatMap((w) => [String(w.limit), String(w.resetAtIfNew)]),
];

/**
 * Limits shared by every instance using the same Redis and prefix. The checks of a subject made in the
 * same event-loop turn share one script call (one round trip): the script applies them one after the
 * other, in the order they were made, exactly as if they had been sent one by one.
 * The script is sent by EVALSHA, falling back to EVAL when Redis does not hold it yet. A client passed
 * in stays open on close(); one created from `url` is closed.
 */
export function createRedisStore(options: RedisStoreOptions): RedisStore {
  const prefix = options.prefix ?? 'petstore:rl:';
  const client = 'client' in options ? options.client : createRedisClient(options.url);
  client.defineCommand('petstoreRateLimit', { lua: CONSUME_SCRIPT });
  const commands = client as unknown as ConsumeCommand;
  // The hash tag keeps a subject's keys in one Redis Cluster slot, as a script needs.
  const keyOf = (bucket: string, name: string) => `${prefix}{${bucket}}:${name}`;
  // Checks arriving while a connection is being made wait for it (within the limiter's timeout)
  // rather than fail; a connection that fails rejects them at once.
  let connecting: Promise<void> | undefined;
  const connected = async () => {
    if (client.status !== 'connecting' && client.status !== 'connect') return;
    connecting ??= whenReady(client).finally(() => {
      connecting = undefined;
    });
    await connecting;
  };

  /** Checks of this turn, by subject and windows. */
  let pending = new Map<string, Waiting[]>();
  const send = (batch: Waiting[]) => {
    const { input } = batch[0]!;
    const keys = [keyOf(input.bucket, 'ban'), ...input.windows.map((w) => keyOf(input.bucket, w.name))];
    const args = [String(batch.length), ...batch.flatMap((item) => argsOf(item.input))];
    commands
      .petstoreRateLimit(keys.length, ...keys, ...args)
      .then((replies) =>
        batch.forEach((item, i) => item.resolve(parseReply((replies[i] as unknown[]).map(Number)))),
      )
      // Settled promises ignore it: only the checks not answered yet fail.
      .catch((error: unknown) => batch.forEach((item) => item.reject(error)));
  };
  const flush = () => {
    const batches = pending;
    pending = new Map();
    for (const batch of batches.values()) send(batch);
  };

  return {
    name: 'redis',
    client,
    async consume(input) {
      await connected();
      return new Promise((resolve, reject) => {
        const subject = `${input.bucket}\u0000${input.windows.map((w) => w.name).join('\u0000')}`;
        const batch = pending.get(subject);
        if (batch) batch.push({ input, resolve, reject });
        else {
          if (pending.size === 0) setImmediate(flush);
          pending.set(subject, [{ input, resolve, reject }]);
        }
      });
    },
    async peek(bucket, now, names) {
      await connected();
      const windows = await Promise.all(names.map((name) => client.hmget(keyOf(bucket, name), 'c', 'r')));
      return windows.map(([count, resetAt]) =>
        count !== null && resetAt !== null && now < Number(resetAt)
          ? { count: Number(count), resetAt: Number(resetAt) }
          : { count: 0, resetAt: 0 },
      );
    },
    async unban(bucket) {
      await client.del(keyOf(bucket, 'ban'));
    },
    async close() {
      if ('url' in options) client.disconnect();
    },
  };
}

function parseReply([kind, a, b, ...rest]: number[]): ConsumeOutcome {
  if (kind === 1) return { kind: 'banned', until: a!, startedNow: b === 1 };
  const windows = [];
  for (let i = 0; i < rest.length; i += 2) windows.push({ count: rest[i]!, resetAt: rest[i + 1]! });
  return { kind: 'counted', allowed: a === 1, refusing: b! - 1, windows };
}

/** Lifts a ban in a shared Redis store from outside the server (the `keys unban` command). */
export async function liftBanInRedis(url: string, bucket: string, prefix?: string): Promise<void> {
  const client = createRedisClient(url);
  try {
    await whenReady(client);
    await createRedisStore({ client, prefix }).unban(bucket);
  } finally {
    client.disconnect();
  }
}
