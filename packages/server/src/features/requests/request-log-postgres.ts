import type { PoolClient } from 'pg';
import {
  createPartitionAnalysis,
  type MaintenanceLog,
  type PartitionAnalysis,
} from '../../storage/partition-analysis.ts';
import { batchReads } from './request-log-batch-reads.ts';
import { BATCH_SLOTS, batchesOf, DAY_MS } from './request-log-batch.ts';
import { RETENTION_DAY_COUNTS, retentionDaysSql } from './request-log-expiry.ts';
import type { LoggedRequest, RequestLogRecords } from './request-log-records.ts';
import type { SqlExecutor } from '../../storage/sql-executor.ts';
import { rollUp, UPSERT_USAGE_CONFLICT, usageReads } from './usage-records.ts';

/** What the request log needs of the PostgreSQL storage: statements, and a transaction on one client. */
export interface PostgresAccess {
  sql: SqlExecutor;
  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T>;
  /** Where background work (analysing new partitions) reports its failures. */
  log(): MaintenanceLog;
}

/** The request log in PostgreSQL, with the analyses of its partitions that run in the background. */
export type PostgresRequestLog = RequestLogRecords & { analysis: PartitionAnalysis };

/** ANALYZE samples at most 30,000 rows, but a cold partition may take longer than a request's 5 s. */
const ANALYZE_TIMEOUT_MS = 120_000;

const dayStamp = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');

/**
 * `request_log_batches_e20261125`: the partition of the batches that expire at the start of that UTC
 * day (request-log-expiry.ts), whatever their plan; it is dropped whole from then on. It holds the
 * expiries in ((day - 1) × DAY_MS, day × DAY_MS].
 */
export const partitionName = (expiryDay: number): string => `request_log_batches_e${dayStamp(expiryDay)}`;

/** `request_log_pages_e20261125`: the partition of the same batches' pages (request-log-pages.ts). */
export const pagePartitionName = (expiryDay: number): string => `request_log_pages_e${dayStamp(expiryDay)}`;

/** `request_log_request_ids_e20261125`: the partition of the same batches' request-id entries. */
export const requestIdPartitionName = (expiryDay: number): string =>
  `request_log_request_ids_e${dayStamp(expiryDay)}`;

const PARTITION = /^request_log_batches_e(\d{4})(\d{2})(\d{2})$/;

/** The expiry days of the partitions a batch of `day` may go to: one per retention. */
const expiryDays = (day: number) => RETENTION_DAY_COUNTS.map((days) => day + 1 + days);

/** How long dropping a detached partition waits for its lock before it is left to the next round. */
const DROP_LOCK_TIMEOUT_MS = 1_000;

function dayOf(name: string): number | undefined {
  const match = PARTITION.exec(name);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS : undefined;
}

/** Separates the batches' JSON in one text parameter: JSON.stringify escapes every control character. */
const ROWS_SEPARATOR = '\x1e';

/**
 * A write in one statement, so one round trip and one implicit transaction: ids for its batches, one
 * page an expiry holding their compact texts (request-log-pages.ts, without a shared header: TOAST's
 * compression of the page already takes out what repeats; a batch's place counted in characters, as
 * substr reads it), the batches, their request-id entries and the rollup upsert.
 * - It commits without waiting for the WAL flush (the pets' do: the pool sets synchronous_commit=on), as
 *   SQLite's log commits wait for no fsync: a crash of PostgreSQL's machine may lose the last batches,
 *   up to three wal_writer_delay (600 ms by default), and a batch never delays a create's commit. The
 *   setting is local to the statement's transaction, and in force when it commits.
 * - Batch ids are taken in the batches' order, so a project's later batch has the larger id.
 * - The batches' JSON goes as one text split by PostgreSQL, not as a text[]: the driver would escape
 *   every quote of it into an array literal, a copy of the batch and 0.2-0.3 µs of CPU a request.
 * - The rollup cells arrive in rollUp's order, the one every writer upserts in.
 */
const WRITE = `WITH settings AS (SELECT set_config('synchronous_commit', 'off', true) AS commit),
ids AS (
  SELECT id, row_number() OVER (ORDER BY id) AS n
  FROM (SELECT nextval('request_log_batch_id') AS id FROM generate_series(1, $1), settings) taken
),
input AS (
  SELECT ids.id, b.*, length(b.rows) AS rows_length, (b.first_at / ${DAY_MS} + 1 + coalesce(b.retention_days,
      ${retentionDaysSql('(SELECT p.plan FROM projects p WHERE p.id = b.project_id)')})) * ${DAY_MS} AS expires_at
  FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::int[], $8::text[],
    string_to_array($9::text, chr(30)), $21::int[])
    WITH ORDINALITY AS b(project_id, first_at, last_at, id_ms_min, id_ms_max, requests, combinations, rows,
      retention_days, n)
  JOIN ids ON ids.n = b.n
),
page_ids AS (
  SELECT expires_at, nextval('request_log_page_id') AS id FROM (SELECT DISTINCT expires_at FROM input) e
),
placed AS (
  SELECT input.*, page_ids.id AS page_id,
    sum(rows_length) OVER (PARTITION BY input.expires_at ORDER BY n) - rows_length + 1 AS rows_from
  FROM input JOIN page_ids ON page_ids.expires_at = input.expires_at
),
pages AS (
  INSERT INTO request_log_pages (id, expires_at, requests, header_length, rows)
  SELECT page_id, expires_at, sum(requests), 0, string_agg(rows, '' ORDER BY n) FROM placed
  GROUP BY page_id, expires_at
),
batches AS (
  INSERT INTO request_log_batches (id, project_id, first_at, last_at, id_ms_min, id_ms_max, requests,
    combinations, rows, expires_at, page_id, rows_from, rows_length)
  SELECT id, project_id, first_at, last_at, id_ms_min, id_ms_max, requests, combinations, '', expires_at,
    page_id, rows_from, rows_length
  FROM placed
  RETURNING expires_at
),
request_ids AS (
  INSERT INTO request_log_request_ids (project_id, request_id, row_id, at, expires_at)
  SELECT o.project_id, o.request_id, input.id * ${BATCH_SLOTS} + o.position, o.at, input.expires_at
  FROM unnest($10::text[], $11::text[], $12::int[], $13::int[], $14::bigint[])
    AS o(project_id, request_id, batch, position, at)
  JOIN input ON input.n = o.batch
),
usage AS (
  INSERT INTO request_usage (project_id, key_id, hour, class, bucket, count)
  SELECT * FROM unnest($15::text[], $16::text[], $17::bigint[], $18::text[], $19::int[], $20::bigint[])
  ${UPSERT_USAGE_CONFLICT}
)
SELECT expires_at, count(*)::int AS batches FROM batches GROUP BY expires_at`;

/** Counted cells added to the rollups in one statement, in rollUp's order (as the write's usage part). */
const ADD_USAGE = `INSERT INTO request_usage (project_id, key_id, hour, class, bucket, count)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::bigint[])
  ${UPSERT_USAGE_CONFLICT}`;

/** SQLSTATE of an insert no partition accepts (another instance dropped a day this one remembered). */
const NO_PARTITION = '23514';

/**
 * The request log in PostgreSQL, as batches (request-log-batch.ts) partitioned by the day they expire
 * (request-log-expiry.ts; by the plan the requests carry, else the write reads the project's): a write
 * is one statement holding its batches, their request-id entries and the rollups it adds to, after the
 * expiry days it may need have their partitions. Purging drops the partitions whose day has come, for every plan: its time grows
 * with the partitions it drops, and it reads no batch.
 */
export function createPostgresRequestLog(access: PostgresAccess): PostgresRequestLog {
  const { sql } = access;
  const known = new Set<number>();
  const analysis = createPartitionAnalysis(
    (name) =>
      access.transaction(async (client) => {
        await client.query(`SET LOCAL statement_timeout = ${ANALYZE_TIMEOUT_MS}`);
        await client.query(`ANALYZE ${name}`);
      }),
    access.log,
  );

  const createPartition = async (name: string, parent: string, expiryDay: number) => {
    try {
      await sql.run(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${parent}
         FOR VALUES FROM (${(expiryDay - 1) * DAY_MS + 1}) TO (${expiryDay * DAY_MS + 1})`,
      );
    } catch (error) {
      // Another instance may have created it at the same moment.
      const [row] = await sql.all('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
      if (!row?.found) throw error;
    }
  };

  const ensurePartitions = async (day: number) => {
    for (const expiryDay of expiryDays(day)) {
      if (known.has(expiryDay)) continue;
      await createPartition(partitionName(expiryDay), 'request_log_batches', expiryDay);
      await createPartition(requestIdPartitionName(expiryDay), 'request_log_request_ids', expiryDay);
      await createPartition(pagePartitionName(expiryDay), 'request_log_pages', expiryDay);
      known.add(expiryDay);
    }
  };

  const insert = async (entries: readonly LoggedRequest[], withUsage: boolean) => {
    const batches = batchesOf(entries);
    for (const day of new Set(batches.map((batch) => batch.day))) await ensurePartitions(day);
    const cells = withUsage ? rollUp(entries) : [];
    const encoded = batches.map((batch) => batch.encoded);
    const others = batches.flatMap(({ projectId, slots, encoded }, index) =>
      encoded.otherIds.map((position) => ({
        projectId,
        requestId: slots[position]![1],
        batch: index + 1,
        position,
        at: slots[position]![0],
      })),
    );
    const written = await sql.all(
      WRITE,
      [
        batches.length,
        batches.map((batch) => batch.projectId),
        encoded.map((batch) => batch.firstAt),
        encoded.map((batch) => batch.lastAt),
        encoded.map((batch) => batch.idMsMin),
        encoded.map((batch) => batch.idMsMax),
        encoded.map((batch) => batch.requests),
        encoded.map((batch) => batch.combinations),
        encoded.map((batch) => batch.rows).join(ROWS_SEPARATOR),
        others.map((other) => other.projectId),
        others.map((other) => other.requestId),
        others.map((other) => other.batch),
        others.map((other) => other.position),
        others.map((other) => other.at),
        cells.map((c) => c.projectId),
        cells.map((c) => c.keyId),
        cells.map((c) => c.hour),
        cells.map((c) => c.statusClass),
        cells.map((c) => c.bucket),
        cells.map((c) => c.count),
        batches.map((batch) => batch.retentionDays),
      ],
      'request_log_write',
    );
    for (const row of written)
      analysis.wrote(partitionName(Number(row.expires_at) / DAY_MS), Number(row.batches));
  };

  /**
   * Detaches a partition without blocking the log's reads and writes (CONCURRENTLY waits only for the
   * transactions that may still see it), then drops it. A detach interrupted before is finished first.
   */
  const dropPartition = async (name: string, parent: string) => {
    const [attached] = await sql.all(
      `SELECT inhdetachpending AS pending FROM pg_inherits
       WHERE inhrelid = to_regclass($1) AND inhparent = to_regclass($2)`,
      [name, parent],
    );
    if (attached)
      await sql.run(
        `ALTER TABLE ${parent} DETACH PARTITION ${name} ${attached.pending ? 'FINALIZE' : 'CONCURRENTLY'}`,
      );
    await access.transaction(async (client) => {
      await client.query(`SET LOCAL lock_timeout = ${DROP_LOCK_TIMEOUT_MS}`);
      await client.query(`DROP TABLE IF EXISTS ${name}`);
    });
  };

  /** The expiry days of this schema's batch partitions, attached or left detached, oldest first. */
  const partitionDays = async () => {
    const tables = await sql.all(
      `SELECT relname AS name FROM pg_class
       WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r'
         AND relname LIKE 'request\\_log\\_batches\\_e%'`,
    );
    return tables
      .map(({ name }) => dayOf(name as string))
      .filter((day) => day !== undefined)
      .sort((a, b) => a - b);
  };

  return {
    analysis,
    ...batchReads(sql),
    ...usageReads(sql),
    async write(entries, options) {
      if (entries.length === 0) return;
      const withUsage = options?.usage !== false;
      try {
        await insert(entries, withUsage);
      } catch (error) {
        if ((error as { code?: unknown }).code !== NO_PARTITION) throw error;
        known.clear();
        await insert(entries, withUsage);
      }
    },
    async addUsage(cells) {
      if (cells.length === 0) return;
      await sql.run(ADD_USAGE, [
        cells.map((c) => c.projectId),
        cells.map((c) => c.keyId),
        cells.map((c) => c.hour),
        cells.map((c) => c.statusClass),
        cells.map((c) => c.bucket),
        cells.map((c) => c.count),
      ]);
    },
    async purge(now, slice) {
      let removed = 0;
      for (const day of await partitionDays()) {
        if (day * DAY_MS > now) break;
        const name = partitionName(day);
        const [count] = await sql.all(`SELECT coalesce(sum(requests), 0) AS n FROM ${name}`);
        await dropPartition(requestIdPartitionName(day), 'request_log_request_ids');
        await dropPartition(name, 'request_log_batches');
        await dropPartition(pagePartitionName(day), 'request_log_pages');
        known.delete(day);
        analysis.forget(name);
        removed += Number(count!.n);
        if (slice && !(await slice())) break;
      }
      return removed;
    },
  };
}
