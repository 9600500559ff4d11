import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteDatabase, WAL_AUTOCHECKPOINT_PAGES } from './sqlite-database.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-sqlite-database-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const FULL = 2;
const synchronous = (db: SqliteDatabase) => Number(db.get('PRAGMA synchronous')!.synchronous);

test('relaxedTransaction commits its work and puts synchronous back to FULL', () => {
  const db = new SqliteDatabase(join(dir, 'relaxed.db'), 1_000);
  db.exec('CREATE TABLE t (v INTEGER)');
  assert.equal(synchronous(db), FULL);
  db.relaxedTransaction(() => db.run('INSERT INTO t (v) VALUES (1)'));
  assert.equal(db.get('SELECT count(*) AS n FROM t')!.n, 1n);
  assert.equal(synchronous(db), FULL);
  db.close();
});

test('relaxedTransaction that fails rolls back and still puts synchronous back to FULL', () => {
  const db = new SqliteDatabase(join(dir, 'relaxed-failing.db'), 1_000);
  db.exec('CREATE TABLE t (v INTEGER)');
  assert.throws(() =>
    db.relaxedTransaction(() => {
      db.run('INSERT INTO t (v) VALUES (1)');
      throw new Error('boom');
    }),
  );
  assert.equal(db.get('SELECT count(*) AS n FROM t')!.n, 0n);
  assert.equal(synchronous(db), FULL);
  assert.equal(db.inTransaction, false);
  db.close();
});

test('a commit checkpoints once the WAL holds WAL_AUTOCHECKPOINT_PAGES pages, so the WAL stays that small', () => {
  const path = join(dir, 'checkpoints.db');
  const db = new SqliteDatabase(path, 1_000);
  assert.equal(Number(db.get('PRAGMA wal_autocheckpoint')!.wal_autocheckpoint), WAL_AUTOCHECKPOINT_PAGES);
  db.exec('CREATE TABLE t (v BLOB)');
  const pageSize = Number(db.get('PRAGMA page_size')!.page_size);
  // Each commit adds a page and a half of rows: ten times the threshold in all.
  for (let i = 0; i < (WAL_AUTOCHECKPOINT_PAGES * 10) / 1.5; i++)
    db.transaction(() => db.run('INSERT INTO t (v) VALUES (randomblob(?))', pageSize * 1.5));
  const walPages = statSync(`${path}-wal`).size / (pageSize + 24);
  assert.ok(walPages < WAL_AUTOCHECKPOINT_PAGES + 10, `WAL of ${Math.round(walPages)} pages`);
  assert.ok(walPages >= WAL_AUTOCHECKPOINT_PAGES - 10, `WAL of ${Math.round(walPages)} pages`);
  db.close();
});

test('a row is an object of its columns by name, integers as bigint, a later column of a name winning', () => {
  const db = new SqliteDatabase(join(dir, 'rows.db'), 1_000);
  db.exec(
    "CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, data BLOB, score REAL); INSERT INTO t VALUES (9007199254740993, 'a', x'01', 1.5), (2, NULL, NULL, NULL)",
  );
  assert.deepEqual(db.all('SELECT * FROM t ORDER BY id'), [
    { id: 2n, name: null, data: null, score: null },
    { id: 9007199254740993n, name: 'a', data: new Uint8Array([1]), score: 1.5 },
  ]);
  assert.deepEqual(db.get('SELECT id, name, 7 AS name FROM t WHERE id = ?', 2), { id: 2n, name: 7n });
  assert.equal(db.get('SELECT id FROM t WHERE id = ?', 3), undefined);
  assert.deepEqual(db.all('SELECT id FROM t WHERE id = ?', 3), []);
  db.close();
});

test('a column named __proto__ is a property of the row, not its prototype', () => {
  const db = new SqliteDatabase(join(dir, 'proto.db'), 1_000);
  const row = db.get('SELECT 1 AS "__proto__", 2 AS constructor')!;
  assert.equal(Object.getPrototypeOf(row), Object.prototype);
  assert.deepEqual(Object.entries(row), [
    ['__proto__', 1n],
    ['constructor', 2n],
  ]);
  db.close();
});

test('a statement read before a column was added reads the new column after', () => {
  const db = new SqliteDatabase(join(dir, 'schema.db'), 1_000);
  db.exec('CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1)');
  assert.deepEqual(db.all('SELECT * FROM t'), [{ a: 1n }]);
  db.exec('ALTER TABLE t ADD COLUMN b TEXT');
  db.run("UPDATE t SET b = 'x'");
  assert.deepEqual(db.all('SELECT * FROM t'), [{ a: 1n, b: 'x' }]);
  assert.deepEqual(db.get('SELECT * FROM t'), { a: 1n, b: 'x' });
  db.close();
});

test('a LIMIT given as a parameter limits the rows, whatever its value at each run', () => {
  const db = new SqliteDatabase(join(dir, 'limit.db'), 1_000);
  db.exec('CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1), (2), (3)');
  const values = (limit: number | bigint) =>
    db.all('SELECT v FROM t ORDER BY v LIMIT ?1', limit).map((row) => row.v);
  assert.deepEqual(values(2), [1n, 2n]);
  assert.deepEqual(values(1n), [1n]);
  assert.deepEqual(values(-1), [1n, 2n, 3n]);
  assert.deepEqual(db.all('SELECT v FROM t ORDER BY v limit ?', 1), [{ v: 1n }]);
  db.close();
});
