import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SQLInputValue } from 'node:sqlite';
import { PLANS } from './records.ts';
import { type RequestLogRecords, requestLogReads, rowValues } from './request-log-records.ts';
import type { SqlExecutor } from './sql-executor.ts';
import type { SqliteDatabase } from './sqlite-database.ts';
import { rollUp, UPSERT_USAGE_CONFLICT, usageReads } from './usage-records.ts';

const INSERT = `INSERT INTO request_log (project_id, at, request_id, key_id, key_label, operation, method, path,
  status, code, latency_ms, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

const UPSERT_USAGE = `INSERT INTO request_usage (project_id, key_id, hour, class, bucket, count)
  VALUES (?, ?, ?, ?, ?, ?) ${UPSERT_USAGE_CONFLICT}`;

/** Old rows are deleted this many at a time, the event loop free between chunks. */
export const PURGE_CHUNK_ROWS = 5_000;

/** The request log in SQLite: a batch is one transaction, without an fsync, on the service's one connection. */
export function createSqliteRequestLog(db: SqliteDatabase, sql: SqlExecutor): RequestLogRecords {
  return {
    ...requestLogReads(sql),
    ...usageReads(sql),
    async write(batch) {
      if (batch.length === 0) return;
      const cells = rollUp(batch);
      // Relaxed: a batch of log rows is not worth an fsync on the event loop (see relaxedTransaction).
      db.relaxedTransaction(() => {
        for (const entry of batch) db.run(INSERT, ...(rowValues(entry) as SQLInputValue[]));
        for (const c of cells)
          db.run(UPSERT_USAGE, c.projectId, c.keyId, c.hour, c.statusClass, c.bucket, c.count);
      });
    },
    async purge(cutoffs) {
      let removed = 0;
      for (const plan of PLANS) {
        const projects = db.all('SELECT id FROM projects WHERE plan = ?', plan);
        for (const { id } of projects) {
          for (;;) {
            const changed = db.run(
              `DELETE FROM request_log WHERE id IN
                (SELECT id FROM request_log WHERE project_id = ? AND at < ? LIMIT ${PURGE_CHUNK_ROWS})`,
              id as string,
              cutoffs[plan],
            );
            removed += changed;
            if (changed < PURGE_CHUNK_ROWS) break;
            await nextTurn();
          }
        }
      }
      return removed;
    },
  };
}
