import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config.ts';
import { startServer } from '../src/server.ts';

describe('maintenance in the server', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-maintenance-server-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('two servers on one SQLite file → once they listen one holds the maintenance lease; each lets it go when it closes', async () => {
    const database = join(dir, 'shared.db');
    const config = loadConfig({ PORT: '0', DATABASE_URL: database, LOG_LEVEL: 'silent' });
    const first = await startServer(config);
    const second = await startServer(config, { migrate: false });
    const db = new DatabaseSync(database);
    const leases = () => db.prepare('SELECT name, owner FROM maintenance_leases').all();
    try {
      // Each asks for the lease as soon as it listens: polled, up to 10 s on a loaded machine.
      for (let tries = 0; leases().length === 0 && tries < 1_000; tries++) await sleep(10);
      const held = leases();
      assert.equal(held.length, 1);
      assert.equal(held[0]!.name, 'maintenance');
      await first.close();
      assert.ok(leases().length <= 1);
      await second.close();
      assert.deepEqual(leases(), []);
    } finally {
      db.close();
    }
  });
});
