import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { StorageUnavailableError } from '../src/storage/errors.ts';
import { loadMigrations } from '../src/storage/migrations.ts';
import { openStore, type ReversibleStore } from '../src/features/store.ts';
import { PostgresStorage } from '../src/storage/postgres.ts';
import { service } from './services.ts';
import { reusableSchema, type ReusableSchema } from './postgres-schema.ts';
import { newKey } from './storage-contract-keys.ts';
import { project } from './storage-contract-projects.ts';
import { logged } from './storage-contract-request-log.ts';
import {
  assertCompactRowsUndone,
  assertExpiryMigrated,
  assertMovedIntoBatches,
  listedColumns,
  requestLogOnly,
  undoThrough,
} from './request-log-migration-checks.ts';
import { request, T0 } from './storage-contract-request-log-generated.ts';
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
    const opened: ReversibleStore[] = [];
    const open = async () => {
      const storage = openStore(new PostgresStorage({ url, schema: shared.name, poolSize: 5 }));
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
    const instances = Array.from({ length: 4 }, () =>
      openStore(new PostgresStorage({ url, schema, poolSize: 2 })),
    );
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

  it('migrate → an instance starting while another holds the migration lock past the statement and read timeouts waits, then migrates', async () => {
    const schema = `petstore_test_${randomBytes(6).toString('hex')}`;
    // Production's timeouts (5 s, 6 s) scaled down: the wait outlasts both all the same.
    const timeouts = { statementMs: 250, queryMs: 300 };
    const storage = openStore(new PostgresStorage({ url, schema, poolSize: 2, timeouts }));
    const holder = await admin.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT pg_advisory_xact_lock(hashtext('petstore.migrate:' || $1))", [schema]);
      let settled = false;
      const migrating = storage.migrate().finally(() => (settled = true));
      await new Promise((resolve) => setTimeout(resolve, timeouts.queryMs + 500));
      assert.equal(settled, false, 'still waiting for the lock');
      await holder.query('COMMIT');
      assert.deepEqual(
        await migrating,
        loadMigrations('postgres').map((migration) => migration.name),
      );
    } finally {
      await holder.query('ROLLBACK').catch(() => {});
      holder.release();
      await storage.close();
      await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    }
  });

  it('migrate on an up-to-date schema while another instance holds the migration lock → applies nothing, without waiting for the lock', async () => {
    const fixture = await postgresFixture();
    const holder = await admin.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT pg_advisory_xact_lock(hashtext('petstore.migrate:' || $1))", [
        fixture.schema,
      ]);
      const storage = openStore(new PostgresStorage({ url, schema: fixture.schema, poolSize: 2 }));
      try {
        const outcome = await Promise.race([
          storage.migrate(),
          new Promise((resolve) => setTimeout(resolve, 2_000, 'still waiting for the lock')),
        ]);
        assert.deepEqual(outcome, []);
      } finally {
        await holder.query('COMMIT');
        await storage.close();
      }
    } finally {
      holder.release();
      await fixture.dispose();
    }
  });

  it('a key found by its digest while api_key_uses is locked → found at once: authentication never reads the table of last uses', async () => {
    const fixture = await postgresFixture();
    const holder = await admin.connect();
    try {
      const key = await fixture.storage.keys.create(newKey('key_1'));
      await holder.query('BEGIN');
      await holder.query(`LOCK TABLE ${fixture.schema}.api_key_uses IN ACCESS EXCLUSIVE MODE`);
      const found = await Promise.race([
        fixture.storage.keys.findByDigest(key.digest),
        new Promise((resolve) => setTimeout(resolve, 2_000, 'waited for the lock')),
      ]);
      assert.equal((found as { id?: string }).id, 'key_1');
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
      await fixture.dispose();
    }
  });

  it('a server that drops idle connections → no crash, and the next query reconnects', async () => {
    const applicationName = `petstore_test_${randomBytes(6).toString('hex')}`;
    const storage = openStore(new PostgresStorage({ url, applicationName }));
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

  it('request log → partitions by the day batches expire, one per retention of each day written; purging drops those whose day has come', async () => {
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
    const both = (...stamps: string[]) => [
      ...stamps.map((stamp) => `request_log_batches_e${stamp}`),
      ...stamps.map((stamp) => `request_log_pages_e${stamp}`),
      ...stamps.map((stamp) => `request_log_request_ids_e${stamp}`),
    ];
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'business' }));
      await fixture.storage.requestLog.write([
        logged({ at: day + 5 }),
        logged({ at: day + 6 }),
        // One write across midnight: a batch per day, never one spanning both.
        logged({ at: day + 86_400_000 - 1 }),
        logged({ requestId: 'custom-id', at: day + 86_400_000 + 5 }),
        logged({ at: day + 40 * 86_400_000 }),
      ]);
      // Free (1 day), Pro (7) and Business (30) of Jan 10, Jan 11 and Feb 19.
      const made = both(
        '20260112',
        '20260113',
        '20260118',
        '20260119',
        '20260210',
        '20260211',
        '20260221',
        '20260227',
        '20260322',
      );
      assert.deepEqual(await partitions(), made);
      const { rows } = await admin.query(
        `SELECT first_at, last_at, requests, expires_at FROM ${fixture.schema}.request_log_batches ORDER BY first_at`,
      );
      assert.deepEqual(
        rows.map((row: { first_at: string; last_at: string; requests: number; expires_at: string }) =>
          [
            Number(row.first_at) - day,
            Number(row.last_at) - day,
            row.requests,
            (Number(row.expires_at) - day) / 86_400_000,
          ].join(' '),
        ),
        ['5 86399999 3 31', '86400005 86400005 1 32', '3456000000 3456000000 1 71'],
      );
      const removed = await fixture.storage.requestLog.purge(day + 32 * 86_400_000 + 10);
      assert.equal(removed, 4);
      assert.deepEqual(await partitions(), both('20260221', '20260227', '20260322'));
      const ids = await admin.query(
        `SELECT count(*)::int AS n FROM ${fixture.schema}.request_log_request_ids`,
      );
      assert.equal(ids.rows[0].n, 1);
    } finally {
      await fixture.dispose();
    }
  });

  it('request log → a partition left detached by an interrupted purge is dropped by the next one', async () => {
    const fixture = await postgresFixture();
    const day = Date.UTC(2026, 0, 10);
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'free' }));
      await fixture.storage.requestLog.write([logged({ at: day + 5 }), logged({ at: day + 6 })]);
      await admin.query(
        `ALTER TABLE ${fixture.schema}.request_log_batches DETACH PARTITION ${fixture.schema}.request_log_batches_e20260112`,
      );
      assert.equal(await fixture.storage.requestLog.purge(day + 2 * 86_400_000), 2);
      const { rows } = await admin.query(
        `SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = $1 AND relname LIKE '%e20260112'`,
        [fixture.schema],
      );
      assert.deepEqual(rows, []);
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
      await admin.query(`DROP TABLE ${fixture.schema}.request_log_batches_e20260210`);
      await admin.query(`DROP TABLE ${fixture.schema}.request_log_request_ids_e20260210`);
      const batch = [logged({ requestId: 'a', at: day + 6 }), logged({ requestId: 'b', at: day + 7 })];
      await fixture.storage.requestLog.write(batch);
      const listed = await fixture.storage.requestLog.list({ projectId: 'prj_acme', limit: 10 });
      assert.deepEqual(
        listed.map((row) => row.requestId),
        ['b', 'a'],
      );
      const found = await fixture.storage.requestLog.list({
        projectId: 'prj_acme',
        requestId: 'a',
        limit: 10,
      });
      assert.deepEqual(
        found.map((row) => row.at),
        [day + 6],
      );
    } finally {
      await fixture.dispose();
    }
  });

  it('request log batches commit without waiting for the WAL flush; pets wait for it', async () => {
    const fixture = await postgresFixture();
    const schema = fixture.schema;
    const tables = ['request_log_batches', 'request_log_request_ids', 'pets'];
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'business' }));
      // A statement trigger on each table notes the synchronous_commit its insert commits under.
      await admin.query(`CREATE TABLE ${schema}.commit_settings (tbl TEXT, setting TEXT)`);
      await admin.query(`CREATE FUNCTION ${schema}.note_commit_setting() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          INSERT INTO ${schema}.commit_settings VALUES (TG_TABLE_NAME, current_setting('synchronous_commit'));
          RETURN NULL;
        END $$`);
      for (const table of tables) {
        await admin.query(`CREATE TRIGGER note_commit_setting AFTER INSERT ON ${schema}.${table}
          FOR EACH STATEMENT EXECUTE FUNCTION ${schema}.note_commit_setting()`);
      }
      await fixture.storage.requestLog.write([logged({ requestId: 'a' }), logged({ requestId: 'b' })]);
      await fixture.storage.pets.create({ name: 'Rex', categoryId: 1n, status: 'available' });
      const { rows } = await admin.query(`SELECT tbl, setting FROM ${schema}.commit_settings ORDER BY tbl`);
      assert.deepEqual(
        rows.map((row: { tbl: string; setting: string }) => `${row.tbl} ${row.setting}`),
        ['pets on', 'request_log_batches off', 'request_log_request_ids off'],
      );
    } finally {
      // The schema is reused by the next tests: nothing of this test's may stay in it.
      for (const table of tables) {
        await admin.query(`DROP TRIGGER IF EXISTS note_commit_setting ON ${schema}.${table}`);
      }
      await admin.query(`DROP FUNCTION IF EXISTS ${schema}.note_commit_setting()`);
      await admin.query(`DROP TABLE IF EXISTS ${schema}.commit_settings`);
      await fixture.dispose();
    }
  });

  it('request log → a shorter plan’s day dropped whole while a longer plan’s requests of that day stay, request ids too', async () => {
    const fixture = await postgresFixture();
    const day = Date.UTC(2026, 0, 10);
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'free' }));
      await fixture.storage.projects.create(project('other', { plan: 'business' }));
      await fixture.storage.requestLog.write([
        logged({ requestId: 'old', at: day + 5 }),
        logged({ requestId: 'new', at: day + 7_200_000 }),
        logged({ projectId: 'prj_other', requestId: 'kept', at: day + 5 }),
      ]);
      const [kept] = await fixture.storage.requestLog.list({ projectId: 'prj_other', limit: 1 });
      // Free keeps one day: the day's batch expires at the start of the day after next.
      assert.equal(await fixture.storage.requestLog.purge(day + 2 * 86_400_000 - 1), 0);
      assert.equal(await fixture.storage.requestLog.purge(day + 2 * 86_400_000), 2);
      const ids = await admin.query(
        `SELECT project_id, request_id FROM ${fixture.schema}.request_log_request_ids ORDER BY 1, 2`,
      );
      assert.deepEqual(
        ids.rows.map(
          (row: { project_id: string; request_id: string }) => `${row.project_id} ${row.request_id}`,
        ),
        ['prj_other kept'],
      );
      assert.deepEqual(await fixture.storage.requestLog.list({ projectId: 'prj_acme', limit: 5 }), []);
      assert.deepEqual(await fixture.storage.requestLog.get('prj_other', kept!.id), kept);
    } finally {
      await fixture.dispose();
    }
  });

  it('migration 056 → requests kept as rows become batches: same requests, same order, found by id; undone → rows again', async () => {
    const fixture = await postgresFixture();
    const schema = fixture.schema;
    const rowsOf = async (projectId: string) =>
      (
        await admin.query(
          `SELECT at, request_id, key_id, key_label, operation, method, path, status, code, latency_ms, address
           FROM ${schema}.request_log WHERE project_id = $1 AND request_id != 'req-9997' ORDER BY at DESC, id DESC`,
          [projectId],
        )
      ).rows.map(
        (row: Record<string, unknown>) => ({ ...row, at: Number(row.at) }) as Record<string, unknown>,
      );
    try {
      await fixture.storage.projects.create(project('acme', { plan: 'business' }));
      await undoThrough(fixture.storage, '057_request_log_compact_rows');
      assert.equal(await fixture.storage.rollback(), '056_request_log_batches');
      const days = [T0, T0 + 86_400_000];
      const values: unknown[] = [];
      const tuples: string[] = [];
      for (let n = 0; n < 700; n++) {
        const row = request(n % 5 === 0 ? 'prj_b' : 'prj_a', n, days[n % 2]! + Math.floor(n / 3), n);
        const first = values.length + 1;
        tuples.push(`(${Array.from({ length: 12 }, (_, i) => `$${first + i}`).join(', ')})`);
        values.push(
          row.projectId,
          row.at,
          row.requestId,
          row.keyId,
          row.keyLabel,
          row.operation,
          row.method,
          row.path,
          row.status,
          row.status === 404 ? 'not_found' : null,
          row.latencyMs,
          row.address,
        );
      }
      for (const day of days) {
        const stamp = new Date(day).toISOString().slice(0, 10).replaceAll('-', '');
        const start = Math.floor(day / 86_400_000) * 86_400_000;
        await admin.query(`CREATE TABLE ${schema}.request_log_d${stamp} PARTITION OF ${schema}.request_log
          FOR VALUES FROM (${start}) TO (${start + 86_400_000})`);
      }
      await admin.query(
        `INSERT INTO ${schema}.request_log (project_id, at, request_id, key_id, key_label, operation, method, path,
           status, code, latency_ms, address) VALUES ${tuples.join(', ')}`,
        values,
      );
      const before = { a: await rowsOf('prj_a'), b: await rowsOf('prj_b') };
      assert.equal(before.a.length + before.b.length, 700);

      assert.deepEqual(requestLogOnly(await fixture.storage.migrate()), [
        '056_request_log_batches',
        '057_request_log_compact_rows',
      ]);
      await assertMovedIntoBatches(fixture.storage, before);

      await undoThrough(fixture.storage, '057_request_log_compact_rows');
      assert.equal(await fixture.storage.rollback(), '056_request_log_batches');
      assert.deepEqual(await rowsOf('prj_a'), before.a);
      assert.deepEqual(await rowsOf('prj_b'), before.b);
      assert.deepEqual(requestLogOnly(await fixture.storage.migrate()), [
        '056_request_log_batches',
        '057_request_log_compact_rows',
      ]);
      assert.deepEqual(await listedColumns(fixture.storage, 'prj_b'), before.b);
    } finally {
      await fixture.dispose();
    }
  });

  it('migration 057 → batches written compact; undone → the array form, the same requests', async () => {
    const fixture = await postgresFixture();
    try {
      await assertCompactRowsUndone(fixture.storage, async () =>
        (
          await admin.query(
            `SELECT rows FROM ${fixture.schema}.request_log_batches WHERE project_id = 'prj_c' ORDER BY id`,
          )
        ).rows.map((row: { rows: string }) => row.rows),
      );
    } finally {
      await fixture.dispose();
    }
  });

  it('migration 115 → each batch expires by its project’s plan; undone → partitions by day again, the same requests', async () => {
    const fixture = await postgresFixture();
    try {
      await fixture.storage.projects.create(project('e_free', { plan: 'free' }));
      await fixture.storage.projects.create(project('e_pro', { plan: 'pro' }));
      await assertExpiryMigrated(fixture.storage);
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
  it('ping and pets.create → StorageUnavailableError within a few seconds, not a hang', async () => {
    const storage = openStore(new PostgresStorage({ url: 'postgres://postgres@127.0.0.1:1/test' }));
    const started = performance.now();
    try {
      await assert.rejects(storage.ping(), StorageUnavailableError);
      await assert.rejects(storage.pets.create({ name: 'x', categoryId: 1n }), StorageUnavailableError);
      await assert.rejects(storage.migrate(), StorageUnavailableError);
    } finally {
      await storage.close();
    }
    assert.ok(performance.now() - started < 5_000);
  });
});
