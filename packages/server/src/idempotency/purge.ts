import type { Storage } from '../storage/repository.ts';
import type { Clock } from '../time/clock.ts';
import { IDEMPOTENCY_PURGE_INTERVAL_MS } from './policy.ts';

export interface PurgeLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Deletes expired idempotency records now and then every interval; a failure is logged and retried next time. */
export async function startIdempotencyPurge(deps: {
  storage: Pick<Storage, 'purgeIdempotency'>;
  clock: Clock;
  log: PurgeLog;
  intervalMs?: number;
}): Promise<{ stop(): void }> {
  const purge = async () => {
    try {
      const removed = await deps.storage.purgeIdempotency(deps.clock.now());
      if (removed > 0) deps.log.info({ removed }, 'expired idempotency records purged');
    } catch (error) {
      // Only ever a database that cannot be reached now: its outage is reported where it is found.
      deps.log.warn({ cause: (error as Error).message }, 'idempotency purge failed');
    }
  };
  await purge();
  const timer = setInterval(purge, deps.intervalMs ?? IDEMPOTENCY_PURGE_INTERVAL_MS).unref();
  return { stop: () => clearInterval(timer) };
}
