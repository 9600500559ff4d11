import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type SQLOutputValue, type StatementSync } from 'node:sqlite';
import { StorageUnavailableError } from './errors.ts';
import type { Row } from './rows.ts';

/** Primary result codes meaning "cannot read or write now": busy, locked, read-only, I/O, full, cannot open, protocol. */
const UNAVAILABLE_CODES = new Set([5, 6, 8, 10, 13, 14, 15]);
/**
 * Read-only, I/O error, cannot open: a connection that met one of these may stay broken after the cause
 * is gone (a database opened while its directory was read-only stays read-only), so it is reopened.
 */
const REOPEN_CODES = new Set([8, 10, 14]);
/** A broken connection is reopened at most this often. */
export const REOPEN_INTERVAL_MS = 1_000;

function primaryCode(error: unknown): number | undefined {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' ? errcode & 0xff : undefined;
}

/** Whether `error` (or the error it wraps) is SQLITE_BUSY: another connection holds the write lock. */
export function isBusy(error: unknown): boolean {
  return primaryCode(error) === 5 || primaryCode((error as { cause?: unknown } | null)?.cause) === 5;
}

export function mapSqliteError(error: unknown): unknown {
  const code = primaryCode(error);
  if (code !== undefined && UNAVAILABLE_CODES.has(code)) {
    return new StorageUnavailableError(`database unavailable: ${(error as Error).message}`, { cause: error });
  }
  // The directory cannot be created: permissions or a read-only file system, which may be fixed.
  const systemCode = (error as { code?: unknown } | null)?.code;
  if (systemCode === 'EACCES' || systemCode === 'EROFS' || systemCode === 'ENOSPC') {
    return new StorageUnavailableError(`database unavailable: ${(error as Error).message}`, { cause: error });
  }
  return error;
}

type Values = SQLOutputValue[];

/** A statement, whose rows come as arrays of values, and how one becomes a row object. */
interface Prepared {
  readonly statement: StatementSync;
  row: (values: Values) => Row;
  width: number;
}

/**
 * A statement's row object from its values, as one object literal of its columns (a later column of a
 * name wins, as in node:sqlite's own rows). node:sqlite makes each row a null-prototype object, which V8
 * keeps as a dictionary: building and reading those cost about twice what values arrays and an object
 * literal do (docs/benchmarks.md, "Management API"), for every row of every query.
 */
function rowMaker(names: readonly string[]): (values: Values) => Row {
  // A computed key, so that a column named __proto__ is a property and not the prototype.
  const key = (name: string) => (name === '__proto__' ? '["__proto__"]' : JSON.stringify(name));
  const fields = names.map((name, i) => `${key(name)}: v[${i}]`).join(', ');
  return new Function('v', `return { ${fields} };`) as (values: Values) => Row;
}

/** Reads the statement's columns (again, after a schema change) into its row maker. */
function readColumns(prepared: Pick<Prepared, 'statement'> & Partial<Prepared>): Prepared {
  const names = prepared.statement.columns().map((column) => column.name);
  return Object.assign(prepared, { row: rowMaker(names), width: names.length });
}

/**
 * `LIMIT ?` is written `LIMIT +?`: SQLite (3.53, node:sqlite's) plans with the value of a LIMIT that is a
 * bare parameter, so it prepares such a statement again at every run, which cost more than the rest of
 * a page of keys or of the audit trail; an expression of it is read at run time like any other value.
 */
const planOnceLimit = (sql: string) => sql.replace(/\bLIMIT \?(\d*)/gi, 'LIMIT +?$1');

function prepare(db: DatabaseSync, sql: string): Prepared {
  const statement = db.prepare(planOnceLimit(sql));
  statement.setReadBigInts(true);
  statement.setReturnArrays(true);
  return readColumns({ statement });
}

/**
 * One `node:sqlite` connection in WAL mode with `synchronous=FULL` (a commit is on disk when it
 * returns). Statements are prepared once and read every integer as bigint so int64 stays lossless;
 * every call maps "cannot write now" failures to StorageUnavailableError. A connection that cannot be
 * opened, or that met a read-only, I/O or cannot-open error, is (re)opened by a later call, at most
 * once per REOPEN_INTERVAL_MS: the database recovers without a restart once the cause is gone.
 */
/** WAL pages after which a commit checkpoints (docs/benchmarks.md, "Checkpoints"). */
export const WAL_AUTOCHECKPOINT_PAGES = 300;

export class SqliteDatabase {
  readonly #path: string;
  readonly #busyTimeoutMs: number;
  readonly #statements = new Map<string, Prepared>();
  #db: DatabaseSync | undefined;
  /** Why the last open failed, thrown until an open succeeds. */
  #openFailure: StorageUnavailableError | undefined;
  #broken = false;
  #closed = false;
  #nextOpenAt = 0;

  constructor(path: string, busyTimeoutMs: number) {
    this.#path = path;
    this.#busyTimeoutMs = busyTimeoutMs;
    this.#open();
  }

  get isOpen(): boolean {
    return !this.#closed;
  }

  /** How long a statement waits for another connection's write lock. */
  get busyTimeoutMs(): number {
    return this.#busyTimeoutMs;
  }

  get inTransaction(): boolean {
    return this.#db !== undefined && this.#db.isOpen && this.#db.isTransaction;
  }

  exec(sql: string): void {
    this.#guard(() => this.#connection().exec(sql));
  }

  get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return this.#guard(() => {
      const prepared = this.#statement(sql);
      const values = prepared.statement.get(...params) as Values | undefined;
      return values && this.#rowMaker(prepared, values)(values);
    });
  }

  all(sql: string, ...params: SQLInputValue[]): Row[] {
    return this.#guard(() => {
      const prepared = this.#statement(sql);
      const rows = prepared.statement.all(...params) as unknown as Values[];
      return rows.length === 0 ? [] : rows.map(this.#rowMaker(prepared, rows[0]!));
    });
  }

  /** Runs an INSERT of one row and returns the row's id (its INTEGER PRIMARY KEY). */
  insert(sql: string, ...params: SQLInputValue[]): bigint {
    return this.#guard(() => BigInt(this.#statement(sql).statement.run(...params).lastInsertRowid));
  }

  /** Runs a write and returns how many rows it changed. */
  run(sql: string, ...params: SQLInputValue[]): number {
    return this.#guard(() => Number(this.#statement(sql).statement.run(...params).changes));
  }

  /** Runs `work` in a write transaction, committing on success and rolling back on any error. */
  transaction<T>(work: () => T): T {
    this.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.exec('COMMIT');
      return result;
    } catch (error) {
      this.rollback();
      throw error;
    }
  }

  /**
   * A transaction whose commit does not wait for the disk (`synchronous = NORMAL` for it alone): in WAL
   * mode it survives a crash of the process, and reaches the disk with the next durable commit or
   * checkpoint; only a power failure before then can lose it. For rows that are a record of what
   * happened (the request log), never for acknowledged writes.
   */
  relaxedTransaction<T>(work: () => T): T {
    this.exec('PRAGMA synchronous = NORMAL');
    try {
      return this.transaction(work);
    } finally {
      try {
        this.#db?.exec('PRAGMA synchronous = FULL');
      } catch {
        // A connection that failed is reopened with synchronous = FULL anyway.
      }
    }
  }

  /** `work` with the wait for another process's write lock shortened to `busyTimeoutMs`. */
  withBusyTimeout<T>(busyTimeoutMs: number, work: () => T): T {
    this.exec(`PRAGMA busy_timeout = ${Math.trunc(busyTimeoutMs)}`);
    try {
      return work();
    } finally {
      try {
        this.#db?.exec(`PRAGMA busy_timeout = ${this.#busyTimeoutMs}`);
      } catch {
        // A connection that failed is reopened with the default timeout anyway.
      }
    }
  }

  rollback(): void {
    if (!this.inTransaction) return;
    try {
      this.#db!.exec('ROLLBACK');
    } catch {
      // SQLite may already have rolled back on its own (I/O error, disk full); nothing more to undo.
    }
  }

  close(): void {
    this.#closed = true;
    this.#db?.close();
    this.#db = undefined;
  }

  #open(): void {
    this.#nextOpenAt = performance.now() + REOPEN_INTERVAL_MS;
    let db: DatabaseSync | undefined;
    try {
      if (this.#path !== ':memory:') mkdirSync(dirname(this.#path), { recursive: true });
      db = new DatabaseSync(this.#path, { timeout: this.#busyTimeoutMs, enableForeignKeyConstraints: true });
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
      // A checkpoint runs inside the commit that crosses this many WAL pages and holds the event loop
      // for all of them: SQLite's 1,000 stalled it about 10 ms every 25 request-log batches, which made
      // most of get's p99. 300 pages: p99 12.1 -> 9.5 ms, throughput unchanged; 100 cost creates 7 %.
      db.exec(`PRAGMA wal_autocheckpoint = ${WAL_AUTOCHECKPOINT_PAGES}`);
      this.#db = db;
      this.#openFailure = undefined;
      this.#broken = false;
    } catch (error) {
      if (db?.isOpen) db.close();
      const mapped = mapSqliteError(error);
      if (!(mapped instanceof StorageUnavailableError)) throw mapped;
      this.#openFailure = mapped;
    }
  }

  /** The connection to use now: reopened first when it is missing or broken and the interval allows. */
  #connection(): DatabaseSync {
    if (this.#closed) throw new StorageUnavailableError('database unavailable: the connection is closed');
    const due = performance.now() >= this.#nextOpenAt;
    if (this.#db === undefined) {
      if (due) this.#open();
      if (this.#db === undefined) throw this.#openFailure!;
    } else if (this.#broken && due && !this.#db.isTransaction) {
      this.#db.close();
      this.#db = undefined;
      this.#statements.clear();
      this.#open();
      if (this.#db === undefined) throw this.#openFailure!;
    }
    return this.#db;
  }

  #guard<T>(work: () => T): T {
    try {
      return work();
    } catch (error) {
      const code = primaryCode(error);
      if (code !== undefined && REOPEN_CODES.has(code)) this.#broken = true;
      throw mapSqliteError(error);
    }
  }

  #statement(sql: string): Prepared {
    const db = this.#connection();
    let prepared = this.#statements.get(sql);
    if (!prepared) {
      prepared = prepare(db, sql);
      this.#statements.set(sql, prepared);
    }
    return prepared;
  }

  /**
   * The statement's row maker, made again when its rows have another width than when it was prepared:
   * SQLite prepares a statement again after a schema change, and `*` may then name other columns.
   */
  #rowMaker(prepared: Prepared, values: Values): (values: Values) => Row {
    return values.length === prepared.width ? prepared.row : readColumns(prepared).row;
  }
}
