/**
 * RFC 3339's `date-time` (section 5.6), the contract's `format: date-time`: `T` or `t` between date and
 * time, `Z`, `z` or a numeric offset, any number of fraction digits (read to the millisecond).
 */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

const daysIn = (year: number, month: number): number =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/**
 * The instant (milliseconds since the epoch) an RFC 3339 date-time names, or undefined when the text
 * is not one or names no real day, hour or offset. A leap second (`:60`) is accepted only where one can
 * fall, at 23:59 UTC, and read as the instant after it. Date.parse is not used: it reads much that
 * RFC 3339 is not (`2026`, `Nov 22 2026`) and misses some that it is (`t`, `z`).
 */
export function parseDateTime(text: string): number | undefined {
  const match = DATE_TIME.exec(text);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const sign = match[8] === '-' ? -1 : 1;
  const offsetHours = match[9] === undefined ? 0 : Number(match[9]);
  const offsetMinutes = match[10] === undefined ? 0 : Number(match[10]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (hour > 23 || minute > 59 || second > 60 || offsetHours > 23 || offsetMinutes > 59) return undefined;
  const offset = sign * (offsetHours * 60 + offsetMinutes);
  if (second === 60) {
    const utcMinute = (((hour * 60 + minute - offset) % 1_440) + 1_440) % 1_440;
    if (utcMinute !== 23 * 60 + 59) return undefined;
  }
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, Number((match[7] ?? '0').slice(0, 3).padEnd(3, '0')));
  return at.getTime() - offset * 60_000;
}
