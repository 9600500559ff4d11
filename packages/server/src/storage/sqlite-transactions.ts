import { setTimeout as sleep } from 'node:timers/promises';
import { isBusy, type SqliteDatabase } from './sqlite-database.ts';
import type { SqlExecutor, Transactions } from './sql-executor.ts';

/**
 * The application services' transactions on SQLite's one connection, one at a time: each waits for
 * the one before it to end, then runs `BEGIN IMMEDIATE`, its work and `COMMIT` (or `ROLLBACK` when the
 * work throws). The work's statements are synchronous underneath, so while it awaits only its
 * executor no other request's turn of the event loop runs inside the transaction.
 *
 * `BEGIN IMMEDIATE` never waits for another connection's write lock on the event loop: that connection
 * may be this process's own (several storages opened in one process, as the command line's tests do),
 * whose transaction can only end once the event loop turns. So a busy database is asked again after a
 * short sleep, doubling up to 50 ms, until the connection's busy timeout has passed.
 */
export function serialTransactions(
  db: SqliteDatabase,
  sql: SqlExecutor,
  committed: () => void,
): Transactions['transaction'] {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(work: (sql: SqlExecutor) => Promise<T>): Promise<T> => {
    const run = async (): Promise<T> => {
      await begin(db);
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

async function begin(db: SqliteDatabase): Promise<void> {
  const deadline = Date.now() + db.busyTimeoutMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    try {
      db.withBusyTimeout(0, () => db.exec('BEGIN IMMEDIATE'));
      return;
    } catch (error) {
      if (!isBusy(error) || Date.now() >= deadline) throw error;
      await sleep(wait);
    }
  }
}
