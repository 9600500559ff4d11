import type { Row } from './rows.ts';

/**
 * The little that repositories written once for both dialects need: statements with `$1, $2, …`
 * placeholders (SQLite reads them as `?1, ?2, …`), rows back, and how many rows a write changed.
 * Failures arrive already mapped (StorageUnavailableError for "cannot serve now").
 */
export interface SqlExecutor {
  /** `name` marks a hot statement: PostgreSQL prepares it once per connection (SQLite prepares all). */
  all(sql: string, params?: readonly unknown[], name?: string): Promise<Row[]>;
  /** Runs a write; resolves with how many rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

const converted = new Map<string, string>();

/** `$1` → `?1`: the same statement text for node:sqlite, converted once per text. */
export function sqlitePlaceholders(sql: string): string {
  let text = converted.get(sql);
  if (text === undefined) converted.set(sql, (text = sql.replace(/\$(\d+)/g, '?$1')));
  return text;
}

/**
 * The one write transaction, of the application services (features/*) and the repositories alike:
 * `work` runs its statements on the executor it is given; the transaction commits when `work` resolves
 * and rolls back when it throws, so a change and its audit record are stored together or not at all.
 * `work` must await nothing but its executor: on SQLite the one connection holds the transaction open
 * meanwhile. A change of a project's members takes the project's lock first (lockProject).
 */
export interface Transactions {
  transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T>;
}
