import type { Plan } from '../../storage/records.ts';
import type { UsageCell, UsageQuery, UsageRow } from './usage-records.ts';

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
  /** The Error body's `message` the client received (at most MESSAGE_MAX_LENGTH); null for a success. */
  message?: string | null;
  /**
   * How many requests this row stands for, when more than one: the refusals (401, 403, 429) of one
   * project's keys with one status and code within one second are kept as one row, the first of them
   * (its key, path, address), with their number (features/requests/request-log-buffer.ts).
   */
  count?: number;
  /**
   * When the refusals counted came from several keys: how many of `count` each key had. Not stored
   * with the row; the usage rollups written with it count each key's own (usage-records.ts).
   */
  countsByKey?: Map<string, number>;
  /**
   * The project's plan as its key had it when the request was answered (the authenticator's record,
   * kept current by the change feed): the batch's expiry is read from it with no lookup. Not stored;
   * a row without it has its project's plan looked up at the write.
   */
  plan?: Plan;
}

export interface StoredRequest extends LoggedRequest {
  /** The row's own id, a decimal string: names it in the dashboard and orders rows of one instant. */
  id: string;
  /** Null for a success, and for failures logged before messages were kept. */
  message: string | null;
}

/** `2xx`, `4xx` (429 not included: it has a class of its own), `429`, `5xx`, or one status code. */
export type StatusFilter = '2xx' | '4xx' | '429' | '5xx' | number;

export interface RequestLogQuery {
  projectId: string;
  keyId?: string;
  status?: StatusFilter;
  operation?: string;
  requestId?: string;
  /**
   * Requests whose id starts with this (lower case, 8 to 36 characters of a UUIDv7, as the service
   * makes them): only the batches whose id times the prefix can hold are read.
   */
  requestIdPrefix?: string;
  /** Inclusive, epoch ms. */
  since?: number;
  /** Exclusive, epoch ms. */
  until?: number;
  /** Keyset paging: only rows older than this one (by time, then id). */
  before?: { at: number; id: string };
  limit: number;
}

/** Awaited after each slice of a purge: yields the event loop, may measure and may stop it (false). */
export type PurgeSlice = () => Promise<boolean>;

export interface RequestLogRecords {
  /**
   * Stores a batch at once: one transaction (or one statement) for all its rows, and their usage cells
   * unless `usage` is false (the writer then counts them in memory and stores them with addUsage).
   */
  write(batch: readonly LoggedRequest[], options?: { usage?: boolean }): Promise<void>;
  /** Adds counted cells (in rollUp's order) to the usage rollups: one transaction (or one statement). */
  addUsage(cells: readonly UsageCell[]): Promise<void>;
  /** The project's requests matching the query, newest first. */
  list(query: RequestLogQuery): Promise<StoredRequest[]>;
  /**
   * Every request matching the query, newest first, in pages of `pageRows` (the last one may hold
   * fewer): each read is one short statement of batches after the last batch read (a keyset), so
   * nothing stays open between pages and every batch is decoded once however long the walk; one read
   * may give several pages, or a page take a few reads. What exports read.
   */
  pages(query: Omit<RequestLogQuery, 'limit' | 'before'>, pageRows: number): AsyncIterable<StoredRequest[]>;
  /** One request of the project by its row id. */
  get(projectId: string, id: string): Promise<StoredRequest | undefined>;
  /**
   * Deletes the batches expired by `now` (request-log-expiry.ts), a bounded slice at a time: PostgreSQL
   * drops whole partitions, SQLite deletes by an indexed expiry. Resolves with how many requests went;
   * `slice`, when given, is awaited between slices (the maintenance scheduler's yield and timing).
   */
  purge(now: number, slice?: PurgeSlice): Promise<number>;
  /** Hourly rollups kept by `write` or `addUsage`: never read from the rows. */
  usage(query: UsageQuery): Promise<UsageRow[]>;
  /** Deletes rollups of hours before `before`; resolves with how many cells went. */
  purgeUsage(before: number, limit?: number): Promise<number>;
}

/** A request's fields as a batch stores them (request-log-batch.ts): all but `projectId`. */
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
  message: string | null,
  /** Present only when the row stands for more than one request. */
  count?: number,
];

export const requestFields = (entry: LoggedRequest): RequestFields => {
  const fields: RequestFields = [
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
    entry.message ?? null,
  ];
  if (entry.count !== undefined && entry.count > 1) fields.push(entry.count);
  return fields;
};

const STATUS_RANGES: Record<Exclude<StatusFilter, number>, [number, number]> = {
  '2xx': [200, 299],
  '4xx': [400, 499],
  '429': [429, 429],
  '5xx': [500, 599],
};

/** Whether a status is in a filter's: `4xx` leaves 429 to its own class, as the usage charts do. */
export function statusMatcher(status: StatusFilter | undefined): (code: number) => boolean {
  if (status === undefined) return () => true;
  const [low, high] = typeof status === 'number' ? [status, status] : STATUS_RANGES[status];
  return status === '4xx'
    ? (code) => code >= low && code <= high && code !== 429
    : (code) => code >= low && code <= high;
}
