import type { Plan } from './records.ts';
import type { Row } from './rows.ts';
import type { SqlExecutor } from './sql-executor.ts';
import type { UsageQuery, UsageRow } from './usage-records.ts';

/** One API request made with a project's key, as the request log keeps it: never a header or a body. */
export interface LoggedRequest {
  projectId: string;
  /** Epoch ms at which the response was sent. */
  at: number;
  requestId: string;
  keyId: string;
  /** The key's label when the request was made. */
  keyLabel: string | null;
  /** The route's operationId (`listPets`), or `methodNotAllowed` and the like outside the contract. */
  operation: string;
  method: string;
  /** The request target with secrets redacted (http/redact.ts). */
  path: string;
  status: number;
  /** The Error body's `code`; null for a success. */
  code: string | null;
  latencyMs: number;
  /** The client address, as the server saw it (after trusted proxies). */
  address: string;
}

export interface StoredRequest extends LoggedRequest {
  /** The row's own id, a decimal string: names it in the dashboard and orders rows of one instant. */
  id: string;
}

/** `2xx`, `4xx` (429 included), `429` alone, `5xx`, or one status code. */
export type StatusFilter = '2xx' | '4xx' | '429' | '5xx' | number;

export interface RequestLogQuery {
  projectId: string;
  keyId?: string;
  status?: StatusFilter;
  operation?: string;
  requestId?: string;
  /** Inclusive, epoch ms. */
  since?: number;
  /** Exclusive, epoch ms. */
  until?: number;
  /** Keyset paging: only rows older than this one (by time, then id). */
  before?: { at: number; id: string };
  limit: number;
}

export interface RequestLogRecords {
  /** Stores a batch at once: one transaction (or one statement) for all its rows. */
  write(batch: readonly LoggedRequest[]): Promise<void>;
  /** The project's requests matching the query, newest first. */
  list(query: RequestLogQuery): Promise<StoredRequest[]>;
  /** One request of the project by its row id. */
  get(projectId: string, id: string): Promise<StoredRequest | undefined>;
  /**
   * Deletes every row older than its project's plan's cutoff (epoch ms); resolves with how many rows
   * went (PostgreSQL counts the rows of dropped partitions too).
   */
  purge(cutoffs: Readonly<Record<Plan, number>>): Promise<number>;
  /** Hourly rollups kept by `write` in the same transaction as the rows: never read from the rows. */
  usage(query: UsageQuery): Promise<UsageRow[]>;
  /** Deletes rollups of hours before `before`; resolves with how many cells went. */
  purgeUsage(before: number): Promise<number>;
}

export const REQUEST_LOG_COLUMNS =
  'id, project_id, at, request_id, key_id, key_label, operation, method, path, status, code, latency_ms, address';

export function toStoredRequest(row: Row): StoredRequest {
  return {
    id: String(row.id),
    projectId: row.project_id as string,
    at: Number(row.at),
    requestId: row.request_id as string,
    keyId: row.key_id as string,
    keyLabel: (row.key_label as string | null) ?? null,
    operation: row.operation as string,
    method: row.method as string,
    path: row.path as string,
    status: Number(row.status),
    code: (row.code as string | null) ?? null,
    latencyMs: Number(row.latency_ms),
    address: row.address as string,
  };
}

/** A request's fields in REQUEST_LOG_COLUMNS order, without `id` and `project_id`. */
export type RequestFields = [
  at: number,
  requestId: string,
  keyId: string,
  keyLabel: string | null,
  operation: string,
  method: string,
  path: string,
  status: number,
  code: string | null,
  latencyMs: number,
  address: string,
];

export const requestFields = (entry: LoggedRequest): RequestFields => [
  entry.at,
  entry.requestId,
  entry.keyId,
  entry.keyLabel,
  entry.operation,
  entry.method,
  entry.path,
  entry.status,
  entry.code,
  entry.latencyMs,
  entry.address,
];

const STATUS_RANGES: Record<Exclude<StatusFilter, number>, [number, number]> = {
  '2xx': [200, 299],
  '4xx': [400, 499],
  '429': [429, 429],
  '5xx': [500, 599],
};

/** The inclusive range of statuses a filter takes. */
export const statusRange = (status: StatusFilter): [number, number] =>
  typeof status === 'number' ? [status, status] : STATUS_RANGES[status];

/** A WHERE clause of one project's rows, built condition by condition with numbered parameters. */
export function projectConditions(projectId: string) {
  const params: unknown[] = [projectId];
  const where = ['project_id = $1'];
  const add = (condition: (n: number) => string, ...values: unknown[]) => {
    const first = params.length + 1;
    params.push(...values);
    where.push(condition(first));
  };
  /** The query's key, operation and status filters. */
  const addCombination = (query: RequestLogQuery) => {
    if (query.keyId !== undefined) add((n) => `key_id = $${n}`, query.keyId);
    if (query.operation !== undefined) add((n) => `operation = $${n}`, query.operation);
    if (query.status !== undefined)
      add((n) => `status BETWEEN $${n} AND $${n + 1}`, ...statusRange(query.status));
  };
  return { params, where, add, addCombination };
}

/** The WHERE clause and parameters of a listing: every filter an index serves or a short scan checks. */
function listSql(
  query: RequestLogQuery,
  idParam: (id: string) => unknown,
): { text: string; params: unknown[] } {
  const { params, where, add, addCombination } = projectConditions(query.projectId);
  addCombination(query);
  if (query.requestId !== undefined) add((n) => `request_id = $${n}`, query.requestId);
  if (query.since !== undefined) add((n) => `at >= $${n}`, query.since);
  if (query.until !== undefined) add((n) => `at < $${n}`, query.until);
  if (query.before) add((n) => `(at, id) < ($${n}, $${n + 1})`, query.before.at, idParam(query.before.id));
  params.push(query.limit);
  return {
    text: `SELECT ${REQUEST_LOG_COLUMNS} FROM request_log WHERE ${where.join(' AND ')}
      ORDER BY at DESC, id DESC LIMIT $${params.length}`,
    params,
  };
}

const INT64_MAX = 2n ** 63n - 1n;

/** The reads, written once for both dialects. */
export function requestLogReads(sql: SqlExecutor): Pick<RequestLogRecords, 'list' | 'get'> {
  return {
    async list(query) {
      const { text, params } = listSql(query, (id) => BigInt(id));
      return (await sql.all(text, params)).map(toStoredRequest);
    },
    async get(projectId, id) {
      if (!/^\d{1,19}$/.test(id) || BigInt(id) > INT64_MAX) return undefined;
      const [row] = await sql.all(
        `SELECT ${REQUEST_LOG_COLUMNS} FROM request_log WHERE project_id = $1 AND id = $2`,
        [projectId, BigInt(id)],
      );
      return row && toStoredRequest(row);
    },
  };
}
