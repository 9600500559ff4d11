import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { makeTestApp, type TestApp } from './harness.ts';
import { openStore } from '../src/features/store.ts';

/** A transaction of the storage held open until `release` (as one awaiting something slow would be). */
function heldTransaction(app: TestApp, fail: boolean) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const done = app.storage.transaction(async (tx) => {
    await tx.run('UPDATE readiness_probe SET checked_at = 1 WHERE id = 1');
    await released;
    if (fail) throw new Error('refused');
  });
  return { release, done: done.catch(() => undefined) };
}

describe('the SQLite write path over HTTP', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-write-path-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('POST /v1/pets while another transaction is open → waits, then 201; the transaction’s rollback leaves the pet', async () => {
    const app = await makeTestApp({ storage: openStore(new SqliteStorage(join(dir, 'wait.db'))) });
    try {
      const held = heldTransaction(app, true);
      let answered = false;
      const created = app
        .request({ method: 'POST', url: '/v1/pets', body: { name: 'Rex', categoryId: 1 } })
        .finally(() => (answered = true));
      for (let turn = 0; turn < 5; turn++) await nextTurn();
      assert.equal(answered, false, 'the create waits for the transaction to end');
      held.release();
      await held.done;
      const response = await created;
      assert.equal(response.status, 201, response.body);
      assert.equal(await app.storage.pets.count(), 1);
    } finally {
      await app.close();
    }
  });

  it('POST /v1/pets while the connection’s line is full → 503 service_unavailable with Retry-After: 1, nothing written; 201 once it frees', async () => {
    const app = await makeTestApp({
      storage: openStore(new SqliteStorage(join(dir, 'full.db'), { limits: { waiting: 0 } })),
    });
    try {
      await app.request({ url: '/v1/pets' });
      const held = heldTransaction(app, false);
      const refused = await app.request({
        method: 'POST',
        url: '/v1/pets',
        body: { name: 'Rex', categoryId: 1 },
      });
      assert.equal(refused.status, 503, refused.body);
      assert.equal(refused.headers['retry-after'], '1');
      assert.equal((refused.json() as { code: string }).code, 'service_unavailable');
      held.release();
      await held.done;
      assert.equal(await app.storage.pets.count(), 0);
      const created = await app.request({
        method: 'POST',
        url: '/v1/pets',
        body: { name: 'Rex', categoryId: 1 },
      });
      assert.equal(created.status, 201, created.body);
    } finally {
      await app.close();
    }
  });
});
