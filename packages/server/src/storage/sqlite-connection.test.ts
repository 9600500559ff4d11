import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { StorageUnavailableError } from './errors.ts';
import { type ConnectionLimits, SqliteConnection } from './sqlite-connection.ts';
import { TransactionTimeoutError } from './sqlite-transaction.ts';
import { SqliteDatabase } from './sqlite-database.ts';
import type { SqlExecutor } from './sql-executor.ts';
import { ReachedPastTransactionError } from './transaction-context.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-connection-'));
after(() => rmSync(dir, { recursive: true, force: true }));

let files = 0;
function connection(
  limits: ConnectionLimits = {},
  path = join(dir, `c${files++}.db`),
  busyTimeoutMs = 5_000,
) {
  const db = new SqliteDatabase(path, busyTimeoutMs);
  db.exec('CREATE TABLE IF NOT EXISTS t (v INTEGER)');
  return new SqliteConnection(db, limits);
}

const values = async (sql: SqlExecutor) =>
  (await sql.all('SELECT v FROM t ORDER BY v')).map((row) => Number(row.v));

/** A promise and its resolve, to hold a transaction's work open exactly as long as a test wants. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('SqliteConnection', () => {
  it('a statement with the connection free → runs at once, in the caller’s turn', async () => {
    const db = connection();
    let ran = false;
    const done = db.turn(() => (ran = true));
    assert.equal(ran, true);
    await done;
    await db.close();
  });

  it('a write started while a transaction awaits between statements → waits for it, and its rollback does not undo the write', async () => {
    const db = connection();
    const held = gate();
    const refused = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (v) VALUES (1)');
      await held.opened;
      throw new Error('refused after its first statement');
    });
    await new Promise((resolve) => setImmediate(resolve));
    let written = false;
    const write = db.sql.run('INSERT INTO t (v) VALUES (2)').then(() => (written = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(written, false, 'the write waits while the transaction is open');
    held.open();
    await assert.rejects(refused, /refused after its first statement/);
    await write;
    assert.deepEqual(await values(db.sql), [2]);
    await db.close();
  });

  it('a read while a transaction is open → waits, and never sees the transaction’s uncommitted rows', async () => {
    const db = connection();
    const held = gate();
    const committing = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (v) VALUES (1)');
      await held.opened;
      await tx.run('INSERT INTO t (v) VALUES (2)');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const read = values(db.sql);
    held.open();
    await committing;
    assert.deepEqual(await read, [1, 2], 'read after the commit, whole');
    await db.close();
  });

  it('a statement through the connection’s executor inside a transaction → ReachedPastTransactionError at once, not a deadlock', async () => {
    const db = connection();
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (v) VALUES (1)');
      await assert.rejects(db.sql.run('INSERT INTO t (v) VALUES (2)'), ReachedPastTransactionError);
      await assert.rejects(
        db.transaction(async () => undefined),
        ReachedPastTransactionError,
      );
      await assert.rejects(
        db.turn(() => undefined),
        ReachedPastTransactionError,
      );
    });
    assert.deepEqual(await values(db.sql), [1]);
    await db.close();
  });

  it('work scheduled from a transaction that runs after it ended → not taken for reaching past', async () => {
    const db = connection();
    let later: Promise<number> | undefined;
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (v) VALUES (1)');
      later = new Promise((resolve) => setTimeout(resolve, 1)).then(() =>
        db.sql.run('INSERT INTO t (v) VALUES (2)'),
      );
    });
    await later;
    assert.deepEqual(await values(db.sql), [1, 2]);
    await db.close();
  });

  it('a transaction’s executor after the transaction ended → refuses', async () => {
    const db = connection();
    let leaked: SqlExecutor | undefined;
    await db.transaction(async (tx) => {
      leaked = tx;
    });
    await assert.rejects(leaked!.run('INSERT INTO t (v) VALUES (1)'), /transaction has ended/);
    assert.deepEqual(await values(db.sql), []);
    await db.close();
  });

  it('more turns than the bound waiting → the next is refused as unavailable at once; those waiting run', async () => {
    const db = connection({ waiting: 2 });
    const held = gate();
    const holding = db.transaction(() => held.opened);
    await new Promise((resolve) => setImmediate(resolve));
    const waiting = [db.sql.run('INSERT INTO t (v) VALUES (1)'), db.sql.run('INSERT INTO t (v) VALUES (2)')];
    await assert.rejects(db.sql.run('INSERT INTO t (v) VALUES (3)'), StorageUnavailableError);
    await assert.rejects(
      db.transaction(async () => undefined),
      StorageUnavailableError,
    );
    held.open();
    await holding;
    await Promise.all(waiting);
    assert.deepEqual(await values(db.sql), [1, 2]);
    await db.close();
  });

  it('a transaction held past its limit → rolled back, its caller told unavailable before its work ends, the next in line runs', async () => {
    const db = connection({ transactionMs: 50 });
    const held = gate();
    let late: Promise<number> | undefined;
    const slow = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (v) VALUES (1)');
      await held.opened;
      late = tx.run('INSERT INTO t (v) VALUES (3)');
      return late;
    });
    await new Promise((resolve) => setImmediate(resolve));
    const next = db.sql.run('INSERT INTO t (v) VALUES (2)');
    await assert.rejects(slow, TransactionTimeoutError);
    await next;
    assert.deepEqual(await values(db.sql), [2]);
    held.open();
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(late!, TransactionTimeoutError);
    assert.deepEqual(await values(db.sql), [2]);
    assert.ok(new TransactionTimeoutError(50) instanceof StorageUnavailableError);
    await db.close();
  });

  it('a transaction whose event loop is blocked past its limit → still commits: the limit counts only time the loop was free', async () => {
    const db = connection({ transactionMs: 50 });
    await db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (v) VALUES (1)');
      await new Promise((resolve) => setImmediate(resolve));
      const blockedUntil = performance.now() + 200;
      while (performance.now() < blockedUntil);
      await new Promise((resolve) => setImmediate(resolve));
      await tx.run('INSERT INTO t (v) VALUES (2)');
    });
    assert.deepEqual(await values(db.sql), [1, 2]);
    await db.close();
  });

  it('close while a transaction is open → closes after it commits', async () => {
    const db = connection();
    const held = gate();
    const committing = db.transaction(async (tx) => {
      await held.opened;
      await tx.run('INSERT INTO t (v) VALUES (1)');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const closing = db.close();
    held.open();
    await committing;
    await closing;
    assert.equal(db.isOpen, false);
  });

  it('two connections of one process, transactions started in one turn → both commit: neither waits for the lock on the event loop', async () => {
    const path = join(dir, 'two.db');
    // A busy timeout far longer than the test: a wait on the event loop would hold it that long and fail.
    const [a, b] = [connection({}, path, 60_000), connection({}, path, 60_000)];
    const write = (value: number) => async (sql: SqlExecutor) => {
      await sql.run('INSERT INTO t (v) VALUES ($1)', [value]);
      await sql.run('INSERT INTO t (v) VALUES ($1)', [value]);
    };
    await Promise.all([a.transaction(write(1)), b.transaction(write(2)), a.transaction(write(3))]);
    assert.deepEqual(await values(a.sql), [1, 1, 2, 2, 3, 3]);
    await a.close();
    await b.close();
  });

  it('a connection whose lock stays taken past its busy timeout → the transaction fails as unavailable, nothing written', async () => {
    const path = join(dir, 'held.db');
    const [holder, waiter] = [connection({}, path, 60_000), connection({}, path, 50)];
    const held = gate();
    const holding = holder.transaction(() => held.opened);
    await new Promise((resolve) => setImmediate(resolve));
    await assert.rejects(
      waiter.transaction((sql) => sql.run('INSERT INTO t (v) VALUES (1)')),
      /database unavailable/,
    );
    held.open();
    await holding;
    assert.deepEqual(await values(waiter.sql), []);
    await holder.close();
    await waiter.close();
  });
});
