import type { SqliteDatabase } from './sqlite-database.ts';
import type { SqlExecutor, Transactions } from './sql-executor.ts';

/**
 * The application services' transactions on SQLite's one connection, one at a time: each waits for
 * the one before it to end, then runs `BEGIN IMMEDIATE`, its work and `COMMIT` (or `ROLLBACK` when the
 * work throws). The work's statements are synchronous underneath, so while it awaits only its
 * executor no other request's turn of the event loop runs inside the transaction.
 */
export function serialTransactions(
  db: SqliteDatabase,
  sql: SqlExecutor,
  committed: () => void,
): Transactions['transaction'] {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> => {
    const run = async (): Promise<T> => {
      db.exec('BEGIN IMMEDIATE');
      try {
        const result = await work(sql);
        db.exec('COMMIT');
        committed();
        return result;
      } catch (error) {
        db.rollback();
        throw error;
      }
    };
    const result = tail.then(run, run);
    tail = result.catch(() => undefined);
    return result;
  };
}
