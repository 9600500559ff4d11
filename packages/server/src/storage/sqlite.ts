import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { type Clock, systemClock } from '../time/clock.ts';
import type { ReversibleStorage } from './migrations.ts';
import type { IdempotencyRepository, KeyRepository, PetRepository } from './repository.ts';
import { createIdempotencyRepository } from '../idempotency/idempotency-repository.ts';
import { createKeyRepository } from '../features/keys/key-repository.ts';
import { createSqlitePets, insertPet } from '../features/pets/sqlite.ts';
import { GroupCommit } from './sqlite-group-commit.ts';
import { createAccountRepository, type AccountRepository } from '../features/identity/account-repository.ts';
import { type AuditRecords, createAuditRecords } from '../features/audit/audit-records.ts';
import { type ChangeRecords, createChangeRecords } from './change-records.ts';
import { createDomainRepository, type DomainRepository } from '../features/domains/domain-repository.ts';
import { createProjectRepository, type ProjectRepository } from '../features/projects/project-repository.ts';
import type { RequestLogRecords } from '../features/requests/request-log-records.ts';
import { createSqliteRequestLog } from '../features/requests/request-log-sqlite.ts';
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
 * (SqliteConnection); pet creates are group-committed (see GroupCommit).
 */
export class SqliteStorage implements ReversibleStorage {
  readonly kind = 'sqlite';
  readonly pets: PetRepository;
  readonly keys: KeyRepository;
  readonly idempotency: IdempotencyRepository;
  readonly projects: ProjectRepository;
  readonly accounts: AccountRepository;
  readonly domains: DomainRepository;
  readonly requestLog: RequestLogRecords;
  readonly audit: AuditRecords;
  readonly changes: ChangeRecords;
  readonly sql: SqlExecutor;
  readonly #connection: SqliteConnection;
  readonly #path: string;
  readonly #clock: Clock;
  readonly #writes: GroupCommit;
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
    const { sql } = connection;
    const transaction = connection.transaction.bind(connection);
    this.#connection = connection;
    this.sql = sql;
    this.#clock = options.clock ?? systemClock;
    this.#path = path;
    this.#writes = new GroupCommit(connection, { create: insertPet });
    this.pets = createSqlitePets(connection, this.#writes);
    this.keys = createKeyRepository(sql, () => this.#keyWrites++);
    this.idempotency = createIdempotencyRepository(sql);
    // A project's plan is every key's plan: its changes count like key changes for the caches.
    this.projects = createProjectRepository(sql, transaction, 'sqlite', () => this.#keyWrites++);
    this.accounts = createAccountRepository(sql);
    this.domains = createDomainRepository(sql, () => this.#keyWrites++);
    this.requestLog = createSqliteRequestLog(connection);
    this.audit = createAuditRecords(sql);
    this.changes = createChangeRecords(sql);
  }

  ownWrites(): number {
    return this.#keyWrites;
  }

  transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#connection.transaction(work);
  }

  migrate(): Promise<string[]> {
    return this.#connection.turn((db) => migrateUp(db, this.#clock));
  }

  rollback(): Promise<string | undefined> {
    return this.#connection.turn((db) => migrateDown(db));
  }

  hasSchema(): Promise<boolean> {
    return this.#connection.turn(
      (db) =>
        db.get("SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'") !==
          undefined && db.get('SELECT 1 AS found FROM schema_migrations LIMIT 1') !== undefined,
    );
  }

  async ping(): Promise<void> {
    await this.#connection.turn((db) => db.get('SELECT 1'));
  }

  /** One committed (fsynced) write; waits at most PROBE_BUSY_TIMEOUT_MS for another writer's lock. */
  async probeWrite(): Promise<void> {
    await this.#connection.turn((db) =>
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
      this.#dataVersion = this.#connection.dataVersion();
      setImmediate(() => {
        this.#dataVersion = undefined;
      });
    }
    return this.#dataVersion + this.#keyWrites;
  }

  /** Creates still queued commit first, then whatever else was waiting for the connection. */
  async close(): Promise<void> {
    if (!this.#connection.isOpen) return;
    this.#writes.flush();
    await this.#connection.close();
  }
}
