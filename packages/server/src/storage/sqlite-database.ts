import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { StorageUnavailableError } from './errors.ts';
import type { Row } from './rows.ts';

/** Primary result codes meaning "cannot read or write now": busy, locked, read-only, I/O, full, cannot open, protocol. */
const UNAVAILABLE_CODES = new Set([5, 6, 8, 10, 13, 14, 15]);

export function mapSqliteError(error: unknown): unknown {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  if (typeof errcode === 'number' && UNAVAILABLE_CODES.has(errcode & 0xff)) {
    return new StorageUnavailableError(`database unavailable: ${(error as Error).message}`, { cause: error });
  }
  return error;
}

function guard<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw mapSqliteError(error);
  }
}

/**
 * One `node:sqlite` connection in WAL mode with `synchronous=FULL` (a commit is on disk when it
 * returns). Statements are prepared once and read every integer as bigint so int64 stays lossless;
 * every call maps "cannot write now" failures to StorageUnavailableError.
 */
export class SqliteDatabase {
  readonly #db: DatabaseSync;
  readonly #statements = new Map<string, StatementSync>();

  constructor(path: string, busyTimeoutMs: number) {
    this.#db = guard(() => {
      if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
      const db = new DatabaseSync(path, { timeout: busyTimeoutMs, enableForeignKeyConstraints: true });
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;');
      return db;
    });
  }

  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  get inTransaction(): boolean {
    return this.#db.isOpen && this.#db.isTransaction;
  }

  exec(sql: string): void {
    guard(() => this.#db.exec(sql));
  }

  get(sql: string, ...params: SQLInputValue[]): Row | undefined {
    return guard(() => this.#statement(sql).get(...params));
  }

  all(sql: string, ...params: SQLInputValue[]): Row[] {
    return guard(() => this.#statement(sql).all(...params));
  }

  /** Runs a write and returns how many rows it changed. */
  run(sql: string, ...params: SQLInputValue[]): number {
    return guard(() => Number(this.#statement(sql).run(...params).changes));
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

  rollback(): void {
    if (!this.inTransaction) return;
    try {
      this.#db.exec('ROLLBACK');
    } catch {
      // SQLite may already have rolled back on its own (I/O error, disk full); nothing more to undo.
    }
  }

  close(): void {
    this.#db.close();
  }

  #statement(sql: string): StatementSync {
    let statement = this.#statements.get(sql);
    if (!statement) {
      statement = this.#db.prepare(sql);
      statement.setReadBigInts(true);
      this.#statements.set(sql, statement);
    }
    return statement;
  }
}
