import type { Plan } from '../storage/records.ts';

export interface Limits {
  perMinute: number;
  perDay: number;
}

export const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, Limits> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

/** Requests without a valid key are limited per client address at the Free plan's rates. */
export const ANONYMOUS_LIMITS: Limits = PLAN_LIMITS.free;

/**
 * The limits a key is held to. A key's custom numbers win when set (enterprise keys carry them);
 * an enterprise key created without them gets the Business plan's numbers rather than no limit.
 */
export function limitsFor(key: {
  plan: Plan;
  perMinute: number | null;
  perDay: number | null;
  /** A key's own limits (management API): they only ever lower the plan's. */
  ownPerMinute?: number | null;
  ownPerDay?: number | null;
}): Limits {
  const base = key.plan === 'enterprise' ? PLAN_LIMITS.business : PLAN_LIMITS[key.plan];
  const perMinute = key.perMinute ?? base.perMinute;
  const perDay = key.perDay ?? base.perDay;
  return {
    perMinute: Math.min(perMinute, key.ownPerMinute ?? perMinute),
    perDay: Math.min(perDay, key.ownPerDay ?? perDay),
  };
}
