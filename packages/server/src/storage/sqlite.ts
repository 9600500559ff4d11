import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type Clock, systemClock } from '../time/clock.ts';
import type { ReversibleStorage } from './migrations.ts';
import { type ChangeRecords, createChangeRecords } from './change-records.ts';
import type { SqlExecutor } from './sql-executor.ts';
import { type ConnectionLimits, SqliteConnection } from './sqlite-connection.ts';
import { SqliteDatabase } from './sqlite-database.ts';
import { migrateDown, migrateUp } from './sqlite-migrate.ts';

export interface SqliteOptions {
  clock?: Clock;
  /** How long a write waits for another process's write lock before failing as unavailable. */
  busyTimeoutMs?: number;
  /** The connection's bounds (sqlite-connection.ts): turns waiting, a transaction's hold. */
  limits?: ConnectionLimits;
}

/** Readiness waits this long at most for another process's write lock (it blocks the event loop). */
const PROBE_BUSY_TIMEOUT_MS = 500;
const PROBE_WRITE =
  'INSERT INTO readiness_probe (id, checked_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at';

/**
 * Storage in one SQLite file, on one connection that every statement reaches through its turn
 * (SqliteConnection); the features' repositories reach it through `connection` (features/store.ts).
 */
export class SqliteStorage implements ReversibleStorage {
  readonly kind = 'sqlite';
  readonly changes: ChangeRecords;
  readonly sql: SqlExecutor;
  /** The one connection, for the repositories that work in its turns (pets, the request log). */
  readonly connection: SqliteConnection;
  readonly #path: string;
  readonly #clock: Clock;
  readonly #beforeClose: (() => void)[] = [];
  #dataVersion: number | undefined;
  /** Changes of keys' records made through this storage, added to the change token. */
  #keyWrites = 0;

  constructor(path: string, options: SqliteOptions = {}) {
    // Any table may change in a transaction (keys among them): each commit counts as a key change.
    const connection = new SqliteConnection(
      new SqliteDatabase(path, options.busyTimeoutMs ?? 5_000),
      options.limits,
      () => this.#keyWrites++,
    );
    this.connection = connection;
    this.sql = connection.sql;
    this.#clock = options.clock ?? systemClock;
    this.#path = path;
    this.changes = createChangeRecords(this.sql);
  }

  ownWrites(): number {
    return this.#keyWrites;
  }

  noteOwnWrite(): void {
    this.#keyWrites++;
  }

  beforeClose(hook: () => void): void {
    this.#beforeClose.push(hook);
  }

  transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    return this.connection.transaction(work);
  }

  migrate(): Promise<string[]> {
    return this.connection.turn((db) => migrateUp(db, this.#clock));
  }

  rollback(): Promise<string | undefined> {
    return this.connection.turn((db) => migrateDown(db));
  }

  hasSchema(): Promise<boolean> {
    return this.connection.turn(
      (db) =>
        db.get("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") !==
          undefined && db.get('SELECT 1 AS found FROM schema_migrations LIMIT 1') !== undefined,
    );
  }

  async ping(): Promise<void> {
    await this.connection.turn((db) => db.get('SELECT 1'));
  }

  /** One committed (fsynced) write; waits at most PROBE_BUSY_TIMEOUT_MS for another writer's lock. */
  async probeWrite(): Promise<void> {
    await this.connection.turn((db) =>
      db.withBusyTimeout(PROBE_BUSY_TIMEOUT_MS, () =>
        db.transaction(() => db.run(PROBE_WRITE, this.#clock.now())),
      ),
    );
  }

  async freeDiskBytes(): Promise<number> {
    const stats = await statfs(dirname(resolve(this.#path)));
    return stats.bavail * stats.bsize;
  }

  /**
   * data_version moves on other connections' commits; own key changes are added so caches see them.
   * It is read once per event-loop turn: a request arriving after another process acknowledged a
   * write is handled in a later turn, so it always sees that write.
   */
  changeToken(): number {
    if (this.#dataVersion === undefined) {
      this.#dataVersion = this.connection.dataVersion();
      setImmediate(() => {
        this.#dataVersion = undefined;
      });
    }
    return this.#dataVersion + this.#keyWrites;
  }

  /** The hooks first (creates still queued commit), then whatever else was waiting for the connection. */
  async close(): Promise<void> {
    if (!this.connection.isOpen) return;
    for (const hook of this.#beforeClose) hook();
    await this.connection.close();
  }
}
