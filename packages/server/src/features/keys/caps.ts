import type { Plan } from '../../storage/records.ts';

/**
 * Keys in use (neither revoked nor expired) a project may hold, by plan: every key is a way into the
 * project's shared limits and its request log, so their number is bounded like every other queue.
 */
export const KEYS_PER_PLAN: Readonly<Record<Plan, number>> = {
  free: 10,
  pro: 50,
  business: 200,
  enterprise: 1_000,
};
