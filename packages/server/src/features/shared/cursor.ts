import { parseInt64 } from '../../json/int64.ts';

/**
 * Keyset cursors of the management API's lists: the last row's instant and id, opaque to clients
 * (base64url). An altered cursor reads as undefined, which the routes answer with 400 invalid_cursor.
 */
export interface Position {
  at: number;
  id: string;
}

/**
 * Whether a position names what a row can hold: an instant JavaScript counts exactly (at most 2^53 − 1
 * ms) and, for tables numbered by the database (`numbered`: the audit trail, the request log), an id
 * from 1 to 2^63 − 1. A number beyond is no row's: refused here, never sent to the database.
 */
export function positionInRange(position: Position, numbered: boolean): boolean {
  if (!Number.isSafeInteger(position.at)) return false;
  if (!numbered) return true;
  const id = parseInt64(position.id);
  return id !== undefined && id > 0n;
}

export const encodeCursor = ({ at, id }: Position): string =>
  Buffer.from(`${at}.${id}`, 'utf8').toString('base64url');

/** The position of a cursor a page gave, or undefined (`numbered`: see positionInRange). */
export function decodeCursor(cursor: string, numbered = false): Position | undefined {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return undefined;
  const match = /^(\d{1,16})\.([A-Za-z0-9_]{1,64})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  const position = match ? { at: Number(match[1]), id: match[2]! } : undefined;
  return position && positionInRange(position, numbered) ? position : undefined;
}

/** One page of a list: its items and, when more follow, the cursor of the next page. */
export interface Page<T> {
  data: T[];
  hasMore: boolean;
  next: string | null;
}

/** A page from `limit + 1` rows read: the extra row only says that more follow. */
export function pageOf<T>(rows: T[], limit: number, position: (row: T) => Position): Page<T> {
  const data = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return { data, hasMore, next: hasMore ? encodeCursor(position(data.at(-1)!)) : null };
}
