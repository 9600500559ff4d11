import { boundedLru } from '../cache/bounded-lru.ts';

/** Where keys' last uses are recorded (the keys' repository): each unless a later one is recorded. */
export interface KeyTouches {
  touch(uses: readonly { id: string; at: number }[]): Promise<void>;
}

export interface KeyUsageOptions {
  keys: KeyTouches;
  /** A key's use is written at most this often by one process. */
  intervalMs?: number;
  /** How long uses wait before they are written together. */
  delayMs?: number;
  /** How many keys' last writes are remembered (the least recently used is forgotten first). */
  maxRemembered?: number;
  onError: (error: unknown) => void;
}

export interface KeyUsage {
  /** Notes a use of the key; cheap: a cache lookup, and a write at most once per interval per key. */
  record(keyId: string, at: number): void;
  /** Writes the uses still waiting (on shutdown, before the database closes). */
  flush(): Promise<void>;
}

/**
 * Keys whose last write is remembered: 100,000, a few MB. Past that the least recently used key is
 * forgotten alone, and costs one extra write if it comes back within the interval: no cliff where every
 * key is written again at once.
 */
export const MAX_REMEMBERED_KEYS = 100_000;

/**
 * "Last used" for `keys list`, kept off the request path: a request only compares two numbers; the
 * first use of a key in each interval queues it, and every use queued by `delayMs` later is written by
 * one batched statement per few hundred keys (touchKeys). A write that fails is reported and
 * forgotten: the next interval writes again.
 */
export function createKeyUsage(options: KeyUsageOptions): KeyUsage {
  const { keys, onError } = options;
  const intervalMs = options.intervalMs ?? 60_000;
  const delayMs = options.delayMs ?? 1_000;
  const written = boundedLru<string, number>(options.maxRemembered ?? MAX_REMEMBERED_KEYS);
  let pending = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = new Map();
    if (batch.size === 0) return;
    try {
      await keys.touch([...batch].map(([id, at]) => ({ id, at })));
    } catch (error) {
      onError(error);
    }
  };

  return {
    record(keyId, at) {
      const last = written.get(keyId);
      if (last !== undefined && at - last < intervalMs) return;
      written.set(keyId, at);
      pending.set(keyId, at);
      timer ??= setTimeout(() => void flush(), delayMs).unref();
    },
    flush,
  };
}
