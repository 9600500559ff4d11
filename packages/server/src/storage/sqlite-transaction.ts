import type { SQLInputValue } from 'node:sqlite';
import { StorageUnavailableError } from './errors.ts';
import type { SqliteDatabase } from './sqlite-database.ts';
import { type SqlExecutor, sqlitePlaceholders } from './sql-executor.ts';
import { type OpenTransaction, TransactionEndedError } from './transaction-context.ts';

/** A transaction that held the connection past its limit: rolled back, nothing of it stored. */
export class TransactionTimeoutError extends StorageUnavailableError {
  constructor(limitMs: number) {
    super(`database unavailable: a transaction held the database longer than ${limitMs} ms and was undone`);
  }
}

type State = 'starting' | 'open' | 'ended' | 'expired';

/** One transaction on the connection; its executor runs statements only while it is open. */
export class SqliteTransaction implements OpenTransaction {
  state: State = 'starting';
  readonly executor: SqlExecutor;

  constructor(db: SqliteDatabase, limitMs: number) {
    const statement = <T>(work: () => T): Promise<T> => {
      if (this.state !== 'open') {
        return Promise.reject(
          this.state === 'expired' ? new TransactionTimeoutError(limitMs) : new TransactionEndedError(),
        );
      }
      try {
        return Promise.resolve(work());
      } catch (error) {
        return Promise.reject(error);
      }
    };
    this.executor = {
      all: (text, params = []) =>
        statement(() => db.all(sqlitePlaceholders(text), ...(params as SQLInputValue[]))),
      run: (text, params = []) =>
        statement(() => db.run(sqlitePlaceholders(text), ...(params as SQLInputValue[]))),
    };
  }

  get open(): boolean {
    return this.state === 'open';
  }
}
