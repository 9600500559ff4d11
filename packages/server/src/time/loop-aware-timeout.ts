/** A call that was not answered in time. */
export class TimeoutError extends Error {}

export interface LoopAwareTimeout {
  /**
   * Rejects with `TimeoutError("<what> within <ms> ms")` when `promise` has not settled after `ms` of time in
   * which the event loop was free to read its answer.
   */
  within<T>(promise: Promise<T>, what: string): Promise<T>;
}

interface Watch {
  /** Loop-free time credited when the call started. */
  startedAt: number;
  expire: () => void;
}

/**
 * A timeout that a stalled event loop cannot trip. Node runs expired timers before it reads sockets, so
 * after a long synchronous turn a plain timer fires although the answer is already waiting unread. Here
 * time counts in ticks of at most `ms / 5` (≤ 50 ms): a tick that fires late, because the loop was
 * blocked, is credited with its nominal length only. When a call's credited time reaches `ms`, the
 * loop still gets one pass over its sockets (setImmediate runs after the I/O poll) before the call is
 * declared failed, so an answer that has arrived always wins. One timer serves every outstanding call
 * and runs only while there is one. A call fails after `ms` to `ms + tick` of loop-free time; under a
 * loop that is blocked all the time it fails after at most 5 blocked turns.
 */
export function createLoopAwareTimeout(ms: number): LoopAwareTimeout {
  if (!(ms > 0)) throw new Error('timeout must be > 0');
  const tickMs = Math.min(50, Math.max(1, Math.ceil(ms / 5)));
  const watches = new Set<Watch>();
  let credited = 0;
  let lastTickAt = 0;
  let timer: NodeJS.Timeout | undefined;

  const creditedNow = () => credited + Math.min(performance.now() - lastTickAt, tickMs);
  const tick = () => {
    credited = creditedNow();
    lastTickAt = performance.now();
    for (const watch of watches) {
      if (credited - watch.startedAt < ms) continue;
      watches.delete(watch);
      setImmediate(watch.expire);
    }
    timer = watches.size > 0 ? setTimeout(tick, tickMs) : undefined;
  };

  return {
    within<T>(promise: Promise<T>, what: string): Promise<T> {
      if (timer === undefined) {
        lastTickAt = performance.now();
        timer = setTimeout(tick, tickMs);
      }
      return new Promise<T>((resolve, reject) => {
        let settled = false;
        const watch: Watch = {
          startedAt: creditedNow(),
          expire: () => {
            if (settled) return;
            settled = true;
            reject(new TimeoutError(`${what} within ${ms} ms`));
          },
        };
        watches.add(watch);
        const settle = (done: () => void) => {
          if (settled) return;
          settled = true;
          watches.delete(watch);
          done();
        };
        promise.then(
          (value) => settle(() => resolve(value)),
          (error: unknown) => settle(() => reject(error)),
        );
      });
    },
  };
}
