import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { SQLInputValue } from 'node:sqlite';
import { type Clock, systemClock } from '../time/clock.ts';
import type { ReversibleStorage } from './migrations.ts';
import type { IdempotencyRepository, KeyRepository, PetRepository } from './repository.ts';
import { createIdempotencyRepository } from './idempotency-repository.ts';
import { createKeyRepository } from '../features/keys/key-repository.ts';
import { createSqlitePets, insertPet } from '../features/pets/sqlite.ts';
import { GroupCommit } from './sqlite-group-commit.ts';
import { createAccountRepository, type AccountRepository } from './account-repository.ts';
import { type AuditRecords, createAuditRecords } from '../features/audit/audit-records.ts';
import { type ChangeRecords, createChangeRecords } from './change-records.ts';
import { createDomainRepository, type DomainRepository } from '../features/domains/domain-repository.ts';
import { createProjectRepository, type ProjectRepository } from '../features/projects/project-repository.ts';
import type { RequestLogRecords } from './request-log-records.ts';
import { createSqliteRequestLog } from './request-log-sqlite.ts';
import { type SqlExecutor, sqlitePlaceholders, type Transactions } from './sql-executor.ts';
import { serialTransactions } from './sqlite-transactions.ts';
import { SqliteDatabase } from './sqlite-database.ts';
import { migrateDown, migrateUp } from './sqlite-migrate.ts';

export interface SqliteOptions {
  clock?: Clock;
  /** How long a write waits for another process's write lock before failing as unavailable. */
  busyTimeoutMs?: number;
}

/** Readiness waits this long at most for another process's write lock (it blocks the event loop). */
const PROBE_BUSY_TIMEOUT_MS = 500;
const PROBE_WRITE =
  'INSERT INTO readiness_probe (id, checked_at) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at';

/** Storage in one SQLite file; pet creates are group-committed (see GroupCommit). */
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
  readonly #db: SqliteDatabase;
  readonly #path: string;
  readonly #clock: Clock;
  readonly #writes: GroupCommit;
  readonly #transactions: Transactions['transaction'];
  #dataVersion: number | undefined;
  /** Changes of keys' records made through this storage, added to the change token. */
  #keyWrites = 0;

  constructor(path: string, options: SqliteOptions = {}) {
    const db = new SqliteDatabase(path, options.busyTimeoutMs ?? 5_000);
    const sql: SqlExecutor = {
      all: async (text, params = []) => db.all(sqlitePlaceholders(text), ...(params as SQLInputValue[])),
      run: async (text, params = []) => db.run(sqlitePlaceholders(text), ...(params as SQLInputValue[])),
    };
    // Any table may change in a transaction (keys among them): each commit counts as a key change.
    const transaction = serialTransactions(db, sql, () => this.#keyWrites++);
    this.#transactions = transaction;
    this.sql = sql;
    this.#clock = options.clock ?? systemClock;
    this.#path = path;
    this.#db = db;
    this.#writes = new GroupCommit(db, { create: (pet, options) => insertPet(db, pet, options) });
    this.pets = createSqlitePets(db, this.#writes);
    this.keys = createKeyRepository(sql, () => this.#keyWrites++);
    this.idempotency = createIdempotencyRepository(sql);
    // A project's plan is every key's plan: its changes count like key changes for the caches.
    this.projects = createProjectRepository(sql, transaction, 'sqlite', () => this.#keyWrites++);
    this.accounts = createAccountRepository(sql, transaction);
    this.domains = createDomainRepository(sql, () => this.#keyWrites++);
    this.requestLog = createSqliteRequestLog(db, sql);
    this.audit = createAuditRecords(sql);
    this.changes = createChangeRecords(sql);
  }

  ownWrites(): number {
    return this.#keyWrites;
  }

  transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#transactions(work);
  }

  async migrate(): Promise<string[]> {
    return migrateUp(this.#db, this.#clock);
  }

  async rollback(): Promise<string | undefined> {
    return migrateDown(this.#db);
  }

  async hasSchema(): Promise<boolean> {
    const table = this.#db.get(
      "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
    );
    return (
      table !== undefined && this.#db.get('SELECT 1 AS found FROM schema_migrations LIMIT 1') !== undefined
    );
  }

  async ping(): Promise<void> {
    this.#db.get('SELECT 1');
  }

  /** One committed (fsynced) write; waits at most PROBE_BUSY_TIMEOUT_MS for another writer's lock. */
  async probeWrite(): Promise<void> {
    this.#db.withBusyTimeout(PROBE_BUSY_TIMEOUT_MS, () =>
      this.#db.transaction(() => this.#db.run(PROBE_WRITE, this.#clock.now())),
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
      this.#dataVersion = Number(this.#db.get('PRAGMA data_version')!.data_version);
      setImmediate(() => {
        this.#dataVersion = undefined;
      });
    }
    return this.#dataVersion + this.#keyWrites;
  }

  async close(): Promise<void> {
    if (!this.#db.isOpen) return;
    this.#writes.flush();
    this.#db.close();
  }
}
