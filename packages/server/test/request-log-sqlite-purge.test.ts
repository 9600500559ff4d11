import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import {
  PURGE_SLICE_BATCHES,
  PURGE_SLICE_PAGES,
  PURGE_SLICE_REQUESTS,
} from '../src/features/requests/request-log-sqlite.ts';
import { project } from './storage-contract-projects.ts';
import { request, T0 } from './storage-contract-request-log-generated.ts';
import { openStore } from '../src/features/store.ts';

const DAY = 86_400_000;

describe('request log purge in SQLite', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-request-log-purge-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('a slice → at most PURGE_SLICE_REQUESTS requests of full batches, PURGE_SLICE_BATCHES rows of small ones, then the pages', async () => {
    const storage = openStore(new SqliteStorage(join(dir, 'purge.db')));
    try {
      await storage.migrate();
      await storage.projects.create(project('full', { plan: 'free' }));
      const day = Math.floor(T0 / DAY) * DAY;
      // 20 full batches of one project, each alone in its write (no page: the batch keeps its own
      // rows), then 50 writes of two projects' one request each (100 small batches of projects no
      // longer there: 30 days, after the full ones; a page a write, 50 pages).
      for (let w = 0; w < 20; w++)
        await storage.requestLog.write(
          Array.from({ length: 256 }, (_, i) => request('prj_full', w * 256 + i, day + w * 256 + i, i)),
        );
      for (let w = 0; w < 50; w++)
        await storage.requestLog.write(
          [2 * w, 2 * w + 1].map((i) => request(`prj_gone_${i}`, 9_000 + i, day + i, i)),
        );
      // Stopped after its first slice: 16 full batches.
      const first = await storage.requestLog.purge(day + 40 * DAY, async () => false);
      assert.equal(first, PURGE_SLICE_REQUESTS);
      let turns = 0;
      const rest = await storage.requestLog.purge(day + 40 * DAY, async () => {
        turns++;
        return true;
      });
      assert.equal(first + rest, 20 * 256 + 100);
      // Then 4 full batches and 28 small ones (32 rows), 32, 32 and the last 8 small ones, and the 50
      // pages 16 at a time (16, 16, 16, 2): 8 slices, the loop turning between them.
      assert.equal(PURGE_SLICE_BATCHES, 32);
      assert.equal(PURGE_SLICE_PAGES, 16);
      assert.equal(turns + 1, 8);
      assert.deepEqual(await storage.requestLog.list({ projectId: 'prj_full', limit: 5 }), []);
    } finally {
      await storage.close();
    }
  });
});
