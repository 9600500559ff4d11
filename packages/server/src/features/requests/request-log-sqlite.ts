import { setImmediate as nextTurn } from 'node:timers/promises';
import { batchReads } from './request-log-batch-reads.ts';
import { BATCH_SLOTS, batchesOf, type NewBatch } from './request-log-batch.ts';
import { batchExpiresAt, retentionDaysSql } from './request-log-expiry.ts';
import { pagesOf, wholeText } from './request-log-pages.ts';
import type { RequestLogRecords } from './request-log-records.ts';
import type { SqliteConnection } from '../../storage/sqlite-connection.ts';
import type { SqliteDatabase } from '../../storage/sqlite-database.ts';
import { rollUp, UPSERT_USAGE_CONFLICT, type UsageCell, usageReads } from './usage-records.ts';

/**
 * A batch: its requests are in its page, from `rows_from` (request-log-pages.ts), or, alone in its page,
 * in its own `rows` (page_id null).
 */
const INSERT_BATCH = `INSERT INTO request_log_batches (project_id, first_at, last_at, id_ms_min, id_ms_max,
  combinations, rows, requests, expires_at, page_id, rows_from, rows_length)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`;

const INSERT_PAGE = `INSERT INTO request_log_pages (expires_at, requests, header_length, rows)
  VALUES (?, ?, ?, ?) RETURNING id`;

/** The retention of some of a write's projects, by their plan now (request-log-expiry.ts). */
const RETENTIONS = `SELECT value AS id, ${retentionDaysSql('(SELECT plan FROM projects WHERE id = value)')} AS days
  FROM json_each(?)`;

/**
 * Expired batches' rows deleted in one transaction, the event loop free between slices (their file pages
 * freed for the next writes: the file stops growing under a steady load): at most 32 rows, and no more
 * than 4,096 requests (16 full batches). With traffic spread over many projects a batch holds a few
 * requests: 16 rows a slice made a purge of 112,500 requests over 10,000 projects take 2,500 slices;
 * 64 rows held the loop about 3 ms a slice (docs/benchmarks.md, "Batches shared by many projects").
 * Then their pages, 16 a slice: a page holds about a full batch's requests (a write's, at most 250).
 */
export const PURGE_SLICE_BATCHES = 32;
export const PURGE_SLICE_REQUESTS = 4_096;
export const PURGE_SLICE_PAGES = 16;

const INSERT_REQUEST_ID =
  'INSERT INTO request_log_request_ids (project_id, request_id, row_id) VALUES (?, ?, ?)';

const UPSERT_USAGE = `INSERT INTO request_usage (project_id, key_id, hour, class, bucket, count)
  VALUES (?, ?, ?, ?, ?, ?) ${UPSERT_USAGE_CONFLICT}`;

/**
 * The request log in SQLite (request-log-batch.ts): a write stores each project's requests as batches of
 * up to BATCH_SLOTS, with a request-id entry for each id that is not a UUIDv7, in one transaction
 * without an fsync, in one turn on the service's one connection (as is each purge slice).
 */
export function createSqliteRequestLog(connection: SqliteConnection): RequestLogRecords {
  const { sql } = connection;
  const purgeSlice = (db: SqliteDatabase, now: number) => {
    const expired = db.all(
      `SELECT id, project_id, requests FROM request_log_batches WHERE expires_at <= ?
       ORDER BY expires_at LIMIT ${PURGE_SLICE_BATCHES}`,
      now,
    );
    let removed = 0;
    if (expired.length === 0) {
      // Every batch of an expired page is gone: no read reaches it any more.
      const pages = db.all(
        `SELECT id FROM request_log_pages WHERE expires_at <= ? ORDER BY expires_at LIMIT ${PURGE_SLICE_PAGES}`,
        now,
      );
      db.relaxedTransaction(() => {
        for (const page of pages) db.run('DELETE FROM request_log_pages WHERE id = ?', page.id as bigint);
      });
      return { removed, more: pages.length === PURGE_SLICE_PAGES };
    }
    let requests = 0;
    const slice = expired.filter(
      (batch, index) => (requests += Number(batch.requests)) <= PURGE_SLICE_REQUESTS || index === 0,
    );
    db.relaxedTransaction(() => {
      for (const batch of slice) {
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
    return { removed, more: true };
  };

  return {
    ...usageReads(sql),
    ...batchReads(sql),
    async write(entries, options) {
      if (entries.length === 0) return;
      // Pages with a shared header: batches need no text of their own.
      const batches = batchesOf(entries, false);
      const cells = options?.usage === false ? [] : rollUp(entries);
      // Relaxed: a batch of log rows is not worth an fsync on the event loop (see relaxedTransaction).
      await connection.turn((db) => db.relaxedTransaction(() => storeBatches(db, batches, cells)));
    },
    async addUsage(cells) {
      if (cells.length === 0) return;
      await connection.turn((db) => db.relaxedTransaction(() => storeUsage(db, cells)));
    },
    async purge(now, slice) {
      let removed = 0;
      for (;;) {
        const done = await connection.turn((db) => purgeSlice(db, now));
        removed += done.removed;
        if (!done.more) return removed;
        if (slice ? !(await slice()) : (await nextTurn(), false)) return removed;
      }
    },
  };
}

/** A write's batches, in pages, with their request ids and usage cells, inside its transaction. */
function storeBatches(
  db: SqliteDatabase,
  batches: ReturnType<typeof batchesOf>,
  cells: ReturnType<typeof rollUp>,
): void {
  // Requests carry their plan (the authenticator's record): only those without one need a lookup.
  const unknown = [...new Set(batches.filter((b) => b.retentionDays === null).map((b) => b.projectId))];
  const retention = new Map(
    unknown.length === 0
      ? []
      : db.all(RETENTIONS, JSON.stringify(unknown)).map((row) => [row.id as string, Number(row.days)]),
  );
  const pages = pagesOf(
    batches,
    ({ projectId, day, retentionDays }) => batchExpiresAt(day, retentionDays ?? retention.get(projectId)!),
    true,
  );
  for (const page of pages) {
    // A batch alone in its page (one project's write, the usual case) keeps its whole text in its own
    // row: one row and one statement, where a page would add a second row and its index entry.
    if (page.parts.length === 1) {
      storeBatch(db, page.parts[0]!.batch, page.expiresAt, wholeText(page), null, null, null);
      continue;
    }
    const { id: pageId } = db.get(INSERT_PAGE, page.expiresAt, page.requests, page.headerLength, page.rows)!;
    for (const { batch, from, length } of page.parts)
      storeBatch(db, batch, page.expiresAt, '', pageId as bigint, from, length);
  }
  storeUsage(db, cells);
}

/** A batch's row, and an entry for each of its request ids that is not a UUIDv7. */
function storeBatch(
  db: SqliteDatabase,
  { projectId, slots, encoded }: NewBatch,
  expiresAt: number,
  rows: string,
  pageId: bigint | null,
  from: number | null,
  length: number | null,
): void {
  const { id } = db.get(
    INSERT_BATCH,
    projectId,
    encoded.firstAt,
    encoded.lastAt,
    encoded.idMsMin,
    encoded.idMsMax,
    encoded.combinations,
    rows,
    encoded.requests,
    expiresAt,
    pageId,
    from,
    length,
  )!;
  const base = Number(id) * BATCH_SLOTS;
  for (const position of encoded.otherIds)
    db.run(INSERT_REQUEST_ID, projectId, slots[position]![1], base + position);
}

function storeUsage(db: SqliteDatabase, cells: readonly UsageCell[]): void {
  for (const c of cells) db.run(UPSERT_USAGE, c.projectId, c.keyId, c.hour, c.statusClass, c.bucket, c.count);
}
