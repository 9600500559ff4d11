import type { AuthenticatedKey, Plan } from '../storage/records.ts';
import type { LimitSubject } from './limiter.ts';

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

/**
 * What a key's requests are counted against. A standalone key is held to its own plan. A project key
 * is held to its project's plan, counted for all the project's keys together (on every instance), and
 * to its own lower limits when it has them; a ban is the key's alone.
 */
export function keySubject(key: AuthenticatedKey): LimitSubject {
  // Built once per record (records are never changed: a changed key is a new record), so the limiter
  // finds the subject's policies by identity on every request.
  let subject = subjects.get(key);
  if (!subject) subjects.set(key, (subject = subjectOf(key)));
  return subject;
}

const subjects = new WeakMap<AuthenticatedKey, LimitSubject>();

/** Every object as one literal, its properties in the object itself (no spread, no property array). */
function subjectOf(key: AuthenticatedKey): LimitSubject {
  const bucket = `key:${key.id}`;
  if (key.projectId === null) {
    const { perMinute, perDay } = limitsFor(key);
    return { bucket, perMinute, perDay, banLiftedAt: key.banLiftedAt, bannedUntil: key.bannedUntil };
  }
  // The project's plan alone: a key's own limits are its own windows, never the project's.
  const plan = limitsFor({ plan: key.plan, perMinute: key.perMinute, perDay: key.perDay });
  return {
    bucket,
    perMinute: key.ownPerMinute ?? Infinity,
    perDay: key.ownPerDay ?? Infinity,
    group: { bucket: `project:${key.projectId}`, perMinute: plan.perMinute, perDay: plan.perDay },
    banLiftedAt: key.banLiftedAt,
    bannedUntil: key.bannedUntil,
  };
}
