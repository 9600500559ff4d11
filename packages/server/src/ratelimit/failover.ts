import type { Clock } from '../time/clock.ts';
import { createLoopAwareTimeout, TimeoutError } from '../time/loop-aware-timeout.ts';
import type { ConsumeInput, ConsumeOutcome, RateLimitStore } from './store.ts';

export interface FailoverOptions {
  primary: RateLimitStore;
  /** The per-process insurance limiter used while the primary fails. */
  fallback: RateLimitStore;
  clock: Clock;
  /** A primary call unanswered for this long, while the event loop was free to read it, has failed. */
  timeoutMs: number;
  /** While degraded, how often one request tries the primary again. */
  retryIntervalMs: number;
  /**
   * How long a subject whose primary call failed by timeout is refused while that call is still
   * unanswered (it may yet be counted by the primary). Default 1 s.
   */
  inDoubtMs?: number;
  onStoreError: (err: unknown) => void;
  onStoreRecovered: () => void;
}

export interface FailoverStore extends RateLimitStore {
  degraded(): boolean;
}

const NO_ANSWER = 'rate-limit store did not answer';

/**
 * The store-failure policy: never fail or hang a check because the primary store does. A failure
 * switches to the fallback (reported once), and from then on at most one request per
 * `retryIntervalMs` probes the primary; the first answer switches back (reported once).
 *
 * A call that timed out may still be applied by the primary. Until it is answered (or `inDoubtMs`
 * has passed), its subject's checks on this instance are refused for a second instead of being
 * admitted by the fallback, so one request is never admitted by both, and the primary's late count
 * never makes room for an extra request here. A store that refuses calls at once (down, not slow)
 * leaves nothing in doubt.
 */
export function createFailoverStore(options: FailoverOptions): FailoverStore {
  const { primary, fallback, clock } = options;
  const inDoubtMs = options.inDoubtMs ?? 1_000;
  const timeout = createLoopAwareTimeout(options.timeoutMs);
  let degraded = false;
  let probing = false;
  let nextProbeAt = 0;
  /** Subjects with timed-out primary calls not answered yet: how many, and until when they count. */
  const inDoubt = new Map<string, { calls: number; until: number }>();

  const doubt = (bucket: string, call: Promise<unknown>) => {
    const entry = inDoubt.get(bucket) ?? { calls: 0, until: 0 };
    entry.calls += 1;
    entry.until = clock.now() + inDoubtMs;
    inDoubt.set(bucket, entry);
    const answered = () => {
      entry.calls -= 1;
      if (entry.calls === 0 && inDoubt.get(bucket) === entry) inDoubt.delete(bucket);
    };
    call.then(answered, answered);
  };
  const refuseInDoubt = (input: ConsumeInput): ConsumeOutcome | undefined => {
    const entry = inDoubt.get(input.bucket);
    if (!entry || input.refuseInDoubt === false) return undefined;
    if (input.now >= entry.until) {
      inDoubt.delete(input.bucket);
      return undefined;
    }
    const specs = [...input.windows, ...(input.group?.windows ?? [])];
    const resetAt = Math.min(entry.until, ...specs.map((w) => w.resetAtIfNew));
    const windows = specs.map((w) => ({ count: w.limit, resetAt }));
    // Reported against the group's first window when there is one (a subject may have no limit of its own).
    const refusing = input.group ? input.windows.length : 0;
    return { kind: 'counted', allowed: false, refusing, windows };
  };
  const fromFallback = (input: ConsumeInput) => refuseInDoubt(input) ?? fallback.consume(input);

  async function consume(input: ConsumeInput) {
    if (degraded && (probing || clock.now() < nextProbeAt)) return fromFallback(input);
    const isProbe = degraded;
    if (isProbe) probing = true;
    const call = primary.consume(input);
    try {
      const outcome = await (primary.name === 'memory' ? call : timeout.within(call, NO_ANSWER));
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
      nextProbeAt = clock.now() + options.retryIntervalMs;
      if (err instanceof TimeoutError) doubt(input.bucket, call);
      return fromFallback(input);
    } finally {
      if (isProbe) probing = false;
    }
  }

  return {
    name: primary.name,
    consume,
    async peek(bucket, now, names, group) {
      if (degraded) return fallback.peek(bucket, now, names, group);
      try {
        return await timeout.within(primary.peek(bucket, now, names, group), NO_ANSWER);
      } catch {
        return fallback.peek(bucket, now, names, group);
      }
    },
    async unban(bucket, group) {
      await fallback.unban(bucket, group);
      await timeout.within(primary.unban(bucket, group), NO_ANSWER);
    },
    async close() {
      await Promise.all([primary.close(), fallback.close()]);
    },
    degraded: () => degraded,
  };
}
