import type { Clock } from '../time/clock.ts';
import type { ConsumeInput, RateLimitStore } from './store.ts';
import { withTimeout } from '../time/with-timeout.ts';

export interface FailoverOptions {
  primary: RateLimitStore;
  /** The per-process insurance limiter used while the primary fails. */
  fallback: RateLimitStore;
  clock: Clock;
  /** A primary call taking longer than this counts as a failure. */
  timeoutMs: number;
  /** While degraded, how often one request tries the primary again. */
  retryIntervalMs: number;
  onStoreError: (err: unknown) => void;
  onStoreRecovered: () => void;
}

export interface FailoverStore extends RateLimitStore {
  degraded(): boolean;
}

/**
 * The store-failure policy: never fail or hang a check because the primary store does. A failure
 * switches to the fallback (reported once), and from then on at most one request per
 * `retryIntervalMs` probes the primary; the first answer switches back (reported once).
 */
export function createFailoverStore(options: FailoverOptions): FailoverStore {
  const { primary, fallback, timeoutMs } = options;
  let degraded = false;
  let probing = false;
  let nextProbeAt = 0;

  async function consume(input: ConsumeInput) {
    if (degraded && (probing || options.clock.now() < nextProbeAt)) return fallback.consume(input);
    const isProbe = degraded;
    if (isProbe) probing = true;
    try {
      const outcome = await (primary.name === 'memory'
        ? primary.consume(input)
        : withTimeout(primary.consume(input), timeoutMs, 'rate-limit store did not answer'));
      if (degraded) {
        degraded = false;
        options.onStoreRecovered();
      }
      return outcome;
    } catch (err) {
      if (!degraded) {
        degraded = true;
        options.onStoreError(err);
      }
      nextProbeAt = options.clock.now() + options.retryIntervalMs;
      return fallback.consume(input);
    } finally {
      if (isProbe) probing = false;
    }
  }

  return {
    name: primary.name,
    consume,
    async peek(bucket, now, names) {
      if (degraded) return fallback.peek(bucket, now, names);
      try {
        return await withTimeout(
          primary.peek(bucket, now, names),
          timeoutMs,
          'rate-limit store did not answer',
        );
      } catch {
        return fallback.peek(bucket, now, names);
      }
    },
    async unban(bucket) {
      await fallback.unban(bucket);
      await withTimeout(primary.unban(bucket), timeoutMs, 'rate-limit store did not answer');
    },
    async close() {
      await Promise.all([primary.close(), fallback.close()]);
    },
    degraded: () => degraded,
  };
}
