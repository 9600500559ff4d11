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
import type { Row } from './rows.ts';
import type { SqlExecutor } from './sql-executor.ts';

/** Batches a listing reads first; each further read takes four times as many, up to the last. */
const FIRST_READ = 2;
const LAST_READ = 128;

const INT64_MAX = 2n ** 63n - 1n;

/**
 * A batch's requests: its own `rows` (written before migration 135), or its project's part of the page
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
export function batchReads(sql: SqlExecutor): Pick<RequestLogRecords, 'list' | 'get'> {
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

  /** Newest first, merging batches whose times overlap: a request is listed once no unread batch can hold a newer one. */
  const scan = async (query: RequestLogQuery, keep: Keep) => {
    const { params, where, add } = projectConditions(query.projectId);
    if (query.since !== undefined) add((n) => `b.last_at >= $${n}`, query.since);
    if (query.until !== undefined) add((n) => `b.first_at < $${n}`, query.until);
    if (query.before) add((n) => `b.first_at <= $${n}`, query.before.at);
    const pattern = combinationPattern(query);
    if (pattern !== undefined) add((n) => `b.combinations LIKE $${n} ESCAPE '\\'`, pattern);
    const first = batchListing(where, params.length + 1, false);
    const next = batchListing(where, params.length + 1, true);
    const listed: StoredRequest[] = [];
    let waiting: StoredRequest[] = [];
    let after: [number, number] | undefined;
    for (let reads = FIRST_READ; ; reads = Math.min(reads * 4, LAST_READ)) {
      const batches = after
        ? await sql.all(next, [...params, ...after, reads])
        : await sql.all(first, [...params, reads]);
      for (const batch of batches) waiting.push(...decoded(query.projectId, batch, keep));
      waiting.sort(newestFirst);
      const last = batches.at(-1);
      const more = batches.length === reads && last !== undefined;
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
      listed.push(...waiting.slice(0, ready));
      if (listed.length >= query.limit || !more) return listed.slice(0, query.limit);
      waiting = waiting.slice(ready);
      after = [Number(last.last_at), Number(last.id)];
    }
  };

  return {
    async list(query) {
      const keep = slotFilter(query);
      if (query.requestId !== undefined)
        return byRequestId(query as RequestLogQuery & { requestId: string }, keep);
      if (query.requestIdPrefix !== undefined)
        return prefixed(query as RequestLogQuery & { requestIdPrefix: string }, keep);
      return scan(query, keep);
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
