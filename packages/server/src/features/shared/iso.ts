const DAY_MS = 86_400_000;
/** The largest instant a Date holds, either side of 1970. */
const MAX_INSTANT = 8.64e15;
const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** The day of the last instant written, and its `YYYY-MM-DDT`: a page's instants mostly share one. */
let lastDay = Number.NaN;
let lastPrefix = '';

/**
 * An instant as the management API writes it: ISO 8601 in UTC, as `Date#toISOString`. V8 formats that
 * through snprintf, about a tenth of a page of keys' cost; here only the date part is, once a day.
 */
export function iso(at: number): string {
  if (!Number.isInteger(at) || Math.abs(at) > MAX_INSTANT) return new Date(at).toISOString();
  const day = Math.floor(at / DAY_MS);
  if (day !== lastDay) {
    const full = new Date(at).toISOString();
    lastPrefix = full.slice(0, full.indexOf('T') + 1);
    lastDay = day;
  }
  const ms = at - day * DAY_MS;
  const seconds = Math.floor(ms / 1_000);
  return `${lastPrefix}${pad(Math.floor(seconds / 3_600), 2)}:${pad(Math.floor(seconds / 60) % 60, 2)}:${pad(seconds % 60, 2)}.${pad(ms % 1_000, 3)}Z`;
}

export const isoOrNull = (at: number | null | undefined): string | null =>
  at === null || at === undefined ? null : iso(at);
