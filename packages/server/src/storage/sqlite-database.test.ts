import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SqliteDatabase } from './sqlite-database.ts';

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
