import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStorage } from '../storage/sqlite.ts';
import { openStore, openStoreAt } from './store.ts';

describe('openStore', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-store-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a second store on one storage → refused, the first keeps its repositories', async () => {
    const engine = new SqliteStorage(join(dir, 'twice.db'));
    const store = openStore(engine);
    try {
      await store.migrate();
      const first = store.pets;
      assert.throws(() => openStore(engine), /open already/);
      assert.equal(store.pets, first);
      assert.equal(await store.pets.count(), 0);
    } finally {
      await store.close();
    }
  });

  it('close with pet creates still queued → they commit before the file closes (SQLite)', async () => {
    const path = join(dir, 'queued.db');
    const store = await openStoreAt(path);
    await store.migrate();
    const creates = ['a', 'b', 'c'].map((name) => store.pets.create({ name, categoryId: 1n }));
    await store.close();
    for (const result of await Promise.all(creates)) assert.equal(result.kind, 'created');
    const reopened = await openStoreAt(path);
    try {
      assert.equal(await reopened.pets.count(), 3);
    } finally {
      await reopened.close();
    }
  });
});
