import type { Pool, PoolClient, QueryResult } from 'pg';
import { type Clock, systemClock } from '../time/clock.ts';
import { type ReversibleStorage, upToDate } from './migrations.ts';
import { migrateDown, migrateUp } from './postgres-migrate.ts';
import { createPool, mapPostgresError, type PoolSettings } from './postgres-pool.ts';
import { sharedRead } from './shared-read.ts';
import type { SqlExecutor } from './sql-executor.ts';
import type { PoolStats } from './repository.ts';
import {
  type ChangeHandlers,
  type ChangeListener,
  type ChangeRecords,
  createChangeRecords,
} from './change-records.ts';
import { listenForHostChanges } from './postgres-listen.ts';
import type { MaintenanceLog } from './partition-analysis.ts';
import type { Row } from './rows.ts';
import {
  enclosingTransaction,
  type OpenTransaction,
  ReachedPastTransactionError,
  TransactionEndedError,
  withinTransaction,
} from './transaction-context.ts';

export interface PostgresOptions extends PoolSettings {
  clock?: Clock;
}

const PROBE_WRITE =
  'INSERT INTO readiness_probe (id, checked_at) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET checked_at = excluded.checked_at';

/**
 * Storage in PostgreSQL through a pool, every commit with synchronous_commit=on. Plain creates arriving
 * together share one INSERT (pet-group-commit.ts); every other write is its own transaction.
 */
export class PostgresStorage implements ReversibleStorage {
  readonly kind = 'postgres';
  readonly changes: ChangeRecords;
  readonly #settings: PostgresOptions;
  readonly sql: SqlExecutor;
  readonly #pool: Pool;
  readonly #schema: string | undefined;
  readonly #clock: Clock;
  readonly #newestPetId: () => Promise<bigint>;
  #closed = false;
  /** Writes through this storage that caches must see (keys, projects, domains, transactions). */
  #ownWrites = 0;
  #log: MaintenanceLog = consoleLog;
  readonly #beforeClose: (() => void)[] = [];

  constructor(options: PostgresOptions) {
    const pool = createPool(options);
    const sql: SqlExecutor = {
      all: async (text, params = [], name) => (await run(pool, text, [...params], name)).rows,
      run: async (text, params = []) => (await run(pool, text, [...params])).rowCount ?? 0,
    };
    this.sql = sql;
    this.#pool = pool;
    this.#schema = options.schema;
    this.#clock = options.clock ?? systemClock;
    this.changes = createChangeRecords(sql);
    this.#settings = options;
    this.#newestPetId = sharedRead(async () => {
      const [row] = await this.#query('SELECT max(id) AS id FROM pets', [], 'petstore_newest_pet');
      return row!.id === null ? 0n : BigInt(row!.id as bigint);
    });
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

  ownWrites(): number {
    return this.#ownWrites;
  }

  noteOwnWrite(): void {
    this.#ownWrites++;
  }

  beforeClose(hook: () => void): void {
    this.#beforeClose.push(hook);
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

  listenForChanges(handlers: ChangeHandlers): ChangeListener {
    return listenForHostChanges(this.#settings, handlers);
  }

  poolStats(): PoolStats {
    return { total: this.#pool.totalCount, idle: this.#pool.idleCount, waiting: this.#pool.waitingCount };
  }

  attachLogger(log: MaintenanceLog): void {
    this.#log = log;
  }

  /** Where background work logs its failures: stderr until attachLogger is called. */
  maintenanceLog(): MaintenanceLog {
    return this.#log;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const hook of this.#beforeClose) hook();
    await this.#pool.end();
  }

  /**
   * For the features' repositories (features/store.ts): a statement on a connection of the pool (`name`
   * makes it prepared), and `work` on one checked-out connection in a transaction (see #transaction).
   */
  query(sql: string, params?: unknown[], name?: string): Promise<Row[]> {
    return this.#query(sql, params, name);
  }

  clientTransaction<T>(work: (client: PoolClient) => Promise<T>, keep?: (result: T) => boolean): Promise<T> {
    return this.#transaction(work, keep);
  }

  /**
   * `work` on a connection of its own, checked out of the pool for the transaction. Its statements run
   * on that connection through the executor it is given; one through `sql` (or a transaction) from
   * inside it would run on another connection, outside the transaction, and is refused
   * (ReachedPastTransactionError), as on SQLite.
   */
  transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    if (enclosingTransaction()) return Promise.reject(new ReachedPastTransactionError());
    const transaction = { open: true };
    return this.#transaction((client) =>
      withinTransaction(transaction, () => work(clientExecutor(client, transaction))),
    ).finally(() => {
      transaction.open = false;
      this.#ownWrites++;
    });
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

/**
 * Statements on one checked-out connection (a transaction's), while the transaction is open; failures
 * are mapped by #transaction.
 */
function clientExecutor(client: PoolClient, transaction: OpenTransaction): SqlExecutor {
  const query = async <R extends Row>(text: string, params: readonly unknown[]) => {
    if (!transaction.open) throw new TransactionEndedError();
    return client.query<R>({ text, values: [...params] });
  };
  return {
    all: async (text, params = []) => (await query(text, params)).rows,
    run: async (text, params = []) => (await query(text, params)).rowCount ?? 0,
  };
}

/** Until the app's logger is attached. */
const consoleLog: MaintenanceLog = { warn: (obj, msg) => console.warn(msg, obj) };

/** A statement on a connection of the pool: never from inside a transaction's work (see transaction). */
async function run(pool: Pool, sql: string, params?: unknown[], name?: string): Promise<QueryResult<Row>> {
  if (enclosingTransaction()) throw new ReachedPastTransactionError();
  try {
    return await pool.query<Row>({ text: sql, values: params, name });
  } catch (error) {
    throw mapPostgresError(error);
  }
}
