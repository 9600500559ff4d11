import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { project } from './storage-contract-projects.ts';
import { openStore } from '../src/features/store.ts';

const ROUNDS = 50;
const T0 = Date.UTC(2026, 0, 1);

/**
 * The storage contract races two owners on one connection each, in one thread; here each owner is a
 * thread of its own with its own connection to the file (as two processes of `serve --workers 2`),
 * meeting at a barrier before each round, so the two changes really run at the same time.
 */
describe('sqlite: the last-owner rule across connections running at once', () => {
  let dir: string;
  let path: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-owner-race-'));
    path = join(dir, 'race.db');
    const storage = openStore(new SqliteStorage(path));
    await storage.migrate();
    for (const name of ['ann', 'bob']) {
      await storage.accounts.create({
        id: `acc_${name}`,
        email: `${name}@example.com`,
        passwordHash: 'h',
        createdAt: T0,
      });
    }
    for (let round = 0; round < ROUNDS; round++) {
      await storage.projects.create(project(`race-${round}`));
      await storage.projects.addMember('acc_ann', `prj_race-${round}`, T0, 'owner');
      await storage.projects.addMember('acc_bob', `prj_race-${round}`, T0, 'owner');
    }
    await storage.close();
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it(`two owners in two threads removing or demoting each other, ${ROUNDS} times → one owner always remains`, async () => {
    const barrier = new SharedArrayBuffer(4 * ROUNDS);
    const side = (me: number, other: string) =>
      new Promise<string[]>((resolve, reject) => {
        const worker = new Worker(new URL('./owner-race-worker.ts', import.meta.url), {
          workerData: { path, rounds: ROUNDS, me, other, barrier },
        });
        worker.once('message', resolve);
        worker.once('error', reject);
      });
    const [ann, bob] = await Promise.all([side(0, 'acc_bob'), side(1, 'acc_ann')]);
    const storage = openStore(new SqliteStorage(path));
    try {
      for (let round = 0; round < ROUNDS; round++) {
        const owners = (await storage.projects.members(`prj_race-${round}`)).filter(
          (m) => m.role === 'owner',
        );
        assert.equal(owners.length, 1, `round ${round}: ${ann[round]} / ${bob[round]}`);
        assert.deepEqual([ann[round], bob[round]].sort(), ['done', 'last_owner'], `round ${round}`);
      }
    } finally {
      await storage.close();
    }
  });
});
