import type { PoolClient } from 'pg';
import {
  createPartitionAnalysis,
  type MaintenanceLog,
  type PartitionAnalysis,
} from './partition-analysis.ts';
import { PLANS } from './records.ts';
import { batchReads } from './request-log-batch-reads.ts';
import { BATCH_SLOTS, batchesOf, DAY_MS } from './request-log-batch.ts';
import { PURGE_CHUNK_BATCHES, purgeBatches, type StoredBatch } from './request-log-batch-purge.ts';
import type { LoggedRequest, RequestLogRecords } from './request-log-records.ts';
import type { SqlExecutor } from './sql-executor.ts';
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

/** `request_log_batches_d20261125`: the partition holding one UTC day's batches. */
export const partitionName = (day: number): string => `request_log_batches_d${dayStamp(day)}`;

/** `request_log_request_ids_d20261125`: the partition of the same day's request-id entries. */
export const requestIdPartitionName = (day: number): string => `request_log_request_ids_d${dayStamp(day)}`;

const PARTITION = /^request_log_batches_d(\d{4})(\d{2})(\d{2})$/;

function dayOf(name: string): number | undefined {
  const match = PARTITION.exec(name);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS : undefined;
}

/** Separates the batches' JSON in one text parameter: JSON.stringify escapes every control character. */
const ROWS_SEPARATOR = '\x1e';

/**
 * A write in one statement, so one round trip and one implicit transaction: ids for its batches, the
 * batches, their request-id entries and the rollup upsert.
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
batches AS (
  INSERT INTO request_log_batches (id, project_id, first_at, last_at, id_ms_min, id_ms_max, requests,
    combinations, rows)
  SELECT ids.id, b.project_id, b.first_at, b.last_at, b.id_ms_min, b.id_ms_max, b.requests, b.combinations,
    b.rows
  FROM unnest($2::text[], $3::bigint[], $4::bigint[], $5::bigint[], $6::bigint[], $7::int[], $8::text[],
    string_to_array($9::text, chr(30)))
    WITH ORDINALITY AS b(project_id, first_at, last_at, id_ms_min, id_ms_max, requests, combinations, rows, n)
  JOIN ids ON ids.n = b.n
),
request_ids AS (
  INSERT INTO request_log_request_ids (project_id, request_id, row_id, at)
  SELECT o.project_id, o.request_id, ids.id * ${BATCH_SLOTS} + o.position, o.at
  FROM unnest($10::text[], $11::text[], $12::int[], $13::int[], $14::bigint[])
    AS o(project_id, request_id, batch, position, at)
  JOIN ids ON ids.n = o.batch
)
INSERT INTO request_usage (project_id, key_id, hour, class, bucket, count)
  SELECT * FROM unnest($15::text[], $16::text[], $17::bigint[], $18::text[], $19::int[], $20::bigint[])
  ${UPSERT_USAGE_CONFLICT}`;

/** SQLSTATE of an insert no partition accepts (another instance dropped a day this one remembered). */
const NO_PARTITION = '23514';

/**
 * The request log in PostgreSQL, as batches (request-log-batch.ts) partitioned by day: a write is one
 * transaction holding its batches, their request-id entries and the rollups it adds to, after the days it
 * needs have their partitions. Purging drops the partitions of days every plan's retention has passed,
 * then empties the older slots of shorter-lived plans' batches.
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

  const createPartition = async (name: string, parent: string, day: number) => {
    try {
      await sql.run(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF ${parent}
         FOR VALUES FROM (${day * DAY_MS}) TO (${(day + 1) * DAY_MS})`,
      );
    } catch (error) {
      // Another instance may have created it at the same moment.
      const [row] = await sql.all('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
      if (!row?.found) throw error;
    }
  };

  const ensurePartitions = async (day: number) => {
    if (known.has(day)) return;
    await createPartition(partitionName(day), 'request_log_batches', day);
    await createPartition(requestIdPartitionName(day), 'request_log_request_ids', day);
    known.add(day);
  };

  const insert = async (entries: readonly LoggedRequest[]) => {
    const batches = batchesOf(entries);
    const perDay = new Map<number, number>();
    for (const { day } of batches) perDay.set(day, (perDay.get(day) ?? 0) + 1);
    for (const day of perDay.keys()) await ensurePartitions(day);
    const cells = rollUp(entries);
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
    await sql.all(
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
      ],
      'request_log_write',
    );
    for (const [day, count] of perDay) analysis.wrote(partitionName(day), count);
  };

  /** Empties a project's slots older than the cutoff; a batch keeps its newer requests in their places. */
  const purgeProject = (projectId: string, cutoff: number) =>
    purgeBatches(
      cutoff,
      async () =>
        (await sql.all(
          `SELECT id, rows FROM request_log_batches WHERE project_id = $1 AND first_at < $2
           LIMIT ${PURGE_CHUNK_BATCHES}`,
          [projectId, cutoff],
        )) as unknown as StoredBatch[],
      (purged) =>
        access.transaction(async (client) => {
          for (const { id, removed, kept } of purged) {
            if (removed.length > 0)
              await client.query(
                'DELETE FROM request_log_request_ids WHERE project_id = $1 AND row_id = ANY($2::bigint[])',
                [projectId, removed.map((request) => request.rowId)],
              );
            if (!kept) await client.query('DELETE FROM request_log_batches WHERE id = $1', [id]);
            else
              await client.query(
                `UPDATE request_log_batches SET first_at = $1, last_at = $2, id_ms_min = $3, id_ms_max = $4,
                   requests = $5, combinations = $6, rows = $7 WHERE id = $8`,
                [
                  kept.firstAt,
                  kept.lastAt,
                  kept.idMsMin,
                  kept.idMsMax,
                  kept.requests,
                  kept.combinations,
                  kept.rows,
                  id,
                ],
              );
          }
        }),
    );

  /** Drops both tables' partitions of days before `oldest`; resolves with how many requests went. */
  const dropDays = async (oldest: number) => {
    let removed = 0;
    const partitions = await sql.all(
      `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
       WHERE i.inhparent = 'request_log_batches'::regclass`,
    );
    for (const { name } of partitions) {
      const day = dayOf(name as string);
      if (day === undefined || (day + 1) * DAY_MS > oldest) continue;
      const [count] = await sql.all(`SELECT coalesce(sum(requests), 0) AS n FROM ${name as string}`);
      await sql.run(`DROP TABLE IF EXISTS ${requestIdPartitionName(day)}`);
      await sql.run(`DROP TABLE IF EXISTS ${name as string}`);
      known.delete(day);
      analysis.forget(name as string);
      removed += Number(count!.n);
    }
    return removed;
  };

  return {
    analysis,
    ...batchReads(sql),
    ...usageReads(sql),
    async write(entries) {
      if (entries.length === 0) return;
      try {
        await insert(entries);
      } catch (error) {
        if ((error as { code?: unknown }).code !== NO_PARTITION) throw error;
        known.clear();
        await insert(entries);
      }
    },
    async purge(cutoffs) {
      let removed = await dropDays(Math.min(...Object.values(cutoffs)));
      for (const plan of PLANS) {
        const projects = await sql.all(
          `SELECT DISTINCT project_id FROM request_log_batches
           WHERE first_at < $1 AND project_id IN (SELECT id FROM projects WHERE plan = $2)`,
          [cutoffs[plan], plan],
        );
        for (const { project_id } of projects)
          removed += await purgeProject(project_id as string, cutoffs[plan]);
      }
      return removed;
    },
  };
}
