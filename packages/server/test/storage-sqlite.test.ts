import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { StorageUnavailableError } from '../src/storage/errors.ts';
import { openStore, type ReversibleStore } from '../src/features/store.ts';
import { SqliteStorage, type SqliteOptions } from '../src/storage/sqlite.ts';
import {
  batchListing,
  REQUEST_ID_LOOKUP,
  REQUEST_TIME_LOOKUP,
} from '../src/features/requests/request-log-batch-reads.ts';
import { sqlitePlaceholders } from '../src/storage/sql-executor.ts';
import { runStorageContract, type StorageFixture } from './storage-contract.ts';
import { create } from './storage-contract-pets.ts';
import { copyMigratedSqlite } from './migrated-sqlite.ts';

/** `migrated`: the database starts as a copy of a migrated one, else migrating creates it (and its directory). */
async function sqliteFixture({ migrated = false } = {}): Promise<
  StorageFixture & { path: string; open(options?: SqliteOptions): Promise<ReversibleStore> }
> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-storage-'));
  const path = join(dir, 'nested', 'petstore.db');
  if (migrated) {
    await mkdir(dirname(path));
    await copyMigratedSqlite(path);
  }
  const opened: ReversibleStore[] = [];
  const open = async (options?: SqliteOptions) => {
    const storage = openStore(new SqliteStorage(path, options));
    opened.push(storage);
    await storage.migrate();
    return storage;
  };
  return {
    path,
    storage: await open(),
    open,
    async dispose() {
      for (const storage of opened) await storage.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

runStorageContract('sqlite', () => sqliteFixture({ migrated: true }));

describe('sqlite storage', () => {
  let fixture: Awaited<ReturnType<typeof sqliteFixture>>;
  let raw: DatabaseSync | undefined;
  beforeEach(async () => {
    fixture = await sqliteFixture({ migrated: true });
  });
  afterEach(async () => {
    raw?.close();
    raw = undefined;
    await fixture.dispose();
  });

  it('migrate on an up-to-date database while another connection holds the write lock → applies nothing, without waiting for the lock', async () => {
    raw = new DatabaseSync(fixture.path);
    raw.exec('BEGIN IMMEDIATE');
    const storage = await fixture.open({ busyTimeoutMs: 50 });
    assert.deepEqual(await storage.migrate(), []);
    raw.exec('ROLLBACK');
  });

  it('migrate after the newest migration was undone → applies that one again, and only it', async () => {
    const { storage } = fixture;
    const undone = await storage.rollback();
    assert.ok(undone);
    assert.deepEqual(await storage.migrate(), [undone]);
    assert.deepEqual(await storage.migrate(), []);
  });

  it('changeToken → changes after another connection commits, not after our own writes', async () => {
    const { storage, open } = fixture;
    const other = await open();
    const before = storage.changeToken();
    await create(storage, { name: 'own', categoryId: 1n });
    assert.equal(storage.changeToken(), before);
    await create(other, { name: 'theirs', categoryId: 1n });
    const after = storage.changeToken();
    assert.notEqual(after, before);
    assert.equal(storage.changeToken(), after);
  });

  it('changeToken → changes after a key change made through this connection', async () => {
    const { storage } = fixture;
    const key = await storage.keys.create({
      id: 'key_own',
      digest: 'a'.repeat(64),
      plan: 'free',
      perMinute: null,
      perDay: null,
      label: null,
      environment: 'test',
      createdAt: 0,
      expiresAt: null,
    });
    const before = storage.changeToken();
    await storage.keys.setPlan(key.id, 'pro', null, null);
    assert.notEqual(storage.changeToken(), before);
  });

  it('pets.create → a batch whose commit fails rejects every create and leaves nothing', async () => {
    raw = new DatabaseSync(fixture.path, { enableForeignKeyConstraints: true });
    // A deferred foreign-key violation passes each statement and fails only at COMMIT.
    raw.exec(`
      CREATE TABLE guard_parent (id INTEGER PRIMARY KEY);
      CREATE TABLE guard (parent INTEGER REFERENCES guard_parent (id) DEFERRABLE INITIALLY DEFERRED);
      CREATE TRIGGER guard_boom AFTER INSERT ON pets WHEN NEW.name = 'boom'
      BEGIN INSERT INTO guard (parent) VALUES (-1); END;
    `);
    const { storage } = fixture;
    const results = await Promise.allSettled(
      ['a', 'boom', 'c'].map((name) => storage.pets.create({ name, categoryId: 1n })),
    );
    assert.deepEqual(
      results.map((result) => result.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.match(String((results[0] as PromiseRejectedResult).reason), /FOREIGN KEY/);
    assert.equal(await storage.pets.count(), 0);
    assert.equal(await storage.idempotency.purge(Number.MAX_SAFE_INTEGER), 0);
    await create(storage, { name: 'after', categoryId: 1n });
    assert.equal(await storage.pets.count(), 1);
  });

  it('probeWrite, ping, migrate, hasSchema and a purge while a service transaction is open → each waits for it, none runs inside it', async () => {
    const { storage } = fixture;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holding = storage.transaction(async (tx) => {
      await tx.run('INSERT INTO readiness_probe (id, checked_at) VALUES (1, 7)');
      await released;
      throw new Error('refused');
    });
    await new Promise((resolve) => setImmediate(resolve));
    const order: string[] = [];
    const waiting = [
      storage.probeWrite().then(() => order.push('probe')),
      storage.ping().then(() => order.push('ping')),
      storage.migrate().then(() => order.push('migrate')),
      storage.hasSchema().then(() => order.push('hasSchema')),
      storage.requestLog.purge(0).then(() => order.push('purge')),
    ];
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, []);
    release();
    await assert.rejects(holding, /refused/);
    await Promise.all(waiting);
    assert.deepEqual(order.sort(), ['hasSchema', 'migrate', 'ping', 'probe', 'purge']);
    raw = new DatabaseSync(fixture.path);
    assert.notEqual(raw.prepare('SELECT checked_at FROM readiness_probe').get()!.checked_at, 7);
  });

  it('pets.create → StorageUnavailableError while another process holds the write lock', async () => {
    const storage = await fixture.open({ busyTimeoutMs: 50 });
    raw = new DatabaseSync(fixture.path);
    raw.exec('BEGIN IMMEDIATE');
    await assert.rejects(storage.pets.create({ name: 'blocked', categoryId: 1n }), StorageUnavailableError);
    await assert.rejects(storage.keys.revoke('key_1', 0), StorageUnavailableError);
    raw.exec('COMMIT');
    await create(storage, { name: 'after', categoryId: 1n });
    assert.equal(await storage.pets.count(), 1);
  });

  it('pets.create → more concurrent creates than one batch holds all commit', async () => {
    const { storage } = fixture;
    const results = await Promise.all(
      Array.from({ length: 600 }, (_, i) => storage.pets.create({ name: `b${i}`, categoryId: BigInt(i) })),
    );
    assert.ok(results.every((result) => result.kind === 'created'));
    assert.equal(await storage.pets.count(), 600);
  });

  it('close → creates still queued are committed first', async () => {
    const { storage, open } = fixture;
    const pending = storage.pets.create({ name: 'queued', categoryId: 1n });
    await storage.close();
    assert.equal((await pending).kind, 'created');
    assert.equal(await (await open()).pets.count(), 1);
  });

  it('pets.list → keyset pages read an index in id order, with no sort', () => {
    raw = new DatabaseSync(fixture.path);
    const plan = (sql: string) =>
      raw!
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .all()
        .map((row) => String(row.detail))
        .join('; ');
    const filtered = plan('SELECT * FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?');
    assert.match(filtered, /USING INDEX pets_status_id \(status=\? AND id>\?\)/);
    const unfiltered = plan('SELECT * FROM pets WHERE id > ? ORDER BY id LIMIT ?');
    assert.match(unfiltered, /USING INTEGER PRIMARY KEY \(rowid>\?\)/);
    assert.doesNotMatch(`${filtered}; ${unfiltered}`, /TEMP B-TREE/);
  });

  it('request log → listings read batches newest first from one index, with no sort; ids from their own', () => {
    raw = new DatabaseSync(fixture.path);
    const plan = (text: string) =>
      raw!
        .prepare(`EXPLAIN QUERY PLAN ${sqlitePlaceholders(text)}`)
        .all()
        .map((row) => String(row.detail))
        .join('; ');
    const filters = [
      [],
      ['last_at >= $2'],
      ['first_at < $2', "combinations LIKE $3 ESCAPE '\\'"],
      ['first_at <= $2', "combinations LIKE $3 ESCAPE '\\'"],
    ];
    for (const conditions of filters) {
      for (const after of [false, true]) {
        const listing = plan(batchListing(['project_id = $1', ...conditions], conditions.length + 2, after));
        assert.match(
          listing,
          /USING COVERING INDEX request_log_batches_project_at|USING INDEX request_log_batches_project_at/,
        );
        assert.doesNotMatch(listing, /TEMP B-TREE/, conditions.join(' AND '));
      }
    }
    assert.match(plan(REQUEST_ID_LOOKUP), /USING PRIMARY KEY \(project_id=\? AND request_id=\?\)/);
    assert.match(
      plan(REQUEST_TIME_LOOKUP),
      /USING COVERING INDEX request_log_batches_request_time \(project_id=\? AND id_ms_max>\?\)/,
    );
  });

  it('open → WAL journal and the file in a directory created on demand', async () => {
    const created = await sqliteFixture();
    try {
      raw = new DatabaseSync(created.path);
      assert.equal(raw.prepare('PRAGMA journal_mode').get()!.journal_mode, 'wal');
    } finally {
      raw?.close();
      raw = undefined;
      await created.dispose();
    }
  });
});
