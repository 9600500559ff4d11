import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { SQLInputValue } from 'node:sqlite';
import { SqliteDatabase } from './sqlite-database.ts';
import { sqlitePlaceholders, type SqlExecutor } from './sql-executor.ts';
import { serialTransactions } from './sqlite-transactions.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-transactions-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function connection(path: string, busyTimeoutMs: number) {
  const db = new SqliteDatabase(path, busyTimeoutMs);
  const sql: SqlExecutor = {
    all: async (text, params = []) => db.all(sqlitePlaceholders(text), ...(params as SQLInputValue[])),
    run: async (text, params = []) => db.run(sqlitePlaceholders(text), ...(params as SQLInputValue[])),
  };
  return { db, transaction: serialTransactions(db, sql, () => {}) };
}

test('two connections of one process, transactions started in one turn → both commit: neither waits for the lock on the event loop', async () => {
  const path = join(dir, 'two.db');
  // A busy timeout far longer than the test: a wait on the event loop would hold it that long and fail.
  const [a, b] = [connection(path, 60_000), connection(path, 60_000)];
  a.db.exec('CREATE TABLE t (v INTEGER)');
  const write = (value: number) => async (sql: SqlExecutor) => {
    await sql.run('INSERT INTO t (v) VALUES ($1)', [value]);
    await sql.run('INSERT INTO t (v) VALUES ($1)', [value]);
  };
  await Promise.all([a.transaction(write(1)), b.transaction(write(2)), a.transaction(write(3))]);
  assert.deepEqual(
    a.db.all('SELECT v FROM t ORDER BY v').map((row) => Number(row.v)),
    [1, 1, 2, 2, 3, 3],
  );
  a.db.close();
  b.db.close();
});

test('a connection whose lock stays taken past its busy timeout → the transaction fails as unavailable, nothing written', async () => {
  const path = join(dir, 'held.db');
  const [holder, waiter] = [connection(path, 60_000), connection(path, 50)];
  holder.db.exec('CREATE TABLE t (v INTEGER)');
  holder.db.exec('BEGIN IMMEDIATE');
  await assert.rejects(
    waiter.transaction((sql) => sql.run('INSERT INTO t (v) VALUES (1)')),
    /database unavailable/,
  );
  holder.db.exec('ROLLBACK');
  assert.equal(Number(waiter.db.get('SELECT count(*) AS n FROM t')!.n), 0);
  holder.db.close();
  waiter.db.close();
});
