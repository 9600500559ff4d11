import type { Plan } from '../../storage/records.ts';

const DAY_MS = 86_400_000;

/** How long each plan keeps its request log: Free a day, Pro a week, Business and Enterprise 30 days. */
export const REQUEST_LOG_RETENTION_DAYS: Readonly<Record<Plan, number>> = {
  free: 1,
  pro: 7,
  business: 30,
  enterprise: 30,
};

/** The retention of a project no longer found: the longest, so nothing goes early. */
export const LONGEST_RETENTION_DAYS = Math.max(...Object.values(REQUEST_LOG_RETENTION_DAYS));

/** Every distinct retention, in days: a day's batches expire on one of these days after it. */
export const RETENTION_DAY_COUNTS = [...new Set(Object.values(REQUEST_LOG_RETENTION_DAYS))];

/**
 * When a stored batch of one UTC day expires, fixed at its write from the project's plan then (as its
 * requests' key had it, kept current by the change feed; looked up for a request without it): the end
 * of its day plus the plan's retention. A request is kept its plan's retention at least and one day at
 * most beyond it, and expired batches go whole (a PostgreSQL partition, a SQLite slice) with no request
 * decoded. A later change of plan applies to the requests written after it.
 */
export const batchExpiresAt = (day: number, retentionDays: number): number =>
  (day + 1 + retentionDays) * DAY_MS;

/** SQL of a plan column's retention in days (an unknown or missing plan: the longest). */
export const retentionDaysSql = (plan: string): string =>
  `CASE ${plan} ${Object.entries(REQUEST_LOG_RETENTION_DAYS)
    .map(([name, days]) => `WHEN '${name}' THEN ${days}`)
    .join(' ')} ELSE ${LONGEST_RETENTION_DAYS} END`;
