import { batchReads } from './request-log-batch-reads.ts';
import { BATCH_SLOTS, batchesOf } from './request-log-batch.ts';
import { PURGE_CHUNK_BATCHES, purgeBatches, type StoredBatch } from './request-log-batch-purge.ts';
import { PLANS } from './records.ts';
import type { RequestLogRecords } from './request-log-records.ts';
import type { SqlExecutor } from './sql-executor.ts';
import type { SqliteDatabase } from './sqlite-database.ts';
import { rollUp, UPSERT_USAGE_CONFLICT, usageReads } from './usage-records.ts';

const INSERT_BATCH = `INSERT INTO request_log_batches (project_id, first_at, last_at, id_ms_min, id_ms_max,
  combinations, rows) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`;

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
  /** Removes a project's requests older than the cutoff; a batch keeps its newer ones in their places. */
  const purgeProject = (projectId: string, cutoff: number) =>
    purgeBatches(
      cutoff,
      async () =>
        db.all(
          `SELECT id, rows FROM request_log_batches WHERE project_id = ? AND first_at < ? LIMIT ${PURGE_CHUNK_BATCHES}`,
          projectId,
          cutoff,
        ) as unknown as StoredBatch[],
      async (purged) =>
        db.relaxedTransaction(() => {
          for (const { id, removed, kept } of purged) {
            for (const { rowId, requestId } of removed)
              db.run(
                'DELETE FROM request_log_request_ids WHERE project_id = ? AND request_id = ? AND row_id = ?',
                projectId,
                requestId,
                rowId,
              );
            if (!kept) db.run('DELETE FROM request_log_batches WHERE id = ?', id as bigint);
            else
              db.run(
                `UPDATE request_log_batches SET first_at = ?, last_at = ?, id_ms_min = ?, id_ms_max = ?,
                   combinations = ?, rows = ? WHERE id = ?`,
                kept.firstAt,
                kept.lastAt,
                kept.idMsMin,
                kept.idMsMax,
                kept.combinations,
                kept.rows,
                id as bigint,
              );
          }
        }),
    );

  return {
    ...usageReads(sql),
    ...batchReads(sql),
    async write(entries) {
      if (entries.length === 0) return;
      const batches = batchesOf(entries);
      const cells = rollUp(entries);
      // Relaxed: a batch of log rows is not worth an fsync on the event loop (see relaxedTransaction).
      db.relaxedTransaction(() => {
        for (const { projectId, slots, encoded } of batches) {
          const { id } = db.get(
            INSERT_BATCH,
            projectId,
            encoded.firstAt,
            encoded.lastAt,
            encoded.idMsMin,
            encoded.idMsMax,
            encoded.combinations,
            encoded.rows,
          )!;
          const base = Number(id) * BATCH_SLOTS;
          for (const position of encoded.otherIds)
            db.run(INSERT_REQUEST_ID, projectId, slots[position]![1], base + position);
        }
        for (const c of cells)
          db.run(UPSERT_USAGE, c.projectId, c.keyId, c.hour, c.statusClass, c.bucket, c.count);
      });
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
