import { ApiError } from '../../errors.ts';
import { AUDIT_ACTIONS, type AuditAction, type AuditQuery } from './audit-records.ts';

const DAY_MS = 86_400_000;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The Activity tab's filters as the form sends them: empty strings for "any". */
export interface ActivityFilters {
  actor: string;
  action: string;
  /** First and last day shown (UTC), `YYYY-MM-DD`: both included. */
  from: string;
  to: string;
}

const invalid = (param: string, message: string) => new ApiError('invalid_parameter', message, { param });

/** Midnight UTC of a `YYYY-MM-DD` day, or undefined when it is no such day. */
function dayStart(text: string): number | undefined {
  const match = DATE.exec(text);
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  const at = Date.UTC(year, month - 1, day);
  const back = new Date(at);
  return back.getUTCFullYear() === year && back.getUTCMonth() === month - 1 && back.getUTCDate() === day
    ? at
    : undefined;
}

/**
 * The filters of an Activity page or export, checked: an actor (an email in any case, `operator` or
 * `service`), an action, and a range of whole UTC days. Anything else is a 400 naming the field.
 */
export function activityQuery(query: Record<string, unknown>): {
  filters: ActivityFilters;
  listing: Pick<AuditQuery, 'actor' | 'action' | 'since' | 'until'>;
} {
  const text = (name: string) => {
    const value = query[name];
    if (value === undefined) return '';
    if (typeof value !== 'string') throw invalid(name, `${name} must be given once`);
    return value.trim();
  };
  const filters: ActivityFilters = {
    actor: text('actor'),
    action: text('action'),
    from: text('from'),
    to: text('to'),
  };
  const listing: Pick<AuditQuery, 'actor' | 'action' | 'since' | 'until'> = {};
  if (filters.actor) {
    if (filters.actor.length > 254) throw invalid('actor', 'actor is at most 254 characters');
    listing.actor = filters.actor;
  }
  if (filters.action) {
    if (!(AUDIT_ACTIONS as readonly string[]).includes(filters.action))
      throw invalid('action', 'action must be one of the actions the list offers');
    listing.action = filters.action as AuditAction;
  }
  if (filters.from) {
    listing.since = dayStart(filters.from);
    if (listing.since === undefined) throw invalid('from', 'from must be a day, such as 2026-11-29');
  }
  if (filters.to) {
    const start = dayStart(filters.to);
    if (start === undefined) throw invalid('to', 'to must be a day, such as 2026-11-29');
    listing.until = start + DAY_MS;
  }
  if (listing.since !== undefined && listing.until !== undefined && listing.since >= listing.until)
    throw invalid('to', 'to must be the same day as from or later');
  return { filters, listing };
}

/** The filters as a query string, as the form sends them (empty ones left out). */
export function activityFilterQuery(filters: ActivityFilters): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(filters)) if (value) params.set(name, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}
