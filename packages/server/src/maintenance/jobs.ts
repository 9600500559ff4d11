import { FORGET_FAILURES_AFTER_MS } from '../features/identity/sign-in-throttle.ts';
import { CHECK_POLL_MS } from '../features/domains/background-checks.ts';
import { IDEMPOTENCY_PURGE_INTERVAL_MS } from '../idempotency/policy.ts';
import {
  AUDIT_RETENTION_MS,
  REQUEST_LOG_PURGE_INTERVAL_MS,
  USAGE_RETENTION_MS,
} from '../features/requests/retention.ts';
import { idempotentResponseRecords } from '../idempotency/idempotent-response-records.ts';
import { createOutboxRecords, OUTBOX_KEEP_MS } from '../mail/outbox-records.ts';
import type { Store } from '../features/store.ts';
import type { PurgeSlice } from '../features/requests/request-log-records.ts';
import type { MaintenanceJob } from './scheduler.ts';

/** Rows a purge deletes per slice: a few milliseconds of SQLite's work, on the event loop. */
export const SLICE_ROWS = 500;

const HOUR_MS = 60 * 60_000;

/** A purge by a limited DELETE, repeated slice by slice until one deletes fewer than SLICE_ROWS. */
const sliced =
  (purge: (now: number, limit: number) => Promise<number>) =>
  async (now: number, slice: PurgeSlice): Promise<number> => {
    let removed = 0;
    for (;;) {
      const deleted = await purge(now, SLICE_ROWS);
      removed += deleted;
      if (deleted < SLICE_ROWS || !(await slice())) return removed;
    }
  };

/** Everything the maintenance owner runs: the purges, and the custom domains' re-checks. */
export function maintenanceJobs(
  storage: Store,
  domainChecks: (() => Promise<number>) | undefined,
): MaintenanceJob[] {
  const jobs: MaintenanceJob[] = [
    {
      what: 'expired idempotency records purged',
      intervalMs: IDEMPOTENCY_PURGE_INTERVAL_MS,
      run: sliced((now, limit) => storage.idempotency.purge(now, limit)),
    },
    {
      what: 'expired idempotent management answers purged',
      intervalMs: IDEMPOTENCY_PURGE_INTERVAL_MS,
      run: sliced((now, limit) => idempotentResponseRecords(storage.sql).purge(now, limit)),
    },
    {
      what: 'expired sessions purged',
      intervalMs: HOUR_MS,
      run: sliced((now, limit) => storage.accounts.purgeSessions(now, limit)),
    },
    {
      what: 'request log batches past their retention purged',
      intervalMs: REQUEST_LOG_PURGE_INTERVAL_MS,
      run: (now, slice) => storage.requestLog.purge(now, slice),
    },
    {
      what: 'usage rollups older than 90 days purged',
      intervalMs: HOUR_MS,
      run: sliced((now, limit) => storage.requestLog.purgeUsage(now - USAGE_RETENTION_MS, limit)),
    },
    {
      what: 'audit events older than a year purged',
      intervalMs: HOUR_MS,
      run: sliced((now, limit) => storage.audit.purge(now - AUDIT_RETENTION_MS, limit)),
    },
    {
      what: 'expired password reset links purged',
      intervalMs: HOUR_MS,
      run: sliced((now, limit) => storage.accounts.purgePasswordResets(now, limit)),
    },
    {
      what: 'forgotten sign-in failures purged',
      intervalMs: HOUR_MS,
      run: sliced((now, limit) => storage.accounts.purgeThrottles(now - FORGET_FAILURES_AFTER_MS, limit)),
    },
    {
      what: 'outbox rows delivered or given up purged',
      intervalMs: HOUR_MS,
      run: sliced((now, limit) =>
        createOutboxRecords(storage.sql, storage.kind).purge(now - OUTBOX_KEEP_MS, limit),
      ),
    },
  ];
  // Each round claims a bounded number of due domains (domain-service.ts, checkDue).
  if (domainChecks)
    jobs.push({ what: 'custom domains checked', intervalMs: CHECK_POLL_MS, run: domainChecks });
  return jobs;
}
