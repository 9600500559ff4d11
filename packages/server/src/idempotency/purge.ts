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
      deps.log.warn({ err: error }, 'idempotency purge failed');
    }
  };
  await purge();
  const timer = setInterval(purge, deps.intervalMs ?? IDEMPOTENCY_PURGE_INTERVAL_MS).unref();
  return { stop: () => clearInterval(timer) };
}
