import type { Pool, PoolClient, QueryResult } from 'pg';
import { type Clock, systemClock } from '../time/clock.ts';
import { type ReversibleStorage, upToDate } from './migrations.ts';
import { createPetGroupCommit } from './pet-group-commit.ts';
import { insertPetWithKey, petWriter } from './postgres-create.ts';
import { migrateDown, migrateUp } from './postgres-migrate.ts';
import { createPool, mapPostgresError, type PoolSettings } from './postgres-pool.ts';
import { sharedRead } from './shared-read.ts';
import type { SqlBatch, SqlExecutor } from './sql-executor.ts';
import { KeyedStorage } from './keyed-storage.ts';
import type { PoolStats } from './repository.ts';
import type { CreateOptions, CreateResult, ListQuery, NewPet, Pet } from './records.ts';
import { type AccountRepository, createAccountRepository } from './account-repository.ts';
import { type AuditRecords, createAuditRecords } from '../features/audit/audit-records.ts';
import { type ChangeRecords, createChangeRecords } from './change-records.ts';
import { listenForHostChanges } from './postgres-listen.ts';
import { createDomainRepository, type DomainRepository } from '../features/domains/domain-repository.ts';
import { createProjectRepository, type ProjectRepository } from '../features/projects/project-repository.ts';
import type { MaintenanceLog } from './partition-analysis.ts';
import { createPostgresRequestLog, type PostgresRequestLog } from './request-log-postgres.ts';
import { PET_COLUMNS, type Row, toPet } from './rows.ts';

export interface PostgresOptions extends PoolSettings {
  clock?: Clock;
}

const PROBE_WRITE =
  'INSERT INTO readiness_probe (id, checked_at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at';

/**
 * Storage in PostgreSQL through a pool, every commit with synchronous_commit=on. Plain creates arriving
 * together share one INSERT (pet-group-commit.ts); every other write is its own transaction.
 */
export class PostgresStorage extends KeyedStorage implements ReversibleStorage {
  readonly kind = 'postgres';
  readonly projects: ProjectRepository;
  readonly accounts: AccountRepository;
  readonly domains: DomainRepository;
  readonly requestLog: PostgresRequestLog;
  readonly audit: AuditRecords;
  readonly changes: ChangeRecords;
  readonly #settings: PostgresOptions;
  readonly sql: SqlExecutor;
  readonly #pool: Pool;
  readonly #schema: string | undefined;
  readonly #clock: Clock;
  readonly #newestPetId: () => Promise<bigint>;
  readonly #insertPet: (pet: NewPet) => Promise<Pet>;
  #closed = false;
  #log: MaintenanceLog = consoleLog;

  constructor(options: PostgresOptions) {
    const pool = createPool(options);
    const sql: SqlExecutor = {
      all: async (text, params = [], name) => (await run(pool, text, [...params], name)).rows,
      run: async (text, params = []) => (await run(pool, text, [...params])).rowCount ?? 0,
    };
    super(sql);
    this.sql = sql;
    this.#pool = pool;
    this.#schema = options.schema;
    this.#clock = options.clock ?? systemClock;
    const batch: SqlBatch = (statements, lockProject) =>
      this.#transaction(async (client) => {
        if (lockProject !== undefined) {
          await client.query('SELECT 1 FROM projects WHERE id = $1 FOR NO KEY UPDATE', [lockProject]);
        }
        const results: Row[][] = [];
        for (const { sql: text, params } of statements) {
          results.push((await client.query<Row>(text, [...params])).rows);
        }
        return results;
      });
    this.projects = createProjectRepository(sql, batch, () => this.keyWrites++);
    this.accounts = createAccountRepository(sql, batch);
    this.domains = createDomainRepository(sql, () => this.keyWrites++);
    this.audit = createAuditRecords(sql);
    this.changes = createChangeRecords(sql);
    this.#settings = options;
    this.requestLog = createPostgresRequestLog({
      sql,
      transaction: (work) => this.#transaction(work),
      log: () => this.#log,
    });
    this.#newestPetId = sharedRead(async () => {
      const [row] = await this.#query('SELECT max(id) AS id FROM pets', [], 'petstore_newest_pet');
      return row!.id === null ? 0n : BigInt(row!.id as bigint);
    });
    this.#insertPet = createPetGroupCommit(petWriter((sql, params, name) => this.#query(sql, params, name)));
  }

  /** An up-to-date schema is told by two reads, without the migration lock or any SQL file. */
  async migrate(): Promise<string[]> {
    const [table] = await this.#query("SELECT to_regclass('schema_migrations') IS NOT NULL AS found");
    if (table!.found) {
      const rows = await this.#query('SELECT version FROM schema_migrations');
      if (
        upToDate(
          'postgres',
          rows.map((row) => Number(row.version)),
        )
      )
        return [];
    }
    return this.#transaction((client) => migrateUp(client, this.#schema, this.#clock));
  }

  async rollback(): Promise<string | undefined> {
    return this.#transaction((client) => migrateDown(client, this.#schema));
  }

  async hasSchema(): Promise<boolean> {
    const [row] = await this.#query("SELECT to_regclass('schema_migrations') IS NOT NULL AS found");
    if (!row!.found) return false;
    return (await this.#query('SELECT 1 FROM schema_migrations LIMIT 1')).length > 0;
  }

  async ping(): Promise<void> {
    await this.#query('SELECT 1');
  }

  /** One committed write with synchronous_commit=on (fails on a read-only server or a full disk). */
  async probeWrite(): Promise<void> {
    await this.#query(PROBE_WRITE, [this.#clock.now()]);
  }

  changeToken(): undefined {
    return undefined;
  }

  /**
   * The newest pet id: pets become visible in id order (migration 010), so it changes with every
   * commit of a pet, and a full page never changes. One query answers every caller waiting meanwhile.
   */
  petsVersion(): Promise<bigint> {
    return this.#newestPetId();
  }

  listenForChanges(onNotify: () => void): { close(): Promise<void> } {
    return listenForHostChanges(this.#settings, onNotify);
  }

  poolStats(): PoolStats {
    return { total: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount };
  }

  attachLogger(log: MaintenanceLog): void {
    this.#log = log;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.requestLog.analysis.stop();
    await this.#pool.end();
  }

  async createPet(pet: NewPet, options?: CreateOptions): Promise<CreateResult> {
    const idempotency = options?.idempotency;
    if (!idempotency) return { kind: 'created', pet: await this.#insertPet(pet) };
    const result = await this.#transaction(
      (client) => insertPetWithKey(client, pet, idempotency),
      (outcome) => outcome?.kind === 'created',
    );
    return result ?? this.createPet(pet, options);
  }

  async getPet(id: bigint): Promise<Pet | undefined> {
    const [row] = await this.#query(
      `SELECT ${PET_COLUMNS} FROM pets WHERE id = $1`,
      [id],
      'petstore_get_pet',
    );
    return row && toPet(row);
  }

  async listPets({ status, afterId = 0n, limit }: ListQuery): Promise<Pet[]> {
    const rows =
      status === undefined
        ? await this.#query(
            `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`,
            [afterId, limit],
            'petstore_list_pets',
          )
        : await this.#query(
            `SELECT ${PET_COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`,
            [status, afterId, limit],
            'petstore_list_pets_by_status',
          );
    return rows.map(toPet);
  }

  async countPets(): Promise<number> {
    const [row] = await this.#query('SELECT count(*) AS n FROM pets');
    return Number(row!.n);
  }

  transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    return this.#transaction((client) => work(clientExecutor(client))).finally(() => this.keyWrites++);
  }

  /** Commits when `keep(result)` holds (by default always), rolls back otherwise or on any error. */
  async #transaction<T>(
    work: (client: PoolClient) => Promise<T>,
    keep: (result: T) => boolean = () => true,
  ): Promise<T> {
    const client = await this.#pool
      .connect()
      .catch((error: unknown) => Promise.reject(mapPostgresError(error)));
    let broken = false;
    // The pool listens for errors on idle clients only: a connection lost while checked out (server
    // crash or shutdown) would otherwise be an unhandled 'error' event and end the process.
    const onError = () => {
      broken = true;
    };
    client.on('error', onError);
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query(keep(result) ? 'COMMIT' : 'ROLLBACK');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {
        broken = true;
      });
      throw mapPostgresError(error);
    } finally {
      client.release(broken);
      client.removeListener('error', onError);
    }
  }

  /** `name` makes it a prepared statement, parsed and planned once per connection (hot paths only). */
  async #query(sql: string, params?: unknown[], name?: string): Promise<Row[]> {
    return (await run(this.#pool, sql, params, name)).rows;
  }
}

/** Statements on one checked-out connection (a transaction's); failures are mapped by #transaction. */
function clientExecutor(client: PoolClient): SqlExecutor {
  return {
    all: async (text, params = []) => (await client.query<Row>({ text, values: [...params] })).rows,
    run: async (text, params = []) => (await client.query({ text, values: [...params] })).rowCount ?? 0,
  };
}

/** Until the app's logger is attached. */
const consoleLog: MaintenanceLog = { warn: (obj, msg) => console.warn(msg, obj) };

async function run(pool: Pool, sql: string, params?: unknown[], name?: string): Promise<QueryResult<Row>> {
  try {
    return await pool.query<Row>({ text: sql, values: params, name });
  } catch (error) {
    throw mapPostgresError(error);
  }
}
