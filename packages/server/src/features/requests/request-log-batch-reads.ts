import {
  BATCH_SLOTS,
  type BatchSlot,
  combinationPattern,
  decodeSlots,
  newestFirst,
  slotFilter,
  toStored,
  uuidV7Ms,
  uuidV7PrefixRange,
} from './request-log-batch.ts';
import type { RequestLogQuery, RequestLogRecords, StoredRequest } from './request-log-records.ts';
import type { Row } from '../../storage/rows.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';

/** Batches a listing reads first; each further read takes four times as many, up to the last. */
const FIRST_READ = 2;
const LAST_READ = 128;

const INT64_MAX = 2n ** 63n - 1n;

/**
 * An export's reads: as many batches as a page would fill when full, then twice as many while a read
 * makes less than half a page ready (sparse batches: traffic spread over many projects), half as many
 * when one makes more than two pages ready, between 1 and LAST_READ.
 */
const exportReads =
  (pageRows: number) =>
  (previous: { batches: number; ready: number } | undefined): number => {
    if (!previous) return Math.max(1, Math.ceil(pageRows / BATCH_SLOTS));
    if (previous.ready < pageRows / 2) return Math.min(previous.batches * 2, LAST_READ);
    if (previous.ready > pageRows * 2) return Math.max(1, Math.floor(previous.batches / 2));
    return previous.batches;
  };

/**
 * A batch's requests: its own `rows` (written before migration 135, or alone in its page on SQLite), or
 * its project's part of the page
 * of its write after the page's header (request-log-pages.ts), cut out by position: no other project's
 * requests are read.
 */
const BATCH_ROWS = `CASE WHEN b.page_id IS NULL THEN b.rows
  WHEN p.header_length = 0 THEN substr(p.rows, b.rows_from, b.rows_length)
  ELSE substr(p.rows, 1, p.header_length) || substr(p.rows, b.rows_from, b.rows_length) || '}' END AS rows`;

/** The batches with their pages: a page has its batches' expiry, which picks its partition. */
const BATCHES_WITH_PAGES = `request_log_batches b
  LEFT JOIN request_log_pages p ON p.id = b.page_id AND p.expires_at = b.expires_at`;

/**
 * A listing's read of batches, newest first. Its parameters follow the conditions' from `next` on: the
 * batch `(last_at, id)` to read after when `after`, then the limit.
 */
export const batchListing = (conditions: readonly string[], next: number, after: boolean): string =>
  `SELECT b.id, b.last_at, ${BATCH_ROWS} FROM ${BATCHES_WITH_PAGES} WHERE ${conditions.join(' AND ')}
   ${after ? `AND (b.last_at, b.id) < ($${next}, $${next + 1})` : ''} ORDER BY b.last_at DESC, b.id DESC
   LIMIT $${after ? next + 2 : next}`;

export const REQUEST_ID_LOOKUP =
  'SELECT row_id FROM request_log_request_ids WHERE project_id = $1 AND request_id = $2';

/** The batches whose UUIDv7 request ids span a time. */
export const REQUEST_TIME_LOOKUP =
  'SELECT id FROM request_log_batches WHERE project_id = $1 AND id_ms_max >= $2 AND id_ms_min <= $2';

/** The batches whose UUIDv7 request ids' times meet a range (a prefix's). */
const REQUEST_TIMES_LOOKUP =
  'SELECT id FROM request_log_batches WHERE project_id = $1 AND id_ms_max >= $2 AND id_ms_min <= $3';

const BATCH_BY_ID = `SELECT b.id, ${BATCH_ROWS} FROM ${BATCHES_WITH_PAGES}
  WHERE b.id = $1 AND b.project_id = $2`;

/** A WHERE clause of one project's batches, built condition by condition with numbered parameters. */
function projectConditions(projectId: string) {
  const params: unknown[] = [projectId];
  const where = ['b.project_id = $1'];
  const add = (condition: (n: number) => string, value: unknown) => {
    params.push(value);
    where.push(condition(params.length));
  };
  return { params, where, add };
}

type Keep = ReturnType<typeof slotFilter>;

/** A stored batch's requests that `keep` takes, as the listings return them. */
function decoded(
  projectId: string,
  batch: Row,
  keep: (slot: NonNullable<BatchSlot>, rowId: number) => boolean,
) {
  const base = Number(batch.id) * BATCH_SLOTS;
  const found: StoredRequest[] = [];
  decodeSlots(batch.rows as string).forEach((slot, position) => {
    if (slot && keep(slot, base + position)) found.push(toStored(projectId, base + position, slot));
  });
  return found;
}

/**
 * The request log's reads (request-log-batch.ts), written once for SQLite and PostgreSQL: a listing
 * walks batches newest first and decodes only those its filters may match; a search by request id reads
 * the batches whose UUIDv7 time range holds the id's time, and those the request-id table names.
 */
export function batchReads(sql: SqlExecutor): Pick<RequestLogRecords, 'list' | 'get' | 'pages'> {
  const byRequestId = async (query: RequestLogQuery & { requestId: string }, keep: Keep) => {
    const rowIds = (await sql.all(REQUEST_ID_LOOKUP, [query.projectId, query.requestId])).map((row) =>
      Number(row.row_id),
    );
    const batchIds = new Set(rowIds.map((id) => Math.floor(id / BATCH_SLOTS)));
    const idMs = uuidV7Ms(query.requestId);
    if (idMs !== undefined) {
      for (const row of await sql.all(REQUEST_TIME_LOOKUP, [query.projectId, idMs]))
        batchIds.add(Number(row.id));
    }
    const found: StoredRequest[] = [];
    for (const batchId of batchIds) {
      const [batch] = await sql.all(BATCH_BY_ID, [batchId, query.projectId]);
      if (batch) found.push(...decoded(query.projectId, batch, keep));
    }
    return found.sort(newestFirst).slice(0, query.limit);
  };

  /** Reads the batches one at a time, keeping only the newest `limit` matches. */
  const prefixed = async (query: RequestLogQuery & { requestIdPrefix: string }, keep: Keep) => {
    const range = uuidV7PrefixRange(query.requestIdPrefix);
    if (!range) return [];
    let found: StoredRequest[] = [];
    for (const row of await sql.all(REQUEST_TIMES_LOOKUP, [query.projectId, ...range])) {
      const [batch] = await sql.all(BATCH_BY_ID, [row.id, query.projectId]);
      if (!batch) continue;
      found = [...found, ...decoded(query.projectId, batch, keep)].sort(newestFirst).slice(0, query.limit);
    }
    return found;
  };

  /**
   * Newest first, merging batches whose times overlap: a request is given once no unread batch can hold
   * a newer one. Each read is one statement of `reads(previous)` batches after the last one read (by
   * `(last_at, id)`, a keyset: nothing stays open between reads); what it made ready is yielded, maybe
   * nothing, until the last batch.
   */
  async function* walk(
    query: Omit<RequestLogQuery, 'limit'>,
    keep: Keep,
    reads: (previous: { batches: number; ready: number } | undefined) => number,
  ): AsyncGenerator<StoredRequest[]> {
    const { params, where, add } = projectConditions(query.projectId);
    if (query.since !== undefined) add((n) => `b.last_at >= $${n}`, query.since);
    if (query.until !== undefined) add((n) => `b.first_at < $${n}`, query.until);
    if (query.before) add((n) => `b.first_at <= $${n}`, query.before.at);
    const pattern = combinationPattern({ ...query, limit: 0 });
    if (pattern !== undefined) add((n) => `b.combinations LIKE $${n} ESCAPE '\\'`, pattern);
    const first = batchListing(where, params.length + 1, false);
    const next = batchListing(where, params.length + 1, true);
    let waiting: StoredRequest[] = [];
    let after: [number, number] | undefined;
    let previous: { batches: number; ready: number } | undefined;
    for (;;) {
      const count = reads(previous);
      const batches = after
        ? await sql.all(next, [...params, ...after, count])
        : await sql.all(first, [...params, count]);
      for (const batch of batches) waiting.push(...decoded(query.projectId, batch, keep));
      waiting.sort(newestFirst);
      const last = batches.at(-1);
      const more = batches.length === count && last !== undefined;
      // Every unread batch is older than the last one read, or as old with a smaller id.
      const bound = more ? { at: Number(last.last_at), id: Number(last.id) * BATCH_SLOTS } : undefined;
      let ready = 0;
      while (
        ready < waiting.length &&
        (!bound ||
          waiting[ready]!.at > bound.at ||
          (waiting[ready]!.at === bound.at && Number(waiting[ready]!.id) >= bound.id))
      )
        ready++;
      yield waiting.slice(0, ready);
      if (!more) return;
      waiting = waiting.slice(ready);
      after = [Number(last.last_at), Number(last.id)];
      previous = { batches: count, ready };
    }
  }

  /** A listing's reads: FIRST_READ batches, then four times as many each time, up to LAST_READ. */
  const scan = async (query: RequestLogQuery, keep: Keep) => {
    const listed: StoredRequest[] = [];
    const growing = (previous?: { batches: number }) =>
      previous ? Math.min(previous.batches * 4, LAST_READ) : FIRST_READ;
    for await (const ready of walk(query, keep, growing)) {
      listed.push(...ready);
      if (listed.length >= query.limit) break;
    }
    return listed.slice(0, query.limit);
  };

  const list = async (query: RequestLogQuery) => {
    const keep = slotFilter(query);
    if (query.requestId !== undefined)
      return byRequestId(query as RequestLogQuery & { requestId: string }, keep);
    if (query.requestIdPrefix !== undefined)
      return prefixed(query as RequestLogQuery & { requestIdPrefix: string }, keep);
    return scan(query, keep);
  };

  return {
    list,
    async *pages(query, pageRows) {
      const keep = slotFilter({ ...query, limit: pageRows });
      if (query.requestId !== undefined || query.requestIdPrefix !== undefined) {
        // A search by request id reads a few batches: one listing, as its page.
        yield await list({ ...query, limit: Number.MAX_SAFE_INTEGER });
        return;
      }
      let page: StoredRequest[] = [];
      for await (const ready of walk(query, keep, exportReads(pageRows))) {
        page = page.length === 0 ? ready : page.concat(ready);
        while (page.length >= pageRows) {
          yield page.slice(0, pageRows);
          page = page.slice(pageRows);
        }
      }
      if (page.length > 0) yield page;
    },
    async get(projectId, id) {
      if (!/^\d{1,19}$/.test(id) || BigInt(id) > INT64_MAX) return undefined;
      const rowId = BigInt(id);
      const slots = BigInt(BATCH_SLOTS);
      const [batch] = await sql.all(BATCH_BY_ID, [rowId / slots, projectId]);
      const slot = batch && decodeSlots(batch.rows as string)[Number(rowId % slots)];
      return slot ? toStored(projectId, Number(rowId), slot) : undefined;
    },
  };
}
