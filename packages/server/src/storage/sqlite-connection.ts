import type { SQLInputValue } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { StorageUnavailableError } from './errors.ts';
import { isBusy, type SqliteDatabase } from './sqlite-database.ts';
import { type SqlExecutor, sqlitePlaceholders } from './sql-executor.ts';
import { SqliteTransaction, TransactionTimeoutError } from './sqlite-transaction.ts';
import {
  enclosingTransaction,
  ReachedPastTransactionError,
  withinTransaction,
} from './transaction-context.ts';
import { createLoopAwareTimeout, type LoopAwareTimeout, TimeoutError } from '../time/loop-aware-timeout.ts';

/** How a transaction's work ended, kept as a value so that only the limit can reject. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: unknown };

/** Turns waiting for the connection at most; one more is refused as unavailable (503, Retry-After). */
export const WAITING_LIMIT = 1_024;
/** A transaction open this long is rolled back and the connection handed to the next in line. */
export const TRANSACTION_LIMIT_MS = 1_000;

export interface ConnectionLimits {
  /** Turns that may wait while a transaction holds the connection (default WAITING_LIMIT). */
  waiting?: number;
  /** How long a transaction may hold the connection (default TRANSACTION_LIMIT_MS). */
  transactionMs?: number;
}

/**
 * The one way to SQLite's one connection: every statement, transaction, group commit, request-log
 * batch, purge slice, migration and probe of the storage runs here, so no statement of one request can
 * ever run inside another's transaction (and be undone with it, or read what it has not committed).
 *
 * - A **turn** (`turn`, and the single statements of `sql`) is synchronous work on the connection:
 *   when no transaction holds it, it runs at once, in the caller's turn of the event loop (the hot
 *   path: one comparison more than a bare statement); otherwise it waits in line and runs as soon as
 *   the transaction ends, before anything that came after it. A read waits like a write: it never sees
 *   a transaction's rows before they are committed, and waits at most as long as the transaction.
 * - A **transaction** holds the connection from `BEGIN IMMEDIATE` to its `COMMIT` or `ROLLBACK`; its
 *   work may await between statements, and only the executor it is given runs statements meanwhile.
 *   A statement through `sql` (or another transaction) from inside its work would wait for the
 *   transaction it is part of: it is refused at once with ReachedPastTransactionError (checked only
 *   when the connection is held, so the fast path pays nothing).
 *
 * Bounds: at most `waiting` turns wait (WAITING_LIMIT); one more is refused with
 * StorageUnavailableError (503 with Retry-After). A transaction that holds the connection longer than
 * `transactionMs` (TRANSACTION_LIMIT_MS: its work awaits something slow) is rolled back, its caller
 * gets TransactionTimeoutError (a StorageUnavailableError), its executor refuses every later
 * statement, and the next in line runs. The limit counts only time in which the event loop was free
 * (loop-aware-timeout.ts): a process stalled by a long turn or by the machine never undoes a
 * transaction that was about to commit. A transaction whose work awaits only its executor ends within
 * one turn of the event loop and never meets it.
 *
 * `BEGIN IMMEDIATE` never waits for another connection's write lock on the event loop: that connection
 * may be this process's own (several storages opened in one process, as the command line's tests do),
 * whose transaction can only end once the event loop turns. A busy database is asked again after a
 * short sleep, doubling up to 50 ms, until the connection's busy timeout has passed; the connection is
 * free for others in between.
 */
export class SqliteConnection {
  readonly #db: SqliteDatabase;
  readonly #waitingLimit: number;
  readonly #transactionMs: number;
  readonly #limit: LoopAwareTimeout;
  readonly #committed: () => void;
  /** Turns and transactions' starts, first come first served; only ever non-empty while held. */
  #waiting: (() => void)[] = [];
  #holder: SqliteTransaction | undefined;

  /** The executor of single statements, each in its own turn. */
  readonly sql: SqlExecutor = {
    all: (text, params = []) =>
      this.turn((db) => db.all(sqlitePlaceholders(text), ...(params as SQLInputValue[]))),
    run: (text, params = []) =>
      this.turn((db) => db.run(sqlitePlaceholders(text), ...(params as SQLInputValue[]))),
  };

  /** `committed` is told of every transaction that commits. */
  constructor(db: SqliteDatabase, limits: ConnectionLimits = {}, committed: () => void = () => {}) {
    this.#db = db;
    this.#waitingLimit = limits.waiting ?? WAITING_LIMIT;
    this.#transactionMs = limits.transactionMs ?? TRANSACTION_LIMIT_MS;
    this.#limit = createLoopAwareTimeout(this.#transactionMs);
    this.#committed = committed;
  }

  get isOpen(): boolean {
    return this.#db.isOpen;
  }

  /** Runs `work` on the connection: at once when no transaction holds it, else in its turn. */
  turn<T>(work: (db: SqliteDatabase) => T): Promise<T> {
    if (this.#holder === undefined) {
      try {
        return Promise.resolve(work(this.#db));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    return new Promise((resolve, reject) => {
      this.#waiting.push(() => {
        try {
          resolve(work(this.#db));
        } catch (error) {
          reject(error);
        }
      });
    });
  }

  /**
   * `work` in one transaction, with the connection to itself: committed when it resolves, rolled back
   * when it throws or holds the connection past the limit.
   */
  async transaction<T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    const transaction = new SqliteTransaction(this.#db, this.#transactionMs);
    await this.#begin(transaction);
    let outcome: Outcome<T>;
    try {
      const done = withinTransaction(transaction, () => work(transaction.executor));
      outcome = await this.#limit.within(
        done.then(
          (value): Outcome<T> => ({ ok: true, value }),
          (error: unknown): Outcome<T> => ({ ok: false, error }),
        ),
        'a transaction',
      );
    } catch (error) {
      // The work threw before its first await, or held the connection past the limit.
      const expired = error instanceof TimeoutError;
      this.#end(transaction, expired ? 'expired' : 'ended', () => this.#db.rollback());
      throw expired ? new TransactionTimeoutError(this.#transactionMs) : error;
    }
    if (!outcome.ok) {
      this.#end(transaction, 'ended', () => this.#db.rollback());
      throw outcome.error;
    }
    this.#end(transaction, 'ended', () => this.#commit());
    this.#committed();
    return outcome.value;
  }

  /**
   * `PRAGMA data_version`, whatever holds the connection: it reads the connection's count of other
   * connections' commits, no row, so it is the one statement that needs no turn (the change token is
   * read synchronously on every request).
   */
  dataVersion(): number {
    return Number(this.#db.get('PRAGMA data_version')!.data_version);
  }

  /** Closes the connection in its turn, after everything already waiting; nothing is refused. */
  close(): Promise<void> {
    const close = () => this.#db.close();
    if (this.#holder === undefined) return Promise.resolve(close());
    return new Promise((resolve) => this.#waiting.push(() => resolve(close())));
  }

  #refusal(): Error | undefined {
    if (this.#holder !== undefined && enclosingTransaction() === this.#holder) {
      return new ReachedPastTransactionError();
    }
    if (this.#waiting.length >= this.#waitingLimit) {
      return new StorageUnavailableError(
        `database unavailable: ${this.#waitingLimit} statements are already waiting for the database`,
      );
    }
    return undefined;
  }

  async #begin(transaction: SqliteTransaction): Promise<void> {
    const deadline = Date.now() + this.#db.busyTimeoutMs;
    for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
      await this.#hold(transaction);
      try {
        this.#db.withBusyTimeout(0, () => this.#db.exec('BEGIN IMMEDIATE'));
        transaction.state = 'open';
        return;
      } catch (error) {
        this.#release();
        if (!isBusy(error) || Date.now() >= deadline) throw error;
      }
      await sleep(wait);
    }
  }

  /** Resolves once `transaction` holds the connection. */
  #hold(transaction: SqliteTransaction): Promise<void> {
    if (this.#holder === undefined) {
      this.#holder = transaction;
      return Promise.resolve();
    }
    const refusal = this.#refusal();
    if (refusal) return Promise.reject(refusal);
    return new Promise((resolve) => {
      this.#waiting.push(() => {
        this.#holder = transaction;
        resolve();
      });
    });
  }

  #commit(): void {
    try {
      this.#db.exec('COMMIT');
    } catch (error) {
      this.#db.rollback();
      throw error;
    }
  }

  /** Ends the transaction with `finish` (COMMIT or ROLLBACK) and hands the connection on. */
  #end(transaction: SqliteTransaction, state: 'ended' | 'expired', finish: () => void): void {
    transaction.state = state;
    try {
      finish();
    } finally {
      this.#release();
    }
  }

  /** The connection is free: the turns waiting run in order, until one of them is a transaction. */
  #release(): void {
    this.#holder = undefined;
    while (this.#holder === undefined) {
      const next = this.#waiting.shift();
      if (next === undefined) return;
      next();
    }
  }
}
