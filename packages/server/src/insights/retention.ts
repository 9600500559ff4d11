import type { Plan } from '../storage/records.ts';

const DAY_MS = 86_400_000;

/** How long each plan keeps its request log: Free a day, Pro a week, Business and Enterprise 30 days. */
export const REQUEST_LOG_RETENTION_DAYS: Readonly<Record<Plan, number>> = {
  free: 1,
  pro: 7,
  business: 30,
  enterprise: 30,
};

/** The oldest instant still kept for a plan at `now`. */
export const retainedSince = (plan: Plan, now: number): number =>
  now - REQUEST_LOG_RETENTION_DAYS[plan] * DAY_MS;

/** Every plan's cutoff at `now`: rows older than their project's plan's cutoff are purged. */
export function retentionCutoffs(now: number): Record<Plan, number> {
  return {
    free: retainedSince('free', now),
    pro: retainedSince('pro', now),
    business: retainedSince('business', now),
    enterprise: retainedSince('enterprise', now),
  };
}

/** The request log is purged this often. */
export const REQUEST_LOG_PURGE_INTERVAL_MS = 15 * 60_000;

/** Hourly usage rollups are kept 90 days whatever the plan: they hold counts, no request. */
export const USAGE_RETENTION_MS = 90 * DAY_MS;

/** The audit trail is kept a year. */
export const AUDIT_RETENTION_MS = 365 * DAY_MS;
