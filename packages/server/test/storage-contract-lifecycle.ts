import assert from 'node:assert/strict';
import { it } from 'node:test';
import { loadMigrations } from '../src/storage/migrations.ts';
import type { StorageFixture } from './storage-contract.ts';
import { create } from './storage-contract-pets.ts';

export function lifecycleContract(fixture: () => StorageFixture): void {
  it('migrate → a second run applies nothing', async () => {
    const { storage } = fixture();
    assert.deepEqual(await storage.migrate(), []);
    const other = await fixture().open();
    assert.deepEqual(await other.migrate(), []);
  });

  it('rollback → undoes every migration newest first, and migrate applies them again', async () => {
    const { storage } = fixture();
    const names = loadMigrations(storage.kind).map((migration) => migration.name);
    await create(storage, { name: 'gone', categoryId: 1n });
    const undone: string[] = [];
    for (let name = await storage.rollback(); name !== undefined; name = await storage.rollback())
      undone.push(name);
    assert.deepEqual(undone, names.toReversed());
    assert.equal(await storage.hasSchema(), false, 'no migration applied is a new, empty database');
    assert.deepEqual(await storage.migrate(), names);
    assert.equal(await storage.hasSchema(), true);
    assert.equal(await storage.pets.count(), 0);
  });

  it('migration 002 down and up again → idempotency records still lead to their pets', async () => {
    const { storage } = fixture();
    const request = { apiKeyId: 'key_a', requestHash: 'a'.repeat(64), createdAt: 1, expiresAt: 10 };
    const withStatus = await storage.pets.create(
      { name: 'Rex', categoryId: 2n ** 63n - 1n, status: 'sold' },
      { idempotency: { ...request, key: 'k1' } },
    );
    const without = await storage.pets.create(
      { name: 'Ünï', categoryId: -1n },
      { idempotency: { ...request, key: 'k2' } },
    );
    const undone: string[] = [];
    while (undone.at(-1) !== '002_idempotency_pet_id') {
      const name = await storage.rollback();
      assert.ok(name !== undefined, 'rolled back past 002 without meeting it');
      undone.push(name);
    }
    assert.deepEqual(await storage.migrate(), undone.toReversed());
    for (const [key, created] of [
      ['k1', withStatus],
      ['k2', without],
    ] as const) {
      assert.equal(created.kind, 'created');
      assert.equal((await storage.idempotency.find('key_a', key, 2))?.petId, created.pet.id);
    }
  });

  it('ping → resolves while the database answers', async () => {
    await fixture().storage.ping();
  });

  it('probeWrite → commits the readiness row, again and again, without touching pets', async () => {
    const { storage } = fixture();
    const before = await storage.pets.count();
    await storage.probeWrite();
    await storage.probeWrite();
    assert.equal(await storage.pets.count(), before);
  });

  it('close and reopen → every acknowledged pet is there', async () => {
    const { storage, open } = fixture();
    const pets = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(storage, { name: `d${i}`, categoryId: BigInt(i) })),
    );
    await storage.close();
    await storage.close();
    const reopened = await open();
    assert.equal(await reopened.pets.count(), 20);
    for (const pet of pets) assert.deepEqual(await reopened.pets.get(pet.id), pet);
  });
}
