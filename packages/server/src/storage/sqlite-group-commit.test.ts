import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CreateOptions, CreateResult, NewPet } from './records.ts';
import { SqliteConnection } from './sqlite-connection.ts';
import type { SqliteDatabase } from './sqlite-database.ts';
import { GroupCommit } from './sqlite-group-commit.ts';

function recordingDatabase(log: string[], failOn?: string): SqliteDatabase & { inTransaction: boolean } {
  return {
    inTransaction: true,
    exec(sql: string) {
      log.push(sql);
      if (sql === failOn) throw new Error(`${sql} failed`);
    },
    rollback() {
      log.push('ROLLBACK');
    },
  } as unknown as SqliteDatabase & { inTransaction: boolean };
}

function created(_db: SqliteDatabase, pet: NewPet): CreateResult {
  return { kind: 'created', pet: { ...pet, id: 1n } };
}

const pet = (name: string): NewPet => ({ name, categoryId: 1n });

/** A create that throws for the pet named `name` and creates every other. */
const failingFor =
  (name: string) =>
  (db: SqliteDatabase, input: NewPet): CreateResult => {
    if (input.name === name) throw new Error(`${name} pet`);
    return created(db, input);
  };

const withKey = (key: string): CreateOptions => ({
  idempotency: { apiKeyId: 'k1', key, requestHash: 'h', createdAt: 0, expiresAt: 1 },
});

describe('GroupCommit', () => {
  it('creates submitted together share one transaction; only those with an idempotency key take a savepoint', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(new SqliteConnection(recordingDatabase(log)), { create: created });
    await Promise.all([
      writes.submit(pet('a'), undefined),
      writes.submit(pet('b'), withKey('x')),
      writes.submit(pet('c'), undefined),
    ]);
    assert.deepEqual(log, ['BEGIN IMMEDIATE', 'SAVEPOINT pet_create', 'RELEASE pet_create', 'COMMIT']);
  });

  it('a full queue is flushed at once, the rest on the next turn', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(new SqliteConnection(recordingDatabase(log)), {
      create: created,
      maxBatch: 3,
    });
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => writes.submit(pet(name), undefined)));
    assert.equal(log.filter((sql) => sql === 'COMMIT').length, 2);
  });

  it('promises settle only after COMMIT returns', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(new SqliteConnection(recordingDatabase(log)), {
      create: (db, input) => {
        log.push(`create ${input.name}`);
        return created(db, input);
      },
    });
    await writes.submit(pet('a'), undefined).then(() => log.push('resolved'));
    assert.deepEqual(log.slice(-2), ['COMMIT', 'resolved']);
  });

  it('a create with an idempotency key that throws is rolled back to its savepoint and rejects alone', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(new SqliteConnection(recordingDatabase(log)), {
      create: failingFor('bad'),
    });
    const results = await Promise.allSettled([
      writes.submit(pet('bad'), withKey('x')),
      writes.submit(pet('ok'), undefined),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'fulfilled'],
    );
    assert.deepEqual(log, [
      'BEGIN IMMEDIATE',
      'SAVEPOINT pet_create',
      'ROLLBACK TO pet_create',
      'RELEASE pet_create',
      'COMMIT',
    ]);
  });

  it('an idempotency conflict is rolled back to its savepoint and resolves alone', async () => {
    const log: string[] = [];
    const existing = { apiKeyId: 'k1', key: 'x', requestHash: 'h', petId: 1n, createdAt: 0, expiresAt: 1 };
    const writes = new GroupCommit(new SqliteConnection(recordingDatabase(log)), {
      create: () => ({ kind: 'idempotency_conflict', existing }),
    });
    const result = await writes.submit(pet('a'), withKey('x'));
    assert.equal(result.kind, 'idempotency_conflict');
    assert.deepEqual(log.slice(1, 4), [
      'SAVEPOINT pet_create',
      'ROLLBACK TO pet_create',
      'RELEASE pet_create',
    ]);
  });

  it('a create without a key that throws (one statement, undone by SQLite) rejects alone', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(new SqliteConnection(recordingDatabase(log)), {
      create: failingFor('bad'),
    });
    const results = await Promise.allSettled([
      writes.submit(pet('ok'), undefined),
      writes.submit(pet('bad'), undefined),
      writes.submit(pet('ok too'), undefined),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(log, ['BEGIN IMMEDIATE', 'COMMIT']);
  });

  it('a create whose error ended the transaction fails the whole batch and runs no more creates', async () => {
    const log: string[] = [];
    const db = recordingDatabase(log);
    const writes = new GroupCommit(new SqliteConnection(db), {
      create: (_db, input) => {
        log.push(`create ${input.name}`);
        if (input.name === 'disk full') {
          db.inTransaction = false;
          throw new Error('database or disk is full');
        }
        return created(db, input);
      },
    });
    const results = await Promise.allSettled(
      ['a', 'disk full', 'c'].map((name) => writes.submit(pet(name), undefined)),
    );
    assert.ok(
      results.every((result) => result.status === 'rejected' && /disk is full/.test(String(result.reason))),
    );
    assert.deepEqual(log, ['BEGIN IMMEDIATE', 'create a', 'create disk full', 'ROLLBACK']);
  });

  it('a failed COMMIT rolls back and rejects the whole batch with its error', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(new SqliteConnection(recordingDatabase(log, 'COMMIT')), {
      create: created,
    });
    const results = await Promise.allSettled([
      writes.submit(pet('a'), undefined),
      writes.submit(pet('b'), undefined),
    ]);
    assert.ok(
      results.every((result) => result.status === 'rejected' && /COMMIT failed/.test(String(result.reason))),
    );
    assert.equal(log.at(-1), 'ROLLBACK');
  });

  it('a BEGIN that fails rejects the whole batch without running any create', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(new SqliteConnection(recordingDatabase(log, 'BEGIN IMMEDIATE')), {
      create: created,
    });
    await assert.rejects(writes.submit(pet('a'), undefined), /BEGIN IMMEDIATE failed/);
    assert.deepEqual(log, ['BEGIN IMMEDIATE']);
  });
});

describe('GroupCommit on SQLite', () => {
  it('a failing INSERT without a savepoint leaves no row, and the creates around it commit', async () => {
    const { SqliteDatabase } = await import('./sqlite-database.ts');
    const db = new SqliteDatabase(':memory:', 1_000);
    db.exec(
      "CREATE TABLE pets (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL CHECK (name <> 'bad'))",
    );
    const writes = new GroupCommit(new SqliteConnection(db), {
      create: (_db, input) => ({
        kind: 'created',
        pet: { ...input, id: db.insert('INSERT INTO pets (name) VALUES (?)', input.name) },
      }),
    });
    const results = await Promise.allSettled(
      ['a', 'bad', 'c'].map((name) => writes.submit(pet(name), undefined)),
    );
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(
      db.all('SELECT id, name FROM pets ORDER BY id').map((row) => [row.id, row.name]),
      [
        [1n, 'a'],
        [2n, 'c'],
      ],
    );
    db.close();
  });
});
