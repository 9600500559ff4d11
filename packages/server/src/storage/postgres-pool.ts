import pg, { type CustomTypesConfig, type Pool } from 'pg';
import { StorageUnavailableError } from './errors.ts';

export interface PoolSettings {
  url: string;
  /** Most connections held at once (default 10). */
  poolSize?: number;
  /** Schema to work in (tests isolate themselves this way); the default search_path otherwise. */
  schema?: string;
  /** Shown in pg_stat_activity (default `petstore`). */
  applicationName?: string;
  /** The server's limit on each statement (default 5 s) and the client's wait for its reply (default 6 s). */
  timeouts?: { statementMs: number; queryMs: number };
}

const TIMEOUTS = { statementMs: 5_000, queryMs: 6_000 };

const SCHEMA_NAME = /^[a-z_][a-z0-9_]*$/;

/** BIGINT (int8) columns become bigint, losslessly, for this pool only; pg's global parsers stay as they are. */
const types: CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 && format !== 'binary'
      ? (value: string) => BigInt(value)
      : pg.types.getTypeParser(oid, format)) as CustomTypesConfig['getTypeParser'],
};

export function createPool({
  url,
  poolSize = 10,
  schema,
  applicationName = 'petstore',
  timeouts = TIMEOUTS,
}: PoolSettings): Pool {
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`invalid schema name ${JSON.stringify(schema)}: use lower-case letters, digits and _`);
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    // An outage fails fast instead of queueing requests behind a hanging connect or query.
    connectionTimeoutMillis: 2_000,
    statement_timeout: timeouts.statementMs,
    query_timeout: timeouts.queryMs,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
    application_name: applicationName,
    options: `-c synchronous_commit=on${schema === undefined ? '' : ` -c search_path=${schema}`}`,
    types,
  });
  // An idle client losing its connection (server restart, failover) must not crash the process: the
  // pool drops that client and the next query reports the outage as StorageUnavailableError.
  pool.on('error', () => {});
  return pool;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
]);

/** SQLSTATEs meaning the server cannot serve now: shutdown, starting up, statement timeout, read-only. */
const UNAVAILABLE_STATES = new Set(['57P01', '57P02', '57P03', '57014', '25006']);

/** pg reports these without a code. */
const UNAVAILABLE_MESSAGE =
  /connection terminated|timeout exceeded when trying to connect|query read timeout|connection error|not queryable/i;

function isUnavailable(error: unknown): boolean {
  if (error instanceof AggregateError && error.errors.some(isUnavailable)) return true;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') {
    // Class 08 is "connection exception", class 53 "insufficient resources" (disk full, too many connections).
    if (NETWORK_CODES.has(code) || UNAVAILABLE_STATES.has(code) || /^(08|53)/.test(code)) return true;
  }
  return UNAVAILABLE_MESSAGE.test(error.message);
}

export function mapPostgresError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError || !isUnavailable(error)) return error;
  return new StorageUnavailableError(`database unavailable: ${(error as Error).message}`, { cause: error });
}
