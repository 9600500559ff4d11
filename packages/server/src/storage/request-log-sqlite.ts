import { setImmediate as nextTurn } from 'node:timers/promises';
import {
  BATCH_SLOTS,
  type BatchSlot,
  combinationPattern,
  decodeSlots,
  encodeSlots,
  newestFirst,
  slotFilter,
  toStored,
  uuidV7Ms,
} from './request-log-batch.ts';
import { PLANS } from './records.ts';
import {
  type LoggedRequest,
  type RequestLogQuery,
  type RequestLogRecords,
  requestFields,
  type StoredRequest,
} from './request-log-records.ts';
import type { Row } from './rows.ts';
import type { SqlExecutor } from './sql-executor.ts';
import type { SqliteDatabase } from './sqlite-database.ts';
import { rollUp, UPSERT_USAGE_CONFLICT, usageReads } from './usage-records.ts';

const INSERT_BATCH = `INSERT INTO request_log_batches (project_id, first_at, last_at, id_ms_min, id_ms_max,
  combinations, rows) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`;

const INSERT_REQUEST_ID =
  'INSERT INTO request_log_request_ids (project_id, request_id, row_id) VALUES (?, ?, ?)';

const UPSERT_USAGE = `INSERT INTO request_usage (project_id, key_id, hour, class, bucket, count)
  VALUES (?, ?, ?, ?, ?, ?) ${UPSERT_USAGE_CONFLICT}`;

/** Batches purged at a time, the event loop free between chunks. */
export const PURGE_CHUNK_BATCHES = 20;

/** Batches a listing reads first; each further read takes four times as many, up to the last. */
const FIRST_READ = 2;
const LAST_READ = 128;

const INT64_MAX = 2n ** 63n - 1n;

/** A listing's read of batches, newest first, after the batch `(last_at, id)` when `after`. */
export const batchListing = (conditions: readonly string[], after: boolean): string =>
  `SELECT id, last_at, rows FROM request_log_batches WHERE ${conditions.join(' AND ')}
   ${after ? 'AND (last_at, id) < (?, ?)' : ''} ORDER BY last_at DESC, id DESC LIMIT ?`;

export const REQUEST_ID_LOOKUP =
  'SELECT row_id FROM request_log_request_ids WHERE project_id = ? AND request_id = ?';

/** The batches whose UUIDv7 request ids span a time. */
export const REQUEST_TIME_LOOKUP =
  'SELECT id FROM request_log_batches WHERE project_id = ? AND id_ms_max >= ? AND id_ms_min <= ?';

/**
 * The request log in SQLite (request-log-batch.ts): a write stores each project's requests as batches of
 * up to BATCH_SLOTS, with a request-id entry for each id that is not a UUIDv7, in one transaction
 * without an fsync, on the service's one connection.
 */
export function createSqliteRequestLog(db: SqliteDatabase, sql: SqlExecutor): RequestLogRecords {
  const decoded = (
    projectId: string,
    batch: Row,
    keep: (slot: NonNullable<BatchSlot>, rowId: number) => boolean,
  ) => {
    const base = Number(batch.id) * BATCH_SLOTS;
    const found: StoredRequest[] = [];
    decodeSlots(batch.rows as string).forEach((slot, position) => {
      if (slot && keep(slot, base + position)) found.push(toStored(projectId, base + position, slot));
    });
    return found;
  };

  const byRequestId = (
    query: RequestLogQuery & { requestId: string },
    keep: ReturnType<typeof slotFilter>,
  ) => {
    const rowIds = db
      .all(REQUEST_ID_LOOKUP, query.projectId, query.requestId)
      .map((row) => Number(row.row_id));
    const batchIds = new Set(rowIds.map((id) => Math.floor(id / BATCH_SLOTS)));
    const idMs = uuidV7Ms(query.requestId);
    if (idMs !== undefined) {
      for (const row of db.all(REQUEST_TIME_LOOKUP, query.projectId, idMs, idMs))
        batchIds.add(Number(row.id));
    }
    const found: StoredRequest[] = [];
    for (const batchId of batchIds) {
      const batch = db.get(
        'SELECT id, rows FROM request_log_batches WHERE id = ? AND project_id = ?',
        batchId,
        query.projectId,
      );
      if (batch) found.push(...decoded(query.projectId, batch, keep));
    }
    return found.sort(newestFirst).slice(0, query.limit);
  };

  /** Newest first, merging batches whose times overlap: a request is listed once no unread batch can hold a newer one. */
  const scan = (query: RequestLogQuery, keep: ReturnType<typeof slotFilter>) => {
    const where = ['project_id = ?'];
    const params: (string | number)[] = [query.projectId];
    const add = (condition: string, value: string | number) => {
      where.push(condition);
      params.push(value);
    };
    if (query.since !== undefined) add('last_at >= ?', query.since);
    if (query.until !== undefined) add('first_at < ?', query.until);
    if (query.before) add('first_at <= ?', query.before.at);
    const pattern = combinationPattern(query);
    if (pattern !== undefined) add("combinations LIKE ? ESCAPE '\\'", pattern);
    const text = (after: boolean) => batchListing(where, after);
    const listed: StoredRequest[] = [];
    let waiting: StoredRequest[] = [];
    let after: [number, number] | undefined;
    for (let reads = FIRST_READ; ; reads = Math.min(reads * 4, LAST_READ)) {
      const batches = after
        ? db.all(text(true), ...params, ...after, reads)
        : db.all(text(false), ...params, reads);
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

  const writeProject = (projectId: string, entries: LoggedRequest[]) => {
    for (let start = 0; start < entries.length; start += BATCH_SLOTS) {
      const slots = entries.slice(start, start + BATCH_SLOTS).map(requestFields);
      const batch = encodeSlots(slots);
      const { id } = db.get(
        INSERT_BATCH,
        projectId,
        batch.firstAt,
        batch.lastAt,
        batch.idMsMin,
        batch.idMsMax,
        batch.combinations,
        batch.rows,
      )!;
      const base = Number(id) * BATCH_SLOTS;
      for (const position of batch.otherIds)
        db.run(INSERT_REQUEST_ID, projectId, slots[position]![1], base + position);
    }
  };

  /** Removes a project's requests older than the cutoff; a batch keeps its newer ones in their places. */
  const purgeProject = async (projectId: string, cutoff: number) => {
    let removed = 0;
    for (;;) {
      const batches = db.all(
        `SELECT id, rows FROM request_log_batches WHERE project_id = ? AND first_at < ? LIMIT ${PURGE_CHUNK_BATCHES}`,
        projectId,
        cutoff,
      );
      db.relaxedTransaction(() => {
        for (const batch of batches) {
          const base = Number(batch.id) * BATCH_SLOTS;
          const slots = decodeSlots(batch.rows as string);
          slots.forEach((slot, position) => {
            if (!slot || slot[0] >= cutoff) return;
            db.run(
              'DELETE FROM request_log_request_ids WHERE project_id = ? AND request_id = ? AND row_id = ?',
              projectId,
              slot[1],
              base + position,
            );
            slots[position] = null;
            removed++;
          });
          if (slots.every((slot) => slot === null)) {
            db.run('DELETE FROM request_log_batches WHERE id = ?', batch.id as bigint);
            continue;
          }
          const kept = encodeSlots(slots);
          db.run(
            `UPDATE request_log_batches SET first_at = ?, last_at = ?, id_ms_min = ?, id_ms_max = ?, combinations = ?,
               rows = ? WHERE id = ?`,
            kept.firstAt,
            kept.lastAt,
            kept.idMsMin,
            kept.idMsMax,
            kept.combinations,
            kept.rows,
            batch.id as bigint,
          );
        }
      });
      if (batches.length < PURGE_CHUNK_BATCHES) return removed;
      await nextTurn();
    }
  };

  return {
    ...usageReads(sql),
    async write(batch) {
      if (batch.length === 0) return;
      const perProject = new Map<string, LoggedRequest[]>();
      for (const entry of batch) {
        const entries = perProject.get(entry.projectId);
        if (entries) entries.push(entry);
        else perProject.set(entry.projectId, [entry]);
      }
      const cells = rollUp(batch);
      // Relaxed: a batch of log rows is not worth an fsync on the event loop (see relaxedTransaction).
      db.relaxedTransaction(() => {
        for (const [projectId, entries] of perProject) writeProject(projectId, entries);
        for (const c of cells)
          db.run(UPSERT_USAGE, c.projectId, c.keyId, c.hour, c.statusClass, c.bucket, c.count);
      });
    },
    async list(query) {
      const keep = slotFilter(query);
      return query.requestId === undefined
        ? scan(query, keep)
        : byRequestId(query as RequestLogQuery & { requestId: string }, keep);
    },
    async get(projectId, id) {
      if (!/^\d{1,19}$/.test(id) || BigInt(id) > INT64_MAX) return undefined;
      const rowId = BigInt(id);
      const slots = BigInt(BATCH_SLOTS);
      const batch = db.get(
        'SELECT id, rows FROM request_log_batches WHERE id = ? AND project_id = ?',
        rowId / slots,
        projectId,
      );
      const slot = batch && decodeSlots(batch.rows as string)[Number(rowId % slots)];
      return slot ? toStored(projectId, Number(rowId), slot) : undefined;
    },
    async purge(cutoffs) {
      let removed = 0;
      for (const plan of PLANS) {
        const projects = db.all('SELECT id FROM projects WHERE plan = ?', plan);
        for (const { id } of projects) removed += await purgeProject(id as string, cutoffs[plan]);
      }
      return removed;
    },
  };
}
