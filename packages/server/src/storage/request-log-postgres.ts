import type { PoolClient } from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import {
  createPartitionAnalysis,
  type MaintenanceLog,
  type PartitionAnalysis,
} from './partition-analysis.ts';
import { PLANS } from './records.ts';
import {
  projectConditions,
  type RequestLogQuery,
  type RequestLogRecords,
  requestLogReads,
  type LoggedRequest,
  type StoredRequest,
} from './request-log-records.ts';
import type { SqlExecutor } from './sql-executor.ts';
import { rollUp, UPSERT_USAGE_CONFLICT, usageReads } from './usage-records.ts';

export const DAY_MS = 86_400_000;

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

/** `request_log_d20261125`: the partition holding one UTC day. */
export const partitionName = (day: number): string =>
  `request_log_d${new Date(day * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '')}`;

const PARTITION = /^request_log_d(\d{4})(\d{2})(\d{2})$/;

function dayOf(name: string): number | undefined {
  const match = PARTITION.exec(name);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / DAY_MS : undefined;
}

/**
 * A batch goes in by COPY (text format), the cheapest way in on both sides: against one INSERT of twelve
 * column arrays, about 1 µs less of the instance's CPU a row (the driver escapes no array literal) and
 * 2 µs less of PostgreSQL's (docs/benchmarks.md). Triggers fire as for an INSERT (migration 055's).
 */
const COPY = `COPY request_log (project_id, at, request_id, key_id, key_label, operation, method, path, status,
  code, latency_ms, address) FROM STDIN`;

const COPY_SPECIAL = /[\\\t\n\r]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** Text in COPY's text format: backslash, tab, newline and carriage return escaped. */
const copyText = (text: string): string =>
  COPY_SPECIAL.test(text) ? text.replace(/[\\\t\n\r]/g, (c) => COPY_ESCAPES[c]!) : text;

const copyNullable = (text: string | null): string => (text === null ? '\\N' : copyText(text));

/**
 * A request's line of COPY text, its columns in COPY's order (numbers as they are, `\N` for null), built
 * in one template rather than as an array of values mapped and joined (0.4 against 0.6 µs a row in a
 * script, the batch's text made flat as for sending).
 */
const copyLine = (entry: LoggedRequest): string =>
  `${copyText(entry.projectId)}\t${entry.at}\t${copyText(entry.requestId)}\t${copyText(entry.keyId)}\t` +
  `${copyNullable(entry.keyLabel)}\t${copyText(entry.operation)}\t${copyText(entry.method)}\t` +
  `${copyText(entry.path)}\t${entry.status}\t${copyNullable(entry.code)}\t${entry.latencyMs}\t` +
  `${copyText(entry.address)}\n`;

/** Sends `rows` (COPY text) through `client`; settles when PostgreSQL has taken them all, or refused. */
function copyRows(client: PoolClient, rows: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const stream = client.query(copyFrom(COPY));
    stream.once('finish', resolve);
    stream.once('error', reject);
    stream.end(rows);
  });
}

const UPSERT_USAGE = `INSERT INTO request_usage (project_id, key_id, hour, class, bucket, count)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::int[], $6::bigint[])
  ${UPSERT_USAGE_CONFLICT}`;

const HOUR_MS = 3_600_000;

/**
 * The hours, newest first, that request_log_hours says may hold requests matching the query's key,
 * operation and status (migration 055 keeps it with a trigger), as ranges of consecutive hours.
 */
async function hourRanges(sql: SqlExecutor, query: RequestLogQuery): Promise<[number, number][]> {
  const { params, where, add, addCombination } = projectConditions(query.projectId);
  addCombination(query);
  if (query.since !== undefined) add((n) => `hour > $${n}`, query.since - HOUR_MS);
  if (query.until !== undefined) add((n) => `hour < $${n}`, query.until);
  if (query.before) add((n) => `hour <= $${n}`, query.before.at);
  const hours = await sql.all(
    `SELECT DISTINCT hour FROM request_log_hours WHERE ${where.join(' AND ')} ORDER BY hour DESC`,
    params,
  );
  const ranges: [number, number][] = [];
  for (const row of hours) {
    const hour = Number(row.hour);
    const last = ranges.at(-1);
    if (last && last[0] === hour + HOUR_MS) last[0] = hour;
    else ranges.push([hour, hour + HOUR_MS]);
  }
  return ranges;
}

/**
 * A listing filtered by key, operation or status reads rows only in the hours holding a match, newest
 * range first, until the page is full: one filter common alone but rare with another no longer walks
 * every row of the common one. Ranges do not overlap, so pages of consecutive ranges stay newest first.
 */
async function listByHours(
  sql: SqlExecutor,
  list: RequestLogRecords['list'],
  query: RequestLogQuery,
): Promise<StoredRequest[]> {
  const found: StoredRequest[] = [];
  for (const [from, to] of await hourRanges(sql, query)) {
    const since = Math.max(from, query.since ?? from);
    const until = Math.min(to, query.until ?? to);
    found.push(...(await list({ ...query, since, until, limit: query.limit - found.length })));
    if (found.length >= query.limit) break;
  }
  return found;
}

/**
 * The log's commits do not wait for the WAL flush (the pets' do: the pool sets synchronous_commit=on),
 * as SQLite's log commits wait for no fsync: a crash of PostgreSQL's machine may lose the last batches,
 * up to three wal_writer_delay (600 ms by default), and a batch never delays a create's commit.
 */
const LOG_COMMIT = 'SET LOCAL synchronous_commit = off';

/** SQLSTATE of an insert no partition accepts (another instance dropped a day this one remembered). */
const NO_PARTITION = '23514';

/**
 * The request log in PostgreSQL, partitioned by day: a batch is one COPY and the rollups it adds to in one transaction, after the days it needs have their partitions; purging drops the partitions
 * of days every plan's retention has passed, then deletes the rows of shorter-lived plans.
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

  const ensurePartition = async (day: number) => {
    if (known.has(day)) return;
    const name = partitionName(day);
    try {
      await sql.run(
        `CREATE TABLE IF NOT EXISTS ${name} PARTITION OF request_log
         FOR VALUES FROM (${day * DAY_MS}) TO (${(day + 1) * DAY_MS})`,
      );
    } catch (error) {
      // Another instance may have created it at the same moment.
      const [row] = await sql.all('SELECT to_regclass($1) IS NOT NULL AS found', [name]);
      if (!row?.found) throw error;
    }
    known.add(day);
  };

  const insert = async (batch: Parameters<RequestLogRecords['write']>[0]) => {
    const perDay = new Map<number, number>();
    for (const entry of batch) {
      const day = Math.floor(entry.at / DAY_MS);
      perDay.set(day, (perDay.get(day) ?? 0) + 1);
    }
    for (const day of perDay.keys()) await ensurePartition(day);
    let rows = '';
    for (const entry of batch) rows += copyLine(entry);
    const cells = rollUp(batch);
    await access.transaction(async (client) => {
      await client.query(LOG_COMMIT);
      await copyRows(client, rows);
      await client.query(UPSERT_USAGE, [
        cells.map((c) => c.projectId),
        cells.map((c) => c.keyId),
        cells.map((c) => c.hour),
        cells.map((c) => c.statusClass),
        cells.map((c) => c.bucket),
        cells.map((c) => c.count),
      ]);
    });
    for (const [day, rows] of perDay) analysis.wrote(partitionName(day), rows);
  };

  const reads = requestLogReads(sql);
  return {
    analysis,
    ...reads,
    list: (query) =>
      query.requestId === undefined &&
      (query.keyId !== undefined || query.operation !== undefined || query.status !== undefined)
        ? listByHours(sql, reads.list, query)
        : reads.list(query),
    ...usageReads(sql),
    async write(batch) {
      if (batch.length === 0) return;
      try {
        await insert(batch);
      } catch (error) {
        if ((error as { code?: unknown }).code !== NO_PARTITION) throw error;
        known.clear();
        await insert(batch);
      }
    },
    async purge(cutoffs) {
      const oldest = Math.min(...Object.values(cutoffs));
      let removed = 0;
      const partitions = await sql.all(
        `SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
         WHERE i.inhparent = 'request_log'::regclass`,
      );
      for (const { name } of partitions) {
        const day = dayOf(name as string);
        if (day === undefined || (day + 1) * DAY_MS > oldest) continue;
        const [count] = await sql.all(`SELECT count(*) AS n FROM ${name as string}`);
        await sql.run(`DROP TABLE IF EXISTS ${name as string}`);
        known.delete(day);
        analysis.forget(name as string);
        removed += Number(count!.n);
      }
      for (const plan of PLANS) {
        removed += await sql.run(
          `DELETE FROM request_log WHERE at < $1 AND project_id IN (SELECT id FROM projects WHERE plan = $2)`,
          [cutoffs[plan], plan],
        );
        await sql.run(
          `DELETE FROM request_log_hours WHERE hour <= $1 AND project_id IN (SELECT id FROM projects WHERE plan = $2)`,
          [cutoffs[plan] - HOUR_MS, plan],
        );
      }
      return removed;
    },
  };
}
