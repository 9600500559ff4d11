import type { KeyRepository } from '../storage/repository.ts';

export interface KeyUsageOptions {
  keys: Pick<KeyRepository, 'touchKey'>;
  /** A key's use is written at most this often by one process. */
  intervalMs?: number;
  /** How long uses wait before they are written together. */
  delayMs?: number;
  onError: (error: unknown) => void;
}

export interface KeyUsage {
  /** Notes a use of the key; cheap: a Map lookup, and a write at most once per interval per key. */
  record(keyId: string, at: number): void;
  /** Writes the uses still waiting (on shutdown, before the database closes). */
  flush(): Promise<void>;
}

/** Bounds the memory of which keys were written recently; clearing it costs one extra write per key. */
const MAX_REMEMBERED = 10_000;

/**
 * "Last used" for `keys list`, kept off the request path: a request only compares two numbers; the
 * first use of a key in each interval queues one UPDATE, run after `delayMs` with the others queued by
 * then. A write that fails is reported and forgotten: the next interval writes again.
 */
export function createKeyUsage(options: KeyUsageOptions): KeyUsage {
  const { keys, onError } = options;
  const intervalMs = options.intervalMs ?? 60_000;
  const delayMs = options.delayMs ?? 1_000;
  const written = new Map<string, number>();
  let pending = new Map<string, number>();
  let timer: NodeJS.Timeout | undefined;

  const flush = async () => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = new Map();
    for (const [keyId, at] of batch) {
      try {
        await keys.touchKey(keyId, at);
      } catch (error) {
        onError(error);
      }
    }
  };

  return {
    record(keyId, at) {
      const last = written.get(keyId);
      if (last !== undefined && at - last < intervalMs) return;
      if (written.size >= MAX_REMEMBERED) written.clear();
      written.set(keyId, at);
      pending.set(keyId, at);
      timer ??= setTimeout(() => void flush(), delayMs).unref();
    },
    flush,
  };
}
