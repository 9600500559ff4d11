import { positionInRange } from '../shared/cursor.ts';
import { uuidV7PrefixRange } from './request-log-batch.ts';
import type { RequestLogQuery, StatusFilter } from './request-log-records.ts';

const DURATION = /^(\d{1,6})(m|h|d)$/;
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `2xx`, `4xx`, `429`, `5xx` or a status code from 100 to 599; undefined for anything else. */
export function parseStatusFilter(text: string): StatusFilter | undefined {
  if (text === '2xx' || text === '4xx' || text === '429' || text === '5xx') return text;
  if (/^[1-5]\d\d$/.test(text)) return Number(text);
  return undefined;
}

/**
 * A search by request id: the service's own ids (UUIDv7) in any case and by a prefix of 8 or more
 * characters; an id the client chose (its X-Request-Id) exactly as it sent it.
 */
export function requestIdSearch(text: string): Pick<RequestLogQuery, 'requestId' | 'requestIdPrefix'> {
  const lower = text.toLowerCase();
  return uuidV7PrefixRange(lower) ? { requestIdPrefix: lower } : { requestId: text };
}

/** Whether a search by request id may match several requests (a prefix shorter than a whole id). */
export const searchesByPrefix = (search: Pick<RequestLogQuery, 'requestIdPrefix'>): boolean =>
  search.requestIdPrefix !== undefined && search.requestIdPrefix.length < 36;

/**
 * The instant a `since` names at `now`: a duration back (`30m`, `1h`, `7d`) or an ISO 8601 instant
 * (`2026-11-25T10:00:00Z`); undefined when it is neither.
 */
export function parseSince(text: string, now: number): number | undefined {
  const duration = DURATION.exec(text);
  if (duration) return now - Number(duration[1]) * UNIT_MS[duration[2] as keyof typeof UNIT_MS];
  if (!/^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}

/** A page's position: `<at>.<id>` of the last row shown; undefined when malformed or no row's. */
export function parseCursor(text: string): { at: number; id: string } | undefined {
  const match = /^(\d{1,16})\.(\d{1,19})$/.exec(text);
  const position = match ? { at: Number(match[1]), id: match[2]! } : undefined;
  return position && positionInRange(position, true) ? position : undefined;
}

export const cursorOf = (row: { at: number; id: string }): string => `${row.at}.${row.id}`;
