import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { CreateOptions, IdempotencyRecord, Pet } from '../src/storage/records.ts';
import type { StorageFixture } from './storage-contract.ts';

const T0 = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

function withKey(apiKeyId: string, key: string, createdAt = T0, requestHash = 'a'.repeat(64)): CreateOptions {
  return {
    idempotency: {
      apiKeyId,
      key,
      requestHash,
      createdAt,
      expiresAt: createdAt + DAY,
    },
  };
}

function petOf(result: Awaited<ReturnType<StorageFixture['storage']['pets']['create']>>): Pet {
  assert.equal(result.kind, 'created');
  return (result as { pet: Pet }).pet;
}

function conflictOf(
  result: Awaited<ReturnType<StorageFixture['storage']['pets']['create']>>,
): IdempotencyRecord {
  assert.equal(result.kind, 'idempotency_conflict');
  return (result as { existing: IdempotencyRecord }).existing;
}

export function idempotencyContract(fixture: () => StorageFixture): void {
  it('pets.create with a key → the record is stored with the id of the new pet', async () => {
    const { storage } = fixture();
    const pet = petOf(await storage.pets.create({ name: 'Rex', categoryId: 1n }, withKey('key_a', 'k1')));
    const record = await storage.idempotency.find('key_a', 'k1', T0 + 1);
    assert.deepEqual(record, {
      apiKeyId: 'key_a',
      key: 'k1',
      requestHash: 'a'.repeat(64),
      petId: pet.id,
      createdAt: T0,
      expiresAt: T0 + DAY,
    });
    assert.equal(await storage.idempotency.find('key_a', 'other', T0 + 1), undefined);
  });

  it('pets.create with a used key → idempotency_conflict with the stored record, no extra pet', async () => {
    const { storage } = fixture();
    await storage.pets.create({ name: 'Rex', categoryId: 1n }, withKey('key_a', 'k1'));
    const first = await storage.idempotency.find('key_a', 'k1', T0);
    const second = await storage.pets.create(
      { name: 'Max', categoryId: 2n },
      withKey('key_a', 'k1', T0 + 5, 'b'),
    );
    assert.deepEqual(conflictOf(second), first);
    assert.equal(await storage.pets.count(), 1);
  });

  it('pets.create → 50 concurrent creates with one key make exactly one pet', async () => {
    const { storage } = fixture();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        storage.pets.create({ name: `p${i}`, categoryId: 1n }, withKey('key_a', 'same')),
      ),
    );
    const created = results.filter((result) => result.kind === 'created');
    assert.equal(created.length, 1);
    const record = await storage.idempotency.find('key_a', 'same', T0);
    for (const result of results) if (result.kind !== 'created') assert.deepEqual(result.existing, record);
    assert.equal(await storage.pets.count(), 1);
  });

  it('idempotency.find → expired records are not found; idempotency.purge deletes them', async () => {
    const { storage } = fixture();
    await storage.pets.create({ name: 'old', categoryId: 1n }, withKey('key_a', 'old', T0));
    await storage.pets.create({ name: 'new', categoryId: 1n }, withKey('key_a', 'new', T0 + DAY / 2));
    assert.equal(await storage.idempotency.find('key_a', 'old', T0 + DAY), undefined);
    assert.ok(await storage.idempotency.find('key_a', 'new', T0 + DAY));
    assert.equal(await storage.idempotency.purge(T0 + DAY), 1);
    assert.equal(await storage.idempotency.purge(T0 + DAY), 0);
    assert.ok(await storage.idempotency.find('key_a', 'new', T0 + DAY));
  });

  it('pets.create → an expired but unpurged key can be used again', async () => {
    const { storage } = fixture();
    await storage.pets.create({ name: 'old', categoryId: 1n }, withKey('key_a', 'k1', T0));
    const pet = petOf(
      await storage.pets.create({ name: 'new', categoryId: 1n }, withKey('key_a', 'k1', T0 + DAY)),
    );
    const record = await storage.idempotency.find('key_a', 'k1', T0 + DAY);
    assert.equal(record!.petId, pet.id);
  });

  it('pets.create → the same key under another API key is independent', async () => {
    const { storage } = fixture();
    const a = petOf(await storage.pets.create({ name: 'a', categoryId: 1n }, withKey('key_a', 'k1')));
    const b = petOf(await storage.pets.create({ name: 'b', categoryId: 1n }, withKey('key_b', 'k1')));
    assert.equal((await storage.idempotency.find('key_a', 'k1', T0))!.petId, a.id);
    assert.equal((await storage.idempotency.find('key_b', 'k1', T0))!.petId, b.id);
    assert.equal(await storage.pets.count(), 2);
  });
}
