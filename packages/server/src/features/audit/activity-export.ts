import { setImmediate as nextTurn } from 'node:timers/promises';
import { csvCell } from '../requests/request-export.ts';
import type { AuditQuery, AuditRecords, StoredAuditEvent } from './audit-records.ts';

/** Events read at a time while exporting: an export of any length holds one page in memory. */
export const ACTIVITY_EXPORT_PAGE = 500;

/** A query's events, newest first, a page at a time, the event loop given back between pages. */
export async function* activityPagesOf(
  records: Pick<AuditRecords, 'list'>,
  query: Omit<AuditQuery, 'limit' | 'before'>,
  pageRows = ACTIVITY_EXPORT_PAGE,
): AsyncGenerator<StoredAuditEvent[]> {
  let before: AuditQuery['before'];
  for (;;) {
    const page = await records.list({ ...query, limit: pageRows, ...(before ? { before } : {}) });
    if (page.length > 0) yield page;
    if (page.length < pageRows) return;
    const last = page.at(-1)!;
    before = { at: last.at, id: last.id };
    await nextTurn();
  }
}

/**
 * The Activity export as CSV (RFC 4180, CRLF line ends): the API's field names (`at`, `actor`,
 * `action`, `target`, `via`, and `address` for owners), the header first, then a chunk per page.
 */
export async function* activityCsv(
  pages: AsyncIterable<StoredAuditEvent[]>,
  addresses: boolean,
): AsyncGenerator<string> {
  const columns = ['at', 'actor', 'action', 'target', 'via', ...(addresses ? ['address'] : [])];
  yield `${columns.join(',')}\r\n`;
  for await (const page of pages) {
    yield page
      .map((event) => {
        const cells = [
          new Date(event.at).toISOString(),
          event.actor,
          event.action,
          event.target,
          event.via ?? null,
        ];
        if (addresses) cells.push(event.address);
        return `${cells.map(csvCell).join(',')}\r\n`;
      })
      .join('');
  }
}
