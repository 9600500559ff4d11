import type { Clock } from '../time/clock.ts';

export interface PurgeLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

export interface PurgeTask {
  /** What is purged, for the log: `expired idempotency records`. */
  what: string;
  /** Deletes what expired by `now`; resolves with how many. */
  purge(now: number): Promise<number>;
  intervalMs: number;
}

/** Runs each purge now and then every interval; a failure is logged and tried again next time. */
export async function startPurges(
  tasks: readonly PurgeTask[],
  deps: { clock: Clock; log: PurgeLog },
): Promise<{ stop(): void }> {
  const run = async ({ what, purge }: PurgeTask) => {
    try {
      const removed = await purge(deps.clock.now());
      if (removed > 0) deps.log.info({ removed }, `${what} purged`);
    } catch (error) {
      // Only ever a database that cannot be reached now: its outage is reported where it is found.
      deps.log.warn({ cause: (error as Error).message }, `purging ${what} failed`);
    }
  };
  await Promise.all(tasks.map(run));
  const timers = tasks.map((task) => setInterval(() => run(task), task.intervalMs).unref());
  return { stop: () => timers.forEach(clearInterval) };
}
