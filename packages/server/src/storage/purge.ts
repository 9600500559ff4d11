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

/**
 * How long after start the first purge of each kind runs: never during start-up (which then does no
 * work that grows with the data), and well after the server listens.
 */
export const FIRST_PURGE_DELAY_MS = 60_000;

/**
 * Runs each purge FIRST_PURGE_DELAY_MS after start (at most its own interval), then every interval; a
 * failure is logged and tried again next time.
 */
export async function startPurges(
  tasks: readonly PurgeTask[],
  deps: { clock: Clock; log: PurgeLog; firstDelayMs?: number },
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
  const timers: NodeJS.Timeout[] = [];
  for (const task of tasks) {
    const first = Math.min(deps.firstDelayMs ?? FIRST_PURGE_DELAY_MS, task.intervalMs);
    const timer = setTimeout(() => {
      void run(task);
      timers.push(setInterval(() => run(task), task.intervalMs).unref());
    }, first).unref();
    timers.push(timer);
  }
  // clearTimeout and clearInterval clear either kind of timer.
  return { stop: () => timers.forEach((timer) => clearTimeout(timer)) };
}
