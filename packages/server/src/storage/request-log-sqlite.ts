import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchReads } from './request-log-batch-reads.ts';
import { BATCH_SLOTS, batchesOf, DAY_MS } from './request-log-batch.ts';
import { retentionDaysSql } from './request-log-expiry.ts';
import type { RequestLogRecords } from './request-log-records.ts';
import type { SqlExecutor } from './sql-executor.ts';
import type { SqliteDatabase } from './sqlite-database.ts';
import { rollUp, UPSERT_USAGE_CONFLICT, usageReads } from './usage-records.ts';

/** A batch, its expiry from its project's plan (request-log-expiry.ts); the day comes before the project. */
const INSERT_BATCH = `INSERT INTO request_log_batches (project_id, first_at, last_at, id_ms_min, id_ms_max,
  combinations, rows, requests, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?,
  (? + 1 + ${retentionDaysSql('(SELECT plan FROM projects WHERE id = ?)')}) * ${DAY_MS}) RETURNING id`;

/**
 * Expired batches deleted in one transaction, the event loop free between slices: at most 256 requests
 * each, their pages freed for the next writes (the file stops growing under a steady load).
 */
export const PURGE_SLICE_BATCHES = 16;

const INSERT_REQUEST_ID =
  'INSERT INTO request_log_request_ids (project_id, request_id, row_id) VALUES (?, ?, ?)';

const UPSERT_USAGE = `INSERT INTO request_usage (project_id, key_id, hour, class, bucket, count)
  VALUES (?, ?, ?, ?, ?, ?) ${UPSERT_USAGE_CONFLICT}`;

/**
 * The request log in SQLite (request-log-batch.ts): a write stores each project's requests as batches of
 * up to BATCH_SLOTS, with a request-id entry for each id that is not a UUIDv7, in one transaction
 * without an fsync, on the service's one connection.
 */
export function createSqliteRequestLog(db: SqliteDatabase, sql: SqlExecutor): RequestLogRecords {
  const purgeSlice = (now: number) => {
    const expired = db.all(
      `SELECT id, project_id, requests FROM request_log_batches WHERE expires_at <= ?
       ORDER BY expires_at LIMIT ${PURGE_SLICE_BATCHES}`,
      now,
    );
    let removed = 0;
    db.relaxedTransaction(() => {
      for (const batch of expired) {
        const base = Number(batch.id) * BATCH_SLOTS;
        db.run(
          'DELETE FROM request_log_request_ids WHERE project_id = ? AND row_id BETWEEN ? AND ?',
          batch.project_id as string,
          base,
          base + BATCH_SLOTS - 1,
        );
        db.run('DELETE FROM request_log_batches WHERE id = ?', batch.id as bigint);
        removed += Number(batch.requests);
      }
    });
    return { removed, more: expired.length === PURGE_SLICE_BATCHES };
  };

  return {
    ...usageReads(sql),
    ...batchReads(sql),
    async write(entries) {
      if (entries.length === 0) return;
      const batches = batchesOf(entries);
      const cells = rollUp(entries);
      // Relaxed: a batch of log rows is not worth an fsync on the event loop (see relaxedTransaction).
      db.relaxedTransaction(() => {
        for (const { projectId, day, slots, encoded } of batches) {
          const { id } = db.get(
            INSERT_BATCH,
            projectId,
            encoded.firstAt,
            encoded.lastAt,
            encoded.idMsMin,
            encoded.idMsMax,
            encoded.combinations,
            encoded.rows,
            encoded.requests,
            day,
            projectId,
          )!;
          const base = Number(id) * BATCH_SLOTS;
          for (const position of encoded.otherIds)
            db.run(INSERT_REQUEST_ID, projectId, slots[position]![1], base + position);
        }
        for (const c of cells)
          db.run(UPSERT_USAGE, c.projectId, c.keyId, c.hour, c.statusClass, c.bucket, c.count);
      });
    },
    async purge(now, slice) {
      let removed = 0;
      for (;;) {
        const done = purgeSlice(now);
        removed += done.removed;
        if (!done.more) return removed;
        if (slice ? !(await slice()) : (await nextTurn(), false)) return removed;
      }
    },
  };
}
