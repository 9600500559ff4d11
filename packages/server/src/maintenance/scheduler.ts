import { setImmediate as nextTurn } from 'node:timers/promises';
import type { PurgeSlice } from '../features/requests/request-log-records.ts';
import type { Clock } from '../time/clock.ts';
import type { Lease } from './lease.ts';

/** One kind of maintenance: a purge, a rollup's purge, the domain re-checks. */
export interface MaintenanceJob {
  /** What it does, for the log: `expired idempotency records purged`. */
  what: string;
  intervalMs: number;
  /**
   * One run at `now`, in bounded slices: `slice` is awaited between two (the event loop turns there);
   * when it answers false (this instance no longer holds the lease, or is stopping), the run ends and
   * the next one goes on. Resolves with how many things it removed or checked.
   */
  run(now: number, slice: PurgeSlice): Promise<number>;
}

export interface MaintenanceLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * How long after start the first run of each job comes (at most its own interval): never during
 * start-up, which then does no work that grows with the data, and well after the server listens.
 */
export const FIRST_RUN_DELAY_MS = 60_000;

/** How often an instance asks for the lease (or renews it) and runs what is due. */
export const MAINTENANCE_TICK_MS = 15_000;

/** A lease outlives four missed renewals: an owner that stops without a word is replaced within a minute. */
export const LEASE_TTL_MS = 4 * MAINTENANCE_TICK_MS;

export interface Maintenance {
  /** One round: takes or renews the lease, and while held runs the jobs that are due, one by one. */
  tick(): Promise<void>;
  /** Whether this instance held the lease at its last try. */
  owns(): boolean;
  /** The longest slice yet, in ms of wall time between two turns of the loop (awaited I/O included). */
  longestSliceMs(): number;
  /** Ends the rounds, lets the running slice finish, and lets the lease go for another instance. */
  stop(): Promise<void>;
}

/**
 * Runs the maintenance in one instance at a time, the lease's holder: every instance asks each
 * MAINTENANCE_TICK_MS; the holder runs each job when due, slice by slice, renewing the lease between
 * slices of a long run. A failure is logged and the job tried again at its next interval. Started once
 * the server listens; `timer: false` leaves the rounds to `tick` (tests).
 */
export function startMaintenance(
  jobs: readonly MaintenanceJob[],
  deps: {
    lease: Lease;
    clock: Clock;
    log: MaintenanceLog;
    firstDelayMs?: number;
    tickMs?: number;
    timer?: boolean;
  },
): Maintenance {
  const { lease, clock, log } = deps;
  const tickMs = deps.tickMs ?? MAINTENANCE_TICK_MS;
  const started = clock.now();
  const due = jobs.map((job) => started + Math.min(deps.firstDelayMs ?? FIRST_RUN_DELAY_MS, job.intervalMs));
  let held = false;
  let renewedAt = 0;
  let stopped = false;
  let longest = 0;
  let round: Promise<void> | undefined;

  const renew = async () => {
    try {
      held = await lease.acquire();
    } catch (error) {
      held = false;
      log.warn({ cause: (error as Error).message }, 'maintenance lease not reachable; trying again later');
    }
    renewedAt = clock.now();
    return held;
  };

  const runJob = async (job: MaintenanceJob) => {
    let sliceStart = performance.now();
    let slices = 1;
    let jobLongest = 0;
    const slice = async () => {
      const took = performance.now() - sliceStart;
      jobLongest = Math.max(jobLongest, took);
      await nextTurn();
      slices++;
      if (stopped) return false;
      if (clock.now() - renewedAt >= tickMs && !(await renew())) return false;
      sliceStart = performance.now();
      return true;
    };
    try {
      const done = await job.run(clock.now(), slice);
      jobLongest = Math.max(jobLongest, performance.now() - sliceStart);
      if (done > 0)
        log.info({ count: done, slices, longestSliceMs: Math.round(jobLongest * 10) / 10 }, job.what);
    } catch (error) {
      // Only ever a database that cannot be reached now: its outage is reported where it is found.
      log.warn({ cause: (error as Error).message }, `maintenance failed: ${job.what}`);
    }
    longest = Math.max(longest, jobLongest);
  };

  const once = async () => {
    if (!(await renew())) return;
    for (const [index, job] of jobs.entries()) {
      if (stopped || !held) return;
      if (clock.now() < due[index]!) continue;
      await runJob(job);
      due[index] = clock.now() + job.intervalMs;
    }
  };

  const tick = () => {
    // One round at a time: a round still running when the next is due lets it pass.
    round ??= once().finally(() => {
      round = undefined;
    });
    return round;
  };

  const timer = deps.timer === false ? undefined : setInterval(() => void tick(), tickMs).unref();
  if (timer) void tick();

  return {
    tick,
    owns: () => held,
    longestSliceMs: () => longest,
    async stop() {
      stopped = true;
      if (timer) clearInterval(timer);
      await round;
      if (!held) return;
      held = false;
      await lease.release().catch((error: unknown) => {
        log.warn({ cause: (error as Error).message }, 'maintenance lease not let go; it expires');
      });
    },
  };
}
