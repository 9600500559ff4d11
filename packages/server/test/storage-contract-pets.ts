import assert from 'node:assert/strict';
import { it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { NewPet, Pet, PetStatus } from '../src/storage/records.ts';
import type { StorageFixture } from './storage-contract.ts';

const INT64_MIN = -9_223_372_036_854_775_808n;
const INT64_MAX = 9_223_372_036_854_775_807n;

export function petContract(fixture: () => StorageFixture): void {
  it('pets.create → created pet carries the input and an id; pets.get returns it', async () => {
    const { storage } = fixture();
    const input: NewPet = { name: 'Rex', categoryId: 7n, status: 'available' };
    const result = await storage.pets.create(input);
    assert.equal(result.kind, 'created');
    const pet = (result as { pet: Pet }).pet;
    assert.equal(typeof pet.id, 'bigint');
    assert.deepEqual(pet, { ...input, id: pet.id });
    assert.deepEqual(await storage.pets.get(pet.id), pet);
    assert.equal(await storage.pets.get(pet.id + 1_000n), undefined);
  });

  it('pets.create → ids ascend and never repeat', async () => {
    const { storage } = fixture();
    const ids: bigint[] = [];
    for (let i = 0; i < 5; i++) ids.push((await create(storage, { name: `p${i}`, categoryId: 1n })).id);
    for (let i = 1; i < ids.length; i++) assert.ok(ids[i]! > ids[i - 1]!, `${ids[i]} > ${ids[i - 1]}`);
  });

  it('pets.list → ascending ids, status filter, afterId keyset and limit', async () => {
    const { storage } = fixture();
    const statuses = ['available', 'sold', undefined, 'available', 'pending', 'available', 'sold'] as const;
    const pets: Pet[] = [];
    for (const [i, status] of statuses.entries()) {
      pets.push(await create(storage, { name: `p${i}`, categoryId: BigInt(i), ...(status && { status }) }));
    }
    assert.deepEqual(await storage.pets.list({ limit: 100 }), pets);
    assert.deepEqual(await storage.pets.list({ limit: 3 }), pets.slice(0, 3));
    const available = pets.filter((pet) => pet.status === 'available');
    assert.deepEqual(await storage.pets.list({ status: 'available', limit: 100 }), available);
    assert.deepEqual(await storage.pets.list({ status: 'available', afterId: available[0]!.id, limit: 1 }), [
      available[1],
    ]);
    assert.deepEqual(await storage.pets.list({ afterId: pets[4]!.id, limit: 100 }), pets.slice(5));
    assert.deepEqual(await storage.pets.list({ afterId: pets.at(-1)!.id, limit: 100 }), []);
    const paged: Pet[] = [];
    let afterId: bigint | undefined;
    for (;;) {
      const page = await storage.pets.list({ limit: 2, afterId });
      paged.push(...page);
      if (page.length < 2) break;
      afterId = page.at(-1)!.id;
    }
    assert.deepEqual(paged, pets);
    assert.equal(await storage.pets.count(), pets.length);
  });

  it('pets.create → int64 extremes of categoryId round-trip exactly', async () => {
    const { storage } = fixture();
    for (const categoryId of [INT64_MIN, INT64_MAX, 9_007_199_254_740_993n]) {
      const pet = await create(storage, { name: 'edge', categoryId });
      assert.equal(pet.categoryId, categoryId);
      assert.equal((await storage.pets.get(pet.id))!.categoryId, categoryId);
    }
    const listed = await storage.pets.list({ limit: 10 });
    assert.deepEqual(
      listed.map((pet) => pet.categoryId),
      [INT64_MIN, INT64_MAX, 9_007_199_254_740_993n],
    );
  });

  it('pets.create → an absent status stays absent (no status property at all)', async () => {
    const { storage } = fixture();
    const pet = await create(storage, { name: 'Nameless', categoryId: 1n });
    assert.ok(!('status' in pet));
    assert.ok(!('status' in (await storage.pets.get(pet.id))!));
    assert.ok(!('status' in (await storage.pets.list({ limit: 1 }))[0]!));
  });

  it('pets.create → names with unicode, quotes and SQL survive byte for byte', async () => {
    const { storage } = fixture();
    const name = `O'Brien "Rex" 🐶 ñ 漢字 \\ %_ ; DROP TABLE pets; --`;
    const pet = await create(storage, { name, categoryId: 1n, status: 'pending' });
    assert.equal((await storage.pets.get(pet.id))!.name, name);
  });

  it('pets.create → 200 concurrent creates get 200 distinct ids', async () => {
    const { storage } = fixture();
    const pets = await Promise.all(
      Array.from({ length: 200 }, (_, i) => create(storage, { name: `c${i}`, categoryId: BigInt(i) })),
    );
    assert.equal(new Set(pets.map((pet) => pet.id)).size, 200);
    assert.equal(await storage.pets.count(), 200);
    for (const pet of pets) assert.equal((await storage.pets.get(pet.id))!.name, pet.name);
  });

  it('pets.create from three instances at once → pets become visible in id order, never below a visible one', async () => {
    const { storage, open } = fixture();
    const writers = [storage, await open(), await open()];
    const reader = await open();
    const seen: bigint[][] = [];
    let writing = true;
    const reading = (async () => {
      while (writing) {
        seen.push((await reader.pets.list({ limit: 10_000 })).map((pet) => pet.id));
        // SQLite answers synchronously: let the writers' commits run between reads.
        await nextTurn();
      }
    })();
    try {
      // Each writer sends waves of 15 concurrent creates: 450 pets, at most 45 being written at once.
      await Promise.all(
        writers.map(async (writer, w) => {
          for (let wave = 0; wave < 10; wave++) {
            await Promise.all(
              Array.from({ length: 15 }, (_, i) =>
                create(writer, { name: `w${w}.${wave}.${i}`, categoryId: 1n }),
              ),
            );
          }
        }),
      );
    } finally {
      writing = false;
      await reading;
    }
    const all = (await reader.pets.list({ limit: 10_000 })).map((pet) => pet.id);
    assert.equal(all.length, 450);
    assert.ok(seen.length > 1, 'the reader read while pets were created');
    for (const ids of seen) {
      const newest = ids.at(-1) ?? 0n;
      assert.deepEqual(
        ids,
        all.filter((id) => id <= newest),
        `every pet up to ${newest} was visible with it`,
      );
    }
  });

  it('pets.create without idempotency → a create the database refuses fails alone among concurrent ones', async () => {
    const { storage } = fixture();
    const refused = { name: 'b', categoryId: 1n, status: 'bogus' as PetStatus };
    const results = await Promise.allSettled([
      storage.pets.create({ name: 'a', categoryId: 1n }),
      storage.pets.create(refused),
      storage.pets.create({ name: 'c', categoryId: 2n, status: 'sold' }),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(
      (await storage.pets.list({ limit: 10 })).map((pet) => pet.name),
      ['a', 'c'],
    );
  });

  it('pets.create → a failing create among concurrent ones fails alone', async () => {
    const { storage } = fixture();
    const failing = {
      idempotency: { apiKeyId: 'key_a', key: 'k', requestHash: 'h', createdAt: 0, expiresAt: 1 },
    };
    // A status the database's CHECK constraint refuses: the statement fails inside the transaction.
    const refused = { name: 'b', categoryId: 1n, status: 'bogus' as PetStatus };
    const results = await Promise.allSettled([
      storage.pets.create({ name: 'a', categoryId: 1n }),
      storage.pets.create(refused, failing),
      storage.pets.create({ name: 'c', categoryId: 1n }),
    ]);
    assert.deepEqual(
      results.map((result) => result.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    );
    assert.deepEqual(
      (await storage.pets.list({ limit: 10 })).map((pet) => pet.name),
      ['a', 'c'],
    );
    assert.equal(await storage.idempotency.find('key_a', 'k', 0), undefined);
  });
}

export async function create(storage: StorageFixture['storage'], pet: NewPet): Promise<Pet> {
  const result = await storage.pets.create(pet);
  assert.equal(result.kind, 'created');
  return (result as { pet: Pet }).pet;
}
