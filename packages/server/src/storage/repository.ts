import type { ChangeHandlers, ChangeListener, ChangeRecords } from './change-records.ts';
import type { SqlExecutor, Transactions } from './sql-executor.ts';

/**
 * The database engine: statements, transactions, migrations, health, the change feed and the signals
 * caches follow. The features' repositories are built on it (features/store.ts) and belong to them.
 */
export interface Storage extends Transactions {
  readonly kind: 'sqlite' | 'postgres';
  /**
   * Single statements outside any transaction, for the features' repositories (features/*). On SQLite
   * each waits its turn while a transaction holds the connection; from inside a transaction's work it
   * is refused (ReachedPastTransactionError): that work uses the executor its transaction gives it.
   */
  readonly sql: SqlExecutor;
  /** The change feed of projects and custom domains (migration 090): what every instance's host cache follows. */
  readonly changes: ChangeRecords;
  /**
   * PostgreSQL: tells `handlers` whenever a change is committed (with the sequence numbers it
   * appended; without after (re)connecting) and whenever another instance says something, until
   * closed (LISTEN/NOTIFY); the listener sends this instance's messages.
   */
  listenForChanges?(handlers: ChangeHandlers): ChangeListener;
  /** Applies pending migrations; returns the names applied. */
  migrate(): Promise<string[]>;
  /** Throws when the database cannot answer. */
  ping(): Promise<void>;
  /**
   * Commits one small write (the `readiness_probe` row) and resolves once it is durable; throws
   * StorageUnavailableError when the database cannot take writes now (used by /readyz).
   */
  probeWrite(): Promise<void>;
  /** Free bytes on the file system holding the database, where the service can see it (SQLite). */
  freeDiskBytes?(): Promise<number>;
  /**
   * A number that changes whenever another connection or process has committed since the last call
   * (SQLite `PRAGMA data_version`), or this one changed a key; lets callers keep caches exactly
   * consistent (own pet creates are signalled by the create itself). Postgres returns
   * undefined (no synchronous cross-process signal: see petsVersion).
   */
  changeToken(): number | undefined;
  /**
   * How many writes through this storage (keys, projects, domains, transactions) have committed: a
   * cache of this process reads the change feed before its next answer once this moves, so the
   * instance that made a change never answers from what it replaced (PostgreSQL; on SQLite
   * changeToken moves with it too).
   */
  ownWrites(): number;
  /**
   * Counts one committed write that caches must see (a change of a key, a project's plan, a domain) in
   * ownWrites, and on SQLite in changeToken: the features' repositories call it after such a change.
   */
  noteOwnWrite(): void;
  /** Runs `hook` when closing, before the connections end (e.g. committing pets still queued). */
  beforeClose(hook: () => void): void;
  /**
   * Where changeToken() has no signal (PostgreSQL): resolves to a value that differs from every
   * earlier one once a pet was committed before this call, read by a query sent after the call
   * (concurrent calls share one). Offered only where pets become visible in id order, so that a full
   * page of a listing can never change.
   */
  petsVersion?(): Promise<bigint>;
  /** Connection pool occupancy, for metrics; absent where there is no pool (SQLite: one connection). */
  poolStats?(): PoolStats;
  /**
   * Where work the storage does in the background (PostgreSQL: analysing the request log's new
   * partitions) logs its failures; until it is called, stderr. Absent where there is none.
   */
  attachLogger?(log: { warn(obj: object, msg: string): void }): void;
  close(): Promise<void>;
}

export interface PoolStats {
  /** Connections open. */
  total: number;
  /** Open connections not in use. */
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}
