/**
 * Password checks admitted a few at a time. Each scrypt call holds 128 MiB and one thread of libuv's
 * pool (four threads by default, shared with file, compression and DNS work) for about 0.3 s. The
 * sign-in throttles count per address and per email, so sign-ins from many addresses at once could
 * otherwise take every thread and 128 MiB each; past the queue they are told to retry.
 */
export interface HashingGate {
  /** Runs `job` once a slot is free; undefined, without running it, when the queue is full. */
  run<T>(job: () => Promise<T>): Promise<T> | undefined;
}

export interface HashingLimits {
  /** Jobs running at once. */
  concurrent: number;
  /** Jobs waiting for a slot; one more is refused. */
  waiting: number;
}

/** Two at once (256 MiB, two of the pool's four threads), sixteen waiting (under 3 s of wait). */
export const HASHING_LIMITS: HashingLimits = { concurrent: 2, waiting: 16 };

export function createHashingGate({ concurrent, waiting }: HashingLimits = HASHING_LIMITS): HashingGate {
  let running = 0;
  const queue: (() => void)[] = [];

  const acquire = (): Promise<void> | undefined => {
    if (running < concurrent) {
      running++;
      return Promise.resolve();
    }
    if (queue.length >= waiting) return undefined;
    return new Promise((resolve) => queue.push(resolve));
  };
  // A finished job hands its slot straight to the next in line, so no newcomer can slip in between.
  const release = () => {
    const next = queue.shift();
    if (next) next();
    else running--;
  };

  return {
    run(job) {
      const slot = acquire();
      return slot?.then(job).finally(release);
    },
  };
}
