import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { StorageUnavailableError } from '../src/storage/errors.ts';
import { loadMigrations, type ReversibleStorage } from '../src/storage/migrations.ts';
import { PostgresStorage } from '../src/storage/postgres.ts';
import { retentionCutoffs } from '../src/insights/retention.ts';
import { service } from './services.ts';
import { reusableSchema, type ReusableSchema } from './postgres-schema.ts';
import { project } from './storage-contract-projects.ts';
import { logged } from './storage-contract-request-log.ts';
import { runStorageContract, type StorageFixture } from './storage-contract.ts';

const postgres = await service('postgres');
const skip = 'skip' in postgres ? postgres.skip : false;
const url = 'url' in postgres ? postgres.url : '';

describe('postgres storage', { skip }, () => {
  let admin: pg.Pool;
  let shared: ReusableSchema;
  before(() => {
    admin = new pg.Pool({ connectionString: url, max: 2 });
    shared = reusableSchema(admin);
  });
  after(async () => {
    await shared.drop();
    await admin.end();
  });

  /** Every test starts on an empty, migrated schema of this file's own, so suites sharing the database never meet. */
  async function postgresFixture(): Promise<StorageFixture & { schema: string }> {
    const opened: ReversibleStorage[] = [];
    const open = async () => {
      const storage = new PostgresStorage({ url, schema: shared.name, poolSize: 5 });
      opened.push(storage);
      await storage.migrate();
      return storage;
    };
    return {
      schema: shared.name,
      storage: await open(),
      open,
      async dispose() {
        for (const storage of opened) await storage.close();
        await shared.reset();
      },
    };
  }

  runStorageContract('postgres', postgresFixture);

  it('migrate → instances starting together apply each migration exactly once', async () => {
    const schema = `petstore_test_${randomBytes(6).toString('hex')}`;
    const instances = Array.from({ length: 4 }, () => new PostgresStorage({ url, schema, poolSize: 2 }));
    try {
      const applied = await Promise.all(instances.map((storage) => storage.migrate()));
      assert.deepEqual(
        applied.flat(),
        loadMigrations('postgres').map((migration) => migration.name),
      );
    } finally {
      for (const storage of instances) await storage.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });

  it('a server that drops idle connections → no crash, and the next query reconnects', async () => {
    const applicationName = `petstore_test_${randomBytes(6).toString('hex')}`;
    const storage = new PostgresStorage({ url, applicationName });
    try {
      await storage.ping();
      const { rows } = await admin.query(
        'SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE application_name = $1',
        [applicationName],
      );
      assert.equal(rows.length, 1);
      await new Promise((resolve) => setTimeout(resolve, 100));
      await storage.ping();
    } finally {
      await storage.close();
    }
  });

  it('request log → one partition per day; purging drops the days every plan has let go', async () => {
    const fixture = await postgresFixture();
    const day = Date.UTC(2026, 0, 10);
    const partitions = async () =>
      (
        await admin.query(
          `SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
           JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY 1`,
          [fixture.schema],
        )
      ).rows.map((row: { relname: string }) => row.relname);
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'business' }));
      await fixture.storage.requestLog.write([
        logged({ at: day + 5 }),
        logged({ at: day + 86_400_000 + 5 }),
        logged({ at: day + 40 * 86_400_000 }),
      ]);
      assert.deepEqual(await partitions(), [
        'request_log_d20260110',
        'request_log_d20260111',
        'request_log_d20260219',
      ]);
      const removed = await fixture.storage.requestLog.purge(retentionCutoffs(day + 32 * 86_400_000 + 10));
      assert.equal(removed, 2);
      assert.deepEqual(await partitions(), ['request_log_d20260219']);
    } finally {
      await fixture.dispose();
    }
  });

  it('request log → a day another instance dropped is made again, and the batch written whole', async () => {
    const fixture = await postgresFixture();
    const day = Date.UTC(2026, 0, 10);
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'business' }));
      await fixture.storage.requestLog.write([logged({ requestId: 'first', at: day + 5 })]);
      await admin.query(`DROP TABLE ${fixture.schema}.request_log_d20260110`);
      const batch = [logged({ requestId: 'a', at: day + 6 }), logged({ requestId: 'b', at: day + 7 })];
      await fixture.storage.requestLog.write(batch);
      const listed = await fixture.storage.requestLog.list({ projectId: 'prj_acme', limit: 10 });
      assert.deepEqual(
        listed.map((row) => row.requestId),
        ['b', 'a'],
      );
    } finally {
      await fixture.dispose();
    }
  });

  it('request log batches commit without waiting for the WAL flush; pets wait for it', async () => {
    const fixture = await postgresFixture();
    const schema = fixture.schema;
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'business' }));
      // A statement trigger on each table notes the synchronous_commit its insert commits under.
      await admin.query(`CREATE TABLE ${schema}.commit_settings (tbl TEXT, setting TEXT)`);
      await admin.query(`CREATE FUNCTION ${schema}.note_commit_setting() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO ${schema}.commit_settings VALUES (TG_TABLE_NAME, current_setting('synchronous_commit'));
          RETURN NULL;
        END $$`);
      for (const table of ['request_log', 'pets']) {
        await admin.query(`CREATE TRIGGER note_commit_setting AFTER INSERT ON ${schema}.${table}
          FOR EACH STATEMENT EXECUTE FUNCTION ${schema}.note_commit_setting()`);
      }
      await fixture.storage.requestLog.write([logged({ requestId: 'a' }), logged({ requestId: 'b' })]);
      await fixture.storage.createPet({ name: 'Rex', categoryId: 1n, status: 'available' });
      const { rows } = await admin.query(`SELECT tbl, setting FROM ${schema}.commit_settings ORDER BY tbl`);
      assert.deepEqual(
        rows.map((row: { tbl: string; setting: string }) => `${row.tbl} ${row.setting}`),
        ['pets on', 'request_log off'],
      );
    } finally {
      // The schema is reused by the next tests: nothing of this test's may stay in it.
      for (const table of ['request_log', 'pets']) {
        await admin.query(`DROP TRIGGER IF EXISTS note_commit_setting ON ${schema}.${table}`);
      }
      await admin.query(`DROP FUNCTION IF EXISTS ${schema}.note_commit_setting()`);
      await admin.query(`DROP TABLE IF EXISTS ${schema}.commit_settings`);
      await fixture.dispose();
    }
  });

  it('request log hours → kept by a trigger for every insert, any version’s; rows before migration 055 counted; purged with retention', async () => {
    const fixture = await postgresFixture();
    const day = Date.UTC(2026, 0, 10);
    const hours = async () =>
      (
        await admin.query(
          `SELECT key_id, operation, status, hour FROM ${fixture.schema}.request_log_hours ORDER BY hour, key_id`,
        )
      ).rows.map((row: { key_id: string; operation: string; status: number; hour: string }) =>
        [row.key_id, row.operation, row.status, (Number(row.hour) - day) / 3_600_000].join(' '),
      );
    const listed = async (keyId: string) =>
      (await fixture.storage.requestLog.list({ projectId: 'prj_acme', keyId, limit: 10 })).map(
        (row) => row.requestId,
      );
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'free' }));
      assert.equal(await fixture.storage.rollback(), '055_request_log_hours');
      await fixture.storage.requestLog.write([
        logged({ requestId: 'before', keyId: 'key_old', at: day + 5 }),
      ]);
      await fixture.storage.migrate();
      assert.deepEqual(await hours(), ['key_old listPets 200 0']);
      assert.deepEqual(await listed('key_old'), ['before']);
      // As a version without request_log_hours in its code would insert.
      await admin.query(
        `INSERT INTO ${fixture.schema}.request_log (project_id, at, request_id, key_id, key_label, operation, method,
           path, status, code, latency_ms, address)
         VALUES ('prj_acme', $1, 'raw', 'key_raw', NULL, 'getPet', 'GET', '/v1/pets/1', 404, 'not_found', 1, '192.0.2.1')`,
        [day + 2 * 3_600_000 + 7],
      );
      assert.deepEqual(await hours(), ['key_old listPets 200 0', 'key_raw getPet 404 2']);
      assert.deepEqual(await listed('key_raw'), ['raw']);
      await fixture.storage.requestLog.purge(retentionCutoffs(day + 86_400_000 + 3_600_000));
      assert.deepEqual(await hours(), ['key_raw getPet 404 2']);
    } finally {
      await fixture.dispose();
    }
  });

  it('schema option → tables are created in that schema, not in public', async () => {
    const fixture = await postgresFixture();
    try {
      const { rows } = await admin.query(
        "SELECT table_schema FROM information_schema.tables WHERE table_name = 'pets' AND table_schema = $1",
        [fixture.schema],
      );
      assert.equal(rows.length, 1);
    } finally {
      await fixture.dispose();
    }
  });
});

describe('postgres storage when the server is unreachable', () => {
  it('ping and createPet → StorageUnavailableError within a few seconds, not a hang', async () => {
    const storage = new PostgresStorage({ url: 'postgres://postgres@127.0.0.1:1/test' });
    const started = performance.now();
    try {
      await assert.rejects(storage.ping(), StorageUnavailableError);
      await assert.rejects(storage.createPet({ name: 'x', categoryId: 1n }), StorageUnavailableError);
      await assert.rejects(storage.migrate(), StorageUnavailableError);
    } finally {
      await storage.close();
    }
    assert.ok(performance.now() - started < 5_000);
  });
});
