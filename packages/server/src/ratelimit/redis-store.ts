import { once } from 'node:events';
import { Redis } from 'ioredis';
import { CONSUME_SCRIPT } from './redis-script.ts';
import type { ConsumeInput, ConsumeOutcome, RateLimitStore, WindowSpec } from './store.ts';

export interface RedisStore extends RateLimitStore {
  readonly client: Redis;
}

export type RedisStoreOptions = ({ url: string } | { client: Redis }) & {
  /** Prepended to every key; default `petstore:rl:`. */
  prefix?: string;
};

interface ConsumeCommand {
  petstoreRateLimit(numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
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

const sameWindows = (a: readonly WindowSpec[], b: readonly WindowSpec[]) =>
  a.every((w, i) => w.limit === b[i]!.limit && w.resetAtIfNew === b[i]!.resetAtIfNew);

/** Whether two checks of one subject ask the same (the script then takes them as one run). */
const sameArguments = (a: ConsumeInput, b: ConsumeInput) =>
  a.now === b.now &&
  a.banLiftedAt === b.banLiftedAt &&
  a.banThreshold === b.banThreshold &&
  a.banUntilIfStarted === b.banUntilIfStarted &&
  sameWindows(a.windows, b.windows) &&
  sameWindows(a.group?.windows ?? [], b.group?.windows ?? []);

/** The script's arguments for a batch of one subject's checks, in order (see CONSUME_SCRIPT). */
function scriptArguments(batch: readonly Waiting[]): string[] {
  const args = ['', String(batch[0]!.input.windows.length)];
  const runs: { at: number; size: number }[] = [];
  let previous: ConsumeInput | undefined;
  for (const { input } of batch) {
    if (previous && sameArguments(previous, input)) {
      runs[runs.length - 1]!.size++;
      continue;
    }
    previous = input;
    runs.push({ at: args.length, size: 1 });
    args.push(
      '',
      String(input.now),
      input.banLiftedAt === null ? '' : String(input.banLiftedAt),
      String(input.banThreshold),
      String(input.banUntilIfStarted),
    );
    for (const window of input.windows) args.push(String(window.limit), String(window.resetAtIfNew));
    for (const window of input.group?.windows ?? [])
      args.push(String(window.limit), String(window.resetAtIfNew));
  }
  args[0] = String(runs.length);
  for (const run of runs) args[run.at] = String(run.size);
  return args;
}

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
  // The hash tag keeps a subject's keys in one Redis Cluster slot, as a script needs: its own bucket,
  // or its group's when it has one (a key's state is kept beside its project's).
  const keyOf = (bucket: string, name: string, group?: string) =>
    group === undefined ? `${prefix}{${bucket}}:${name}` : `${prefix}{${group}}:${bucket}:${name}`;
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
    const { bucket, group } = input;
    const keys = [
      keyOf(bucket, 'ban', group?.bucket),
      ...input.windows.map((w) => keyOf(bucket, w.name, group?.bucket)),
      ...(group?.windows ?? []).map((w) => keyOf(group!.bucket, w.name)),
    ];
    const windowCount = keys.length - 1;
    commands
      .petstoreRateLimit(keys.length, ...keys, ...scriptArguments(batch))
      .then((reply) => {
        let at = 0;
        for (const item of batch) at = settle(item, reply as number[], at, windowCount);
      })
      // Settled promises ignore it: only the checks not answered yet fail.
      .catch((error: unknown) => batch.forEach((item) => item.reject(error)));
  };
  const enqueue = (input: ConsumeInput) =>
    new Promise<ConsumeOutcome>((resolve, reject) => {
      let subject = `${input.bucket}\u0000${input.group?.bucket ?? ''}`;
      for (const window of input.windows) subject += `\u0000${window.name}`;
      for (const window of input.group?.windows ?? []) subject += `\u0001${window.name}`;
      const batch = pending.get(subject);
      if (batch) batch.push({ input, resolve, reject });
      else {
        if (pending.size === 0) setImmediate(flush);
        pending.set(subject, [{ input, resolve, reject }]);
      }
    });
  const flush = () => {
    const batches = pending;
    pending = new Map();
    for (const batch of batches.values()) send(batch);
  };

  return {
    name: 'redis',
    client,
    consume(input) {
      if (client.status === 'connecting' || client.status === 'connect') {
        return connected().then(() => enqueue(input));
      }
      return enqueue(input);
    },
    async peek(bucket, now, names, group) {
      await connected();
      const windows = await Promise.all(
        names.map((name) => client.hmget(keyOf(bucket, name, group), 'c', 'r')),
      );
      return windows.map(([count, resetAt]) =>
        count !== null && resetAt !== null && now < Number(resetAt)
          ? { count: Number(count), resetAt: Number(resetAt) }
          : { count: 0, resetAt: 0 },
      );
    },
    async unban(bucket, group) {
      // The ban only: the subject's refusals by its own windows stay, as its windows' counts do.
      await client.hdel(keyOf(bucket, 'ban', group), 'u', 's');
    },
    async close() {
      if ('url' in options) client.disconnect();
    },
  };
}

/** Resolves a check with its outcome read from the script's flat reply at `at`; returns where the next starts. */
function settle(item: Waiting, reply: readonly number[], at: number, windowCount: number): number {
  if (reply[at] === 1) {
    item.resolve({ kind: 'banned', until: reply[at + 1]!, startedNow: reply[at + 2] === 1 });
    return at + 3;
  }
  const windows = [];
  for (let i = 0; i < windowCount; i++) {
    windows.push({ count: reply[at + 3 + 2 * i]!, resetAt: reply[at + 4 + 2 * i]! });
  }
  item.resolve({ kind: 'counted', allowed: reply[at + 1] === 1, refusing: reply[at + 2]! - 1, windows });
  return at + 3 + 2 * windowCount;
}

/** Lifts a ban in a shared Redis store from outside the server (the `keys unban` command). */
export async function liftBanInRedis(
  url: string,
  bucket: string,
  prefix?: string,
  group?: string,
): Promise<void> {
  const client = createRedisClient(url);
  try {
    await whenReady(client);
    await createRedisStore({ client, prefix }).unban(bucket, group);
  } finally {
    client.disconnect();
  }
}
