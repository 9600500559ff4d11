import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { StorageUnavailableError } from './errors.ts';
import { SqliteStorage } from './sqlite.ts';
import { untilReady } from './until-ready.ts';
import { openStore } from '../features/store.ts';

const dir = mkdtempSync(join(tmpdir(), 'petstore-until-ready-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('untilReady: the pets, keys and idempotency repositories → StorageUnavailableError until ready, then the database', async () => {
  const storage = openStore(new SqliteStorage(join(dir, 'petstore.db')));
  let ready = false;
  const guarded = untilReady(storage, () => ready);
  try {
    await assert.rejects(guarded.pets.get(1n), StorageUnavailableError);
    await assert.rejects(guarded.pets.count(), StorageUnavailableError);
    await assert.rejects(guarded.keys.findByDigest('00'), StorageUnavailableError);
    await assert.rejects(guarded.idempotency.purge(0), StorageUnavailableError);
    assert.equal(guarded.changeToken(), undefined);
    assert.equal(guarded.ownWrites(), 0);

    await guarded.migrate();
    ready = true;
    assert.equal(await guarded.pets.count(), 0);
    assert.equal(await guarded.keys.findByDigest('00'), undefined);
    assert.equal(guarded.pets, guarded.pets, 'one guard per repository');
  } finally {
    await guarded.close();
  }
});
