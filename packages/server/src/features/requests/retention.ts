import type { Plan } from '../../storage/records.ts';
import { REQUEST_LOG_RETENTION_DAYS } from './request-log-expiry.ts';

export { REQUEST_LOG_RETENTION_DAYS };

const DAY_MS = 86_400_000;

/** The oldest instant still kept for a plan at `now`. */
export const retainedSince = (plan: Plan, now: number): number =>
  now - REQUEST_LOG_RETENTION_DAYS[plan] * DAY_MS;

/** The request log is purged this often. */
export const REQUEST_LOG_PURGE_INTERVAL_MS = 15 * 60_000;

/** Hourly usage rollups are kept 90 days whatever the plan: they hold counts, no request. */
export const USAGE_RETENTION_MS = 90 * DAY_MS;

/** The audit trail is kept a year. */
export const AUDIT_RETENTION_MS = 365 * DAY_MS;
