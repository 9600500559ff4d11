import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { CreateResult, NewPet } from './records.ts';
import type { SqliteDatabase } from './sqlite-database.ts';
import { GroupCommit } from './sqlite-group-commit.ts';

function recordingDatabase(log: string[], failOn?: string): SqliteDatabase {
  return {
    exec(sql: string) {
      log.push(sql);
      if (sql === failOn) throw new Error(`${sql} failed`);
    },
    rollback() {
      log.push('ROLLBACK');
    },
  } as unknown as SqliteDatabase;
}

function created(pet: NewPet): CreateResult {
  return { kind: 'created', pet: { ...pet, id: 1n } };
}

const pet = (name: string): NewPet => ({ name, categoryId: 1n });

describe('GroupCommit', () => {
  it('creates submitted together share one transaction, each in its own savepoint', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(recordingDatabase(log), { create: created });
    await Promise.all([writes.submit(pet('a'), undefined), writes.submit(pet('b'), undefined)]);
    assert.deepEqual(log, [
      'BEGIN IMMEDIATE',
      'SAVEPOINT pet_create',
      'RELEASE pet_create',
      'SAVEPOINT pet_create',
      'RELEASE pet_create',
      'COMMIT',
    ]);
  });

  it('a full queue is flushed at once, the rest on the next turn', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(recordingDatabase(log), { create: created, maxBatch: 3 });
    await Promise.all(['a', 'b', 'c', 'd'].map((name) => writes.submit(pet(name), undefined)));
    assert.equal(log.filter((sql) => sql === 'COMMIT').length, 2);
  });

  it('promises settle only after COMMIT returns', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(recordingDatabase(log), {
      create: (input) => {
        log.push(`create ${input.name}`);
        return created(input);
      },
    });
    await writes.submit(pet('a'), undefined).then(() => log.push('resolved'));
    assert.deepEqual(log.slice(-2), ['COMMIT', 'resolved']);
  });

  it('a create that throws is rolled back to its savepoint and rejects alone', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(recordingDatabase(log), {
      create: (input) => {
        if (input.name === 'bad') throw new Error('bad pet');
        return created(input);
      },
    });
    const results = await Promise.allSettled([
      writes.submit(pet('bad'), undefined),
      writes.submit(pet('ok'), undefined),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'fulfilled'],
    );
    assert.deepEqual(log.slice(1, 4), [
      'SAVEPOINT pet_create',
      'ROLLBACK TO pet_create',
      'RELEASE pet_create',
    ]);
  });

  it('a failed COMMIT rolls back and rejects the whole batch with its error', async () => {
    const log: string[] = [];
    const writes = new GroupCommit(recordingDatabase(log, 'COMMIT'), { create: created });
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
    const writes = new GroupCommit(recordingDatabase(log, 'BEGIN IMMEDIATE'), { create: created });
    await assert.rejects(writes.submit(pet('a'), undefined), /BEGIN IMMEDIATE failed/);
    assert.deepEqual(log, ['BEGIN IMMEDIATE']);
  });
});
