import type { Row } from './rows.ts';

/**
 * The little that repositories written once for both dialects need: statements with `$1, $2, …`
 * placeholders (SQLite reads them as `?1, ?2, …`), rows back, and how many rows a write changed.
 * Failures arrive already mapped (StorageUnavailableError for "cannot serve now").
 *
 * A repository is built on the executor it runs on: the storage's (`Storage.sql`: each statement on
 * its own, on SQLite in its turn on the one connection, sqlite-connection.ts) or a transaction's (the
 * one `Storage.transaction` gives its work: every statement inside that transaction, and nothing
 * else). The same repository code serves both, so a feature builds its repository from whichever
 * executor its operation runs on.
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
 * No other request's statement runs inside it (SQLite: it holds the one connection until it ends,
 * everything else waits its turn; PostgreSQL: a connection of its own). Inside `work`, a statement
 * through the storage's executor, a repository of the storage or a nested transaction is refused with
 * ReachedPastTransactionError (transaction-context.ts). `work` should await nothing but its executor:
 * on SQLite everyone else waits meanwhile, and a transaction that holds the connection longer than
 * TRANSACTION_LIMIT_MS (sqlite-connection.ts) is rolled back and fails as unavailable. A change of a
 * project's members takes the project's lock first (lockProject).
 */
export interface Transactions {
  transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T>;
}
