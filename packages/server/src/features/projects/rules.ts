import { PLANS, type Plan } from '../../storage/records.ts';
import { labelProblem } from '../shared/text-rules.ts';

/** A slug names the project in URLs and in its docs site's default host `<slug>.<site domain>`. */
export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/;
export const MAX_NAME_LENGTH = 100;

/** Why a slug is refused (DNS-label safe: lower-case letters, digits, inner dashes, 1 to 40), or undefined. */
export function slugProblem(slug: string): string | undefined {
  return SLUG.test(slug)
    ? undefined
    : 'the slug must be 1 to 40 lower-case letters, digits and dashes, not starting or ending with a dash';
}

/**
 * Why a project name is refused (1 to 100 characters, not only spaces, nothing a reader cannot see:
 * labelProblem), or undefined.
 */
export function nameProblem(name: string): string | undefined {
  const length = [...name].length;
  if (name.trim() === '' || length > MAX_NAME_LENGTH)
    return `the name must be 1 to ${MAX_NAME_LENGTH} characters`;
  return labelProblem(name, 'name', MAX_NAME_LENGTH);
}

export interface PlanChoice {
  plan: Plan;
  perMinute: number | null;
  perDay: number | null;
}

/** Enterprise carries its own limits; the other plans have fixed ones. Why a choice is refused, or undefined. */
export function planProblem({ plan, perMinute, perDay }: PlanChoice): string | undefined {
  if (!PLANS.includes(plan)) return `the plan must be one of ${PLANS.join(', ')}`;
  if (plan === 'enterprise' && (perMinute === null || perDay === null)) {
    return 'an enterprise plan needs --per-minute N and --per-day N';
  }
  if (plan !== 'enterprise' && (perMinute !== null || perDay !== null)) {
    return '--per-minute and --per-day are for the enterprise plan; other plans have fixed limits';
  }
  return undefined;
}

/** Custom domains need Pro or above (spec section 1). */
export const PAID_PLANS: readonly Plan[] = ['pro', 'business', 'enterprise'];

/** Whether the project's plan allows custom domains (Pro and above). */
export const isPaid = (project: { plan: Plan }): boolean => PAID_PLANS.includes(project.plan);
