import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createPetGroupCommit, type PetBatchWriter } from './pet-group-commit.ts';
import type { NewPet, Pet } from '../../storage/records.ts';

class Outage extends Error {}

/** A writer that records each statement and answers when the test says, like a slow database. */
function fakeWriter(options: { refuse?: (pet: NewPet) => boolean } = {}) {
  let nextId = 1n;
  const batches: NewPet[][] = [];
  const pending: (() => void)[] = [];
  const store = (pet: NewPet): Pet => {
    if (options.refuse?.(pet)) throw new Error(`refused ${pet.name}`);
    return { ...pet, id: nextId++ };
  };
  const writer: PetBatchWriter = {
    insertMany: (pets) => {
      batches.push(pets);
      return new Promise((resolve, reject) =>
        pending.push(() => {
          try {
            // All or nothing, and in reverse: callers must not rely on the order of the rows.
            resolve(pets.map(store).reverse());
          } catch (error) {
            reject(error);
          }
        }),
      );
    },
    insertOne: async (pet) => store(pet),
    isUnavailable: (error) => error instanceof Outage,
  };
  return {
    writer,
    batches,
    async answer() {
      await nextTurn();
      pending.splice(0).forEach((run) => run());
    },
    failNext(error: Error) {
      writer.insertMany = async (pets) => {
        batches.push(pets);
        throw error;
      };
    },
  };
}

const pet = (name: string): NewPet => ({ name, categoryId: 1n });

describe('createPetGroupCommit', () => {
  it('creates in one event-loop turn → one statement; each caller gets its own pet', async () => {
    const db = fakeWriter();
    const create = createPetGroupCommit(db.writer);
    const created = Promise.all(['a', 'b', 'c'].map((name) => create(pet(name))));
    await db.answer();
    const pets = await created;
    assert.equal(db.batches.length, 1);
    assert.deepEqual(
      pets.map((p) => p.name),
      ['a', 'b', 'c'],
    );
    assert.equal(new Set(pets.map((p) => p.id)).size, 3);
  });

  it('creates arriving while a batch is written → wait for it, then share the next one', async () => {
    const db = fakeWriter();
    const create = createPetGroupCommit(db.writer);
    const first = create(pet('first'));
    await nextTurn();
    const later = Promise.all([create(pet('x')), create(pet('y'))]);
    await nextTurn();
    assert.equal(db.batches.length, 1, 'one batch at a time');
    await db.answer();
    assert.equal((await first).name, 'first');
    await db.answer();
    assert.deepEqual(
      db.batches.map((batch) => batch.map((p) => p.name)),
      [['first'], ['x', 'y']],
    );
    assert.deepEqual(
      (await later).map((p) => p.name),
      ['x', 'y'],
    );
  });

  it('equal pets in one batch → each caller gets a pet of its own', async () => {
    const db = fakeWriter();
    const create = createPetGroupCommit(db.writer);
    const created = Promise.all([create(pet('twin')), create(pet('twin'))]);
    await db.answer();
    const [one, two] = await created;
    assert.notEqual(one!.id, two!.id);
  });

  it('rows that do not match the pets (one missing, one altered) → those callers fail, the others get theirs', async () => {
    let nextId = 1n;
    const create = createPetGroupCommit({
      insertMany: async (pets) =>
        pets.slice(0, -1).map((one, i) => ({ ...one, name: i === 1 ? 'Changed' : one.name, id: nextId++ })),
      insertOne: async () => assert.fail('no pet is retried alone'),
      isUnavailable: () => false,
    });
    const results = await Promise.allSettled(['Rex', 'Rex', 'Rex', 'Tom'].map((name) => create(pet(name))));
    assert.deepEqual(
      results.map((result) =>
        result.status === 'fulfilled' ? `${result.value.name} ${result.value.id}` : result.reason.message,
      ),
      [
        'Rex 1',
        'Rex 3',
        'a batch insert returned rows that do not match its pets',
        'a batch insert returned rows that do not match its pets',
      ],
    );
  });

  it('a batch failing on one pet → retried pet by pet: that pet fails alone', async () => {
    const db = fakeWriter({ refuse: (p) => p.name === 'bad' });
    const create = createPetGroupCommit(db.writer);
    const results = Promise.allSettled([create(pet('a')), create(pet('bad')), create(pet('c'))]);
    await db.answer();
    assert.deepEqual(
      (await results).map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
  });

  it('an outage → every create of the batch rejects at once, nothing retried', async () => {
    const db = fakeWriter();
    const create = createPetGroupCommit(db.writer);
    db.failNext(new Outage('database unavailable'));
    const results = await Promise.allSettled([create(pet('a')), create(pet('b'))]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected'],
    );
    assert.equal(db.batches.length, 1);
  });

  it('more creates than a batch holds → several statements, each within the limit', async () => {
    const db = fakeWriter();
    const create = createPetGroupCommit(db.writer, 2);
    const created = Promise.all(['a', 'b', 'c', 'd', 'e'].map((name) => create(pet(name))));
    for (let i = 0; i < 3; i++) await db.answer();
    assert.equal((await created).length, 5);
    assert.deepEqual(
      db.batches.map((batch) => batch.length),
      [2, 2, 1],
    );
  });
});
