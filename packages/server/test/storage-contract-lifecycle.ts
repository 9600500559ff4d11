import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { StorageFixture } from './storage-contract.ts';
import { create } from './storage-contract-pets.ts';

export function lifecycleContract(fixture: () => StorageFixture): void {
  it('migrate → a second run applies nothing', async () => {
    const { storage } = fixture();
    assert.deepEqual(await storage.migrate(), []);
    const other = await fixture().open();
    assert.deepEqual(await other.migrate(), []);
  });

  it('rollback → undoes the newest migration, and migrate applies it again', async () => {
    const { storage } = fixture();
    await create(storage, { name: 'gone', categoryId: 1n });
    assert.equal(await storage.rollback(), '001_init');
    assert.equal(await storage.rollback(), undefined);
    assert.deepEqual(await storage.migrate(), ['001_init']);
    assert.equal(await storage.countPets(), 0);
  });

  it('ping → resolves while the database answers', async () => {
    await fixture().storage.ping();
  });

  it('close and reopen → every acknowledged pet is there', async () => {
    const { storage, open } = fixture();
    const pets = await Promise.all(
      Array.from({ length: 20 }, (_, i) => create(storage, { name: `d${i}`, categoryId: BigInt(i) })),
    );
    await storage.close();
    await storage.close();
    const reopened = await open();
    assert.equal(await reopened.countPets(), 20);
    for (const pet of pets) assert.deepEqual(await reopened.getPet(pet.id), pet);
  });
}
