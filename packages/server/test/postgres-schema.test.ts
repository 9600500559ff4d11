import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { openStore } from '../src/features/store.ts';
import { PostgresStorage } from '../src/storage/postgres.ts';
import { reusableSchema } from './postgres-schema.ts';
import { service } from './services.ts';
import { newKey } from './storage-contract-keys.ts';
import { project } from './storage-contract-projects.ts';

const postgres = await service('postgres');
const skip = 'skip' in postgres ? postgres.skip : false;
const url = 'url' in postgres ? postgres.url : '';

/**
 * Deleting a row of `table` writes a row into `other` (once: only the seed's deletion does), as
 * deleting a project, a domain, a key or a token appends to host_changes. Between two such tables one
 * is listed after the other, whichever order the catalogue lists them in.
 */
const echoOnDelete = (schema: string, table: string, other: string) => `
  CREATE TABLE ${schema}.${table} (note TEXT NOT NULL);
  CREATE FUNCTION ${schema}.${table}_echo() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF OLD.note = 'seed' THEN INSERT INTO ${schema}.${other} (note) VALUES ('echo'); END IF;
    RETURN NULL;
  END $$;
  CREATE TRIGGER ${table}_echo AFTER DELETE ON ${schema}.${table} FOR EACH ROW EXECUTE FUNCTION ${schema}.${table}_echo();`;

describe('reusable PostgreSQL schema', { skip }, () => {
  it('reset → every table empty and the feed starting again at 1, though deleting some rows writes rows of a table already emptied', async () => {
    const admin = new pg.Pool({ connectionString: url, max: 2 });
    const shared = reusableSchema(admin);
    const storage = openStore(new PostgresStorage({ url, schema: shared.name, poolSize: 2 }));
    try {
      await storage.migrate();
      await storage.projects.create(project('acme'));
      await storage.keys.create(newKey('key_1'));
      await admin.query(
        echoOnDelete(shared.name, 'ping', 'pong') + echoOnDelete(shared.name, 'pong', 'ping'),
      );
      await admin.query(
        `INSERT INTO ${shared.name}.ping VALUES ('seed'); INSERT INTO ${shared.name}.pong VALUES ('seed')`,
      );
      await storage.close();

      await shared.reset();

      const { rows } = await admin.query<{ relname: string; n: string }>(
        `SELECT 'ping' AS relname, count(*) AS n FROM ${shared.name}.ping
         UNION ALL SELECT 'pong', count(*) FROM ${shared.name}.pong
         UNION ALL SELECT 'host_changes', count(*) FROM ${shared.name}.host_changes
         UNION ALL SELECT 'projects', count(*) FROM ${shared.name}.projects
         UNION ALL SELECT 'api_keys', count(*) FROM ${shared.name}.api_keys`,
      );
      assert.deepEqual(
        rows.filter((row) => row.n !== '0'),
        [],
        'no table keeps a row',
      );
      const reopened = openStore(new PostgresStorage({ url, schema: shared.name, poolSize: 2 }));
      try {
        assert.equal(await reopened.changes.newest(), 0);
        await reopened.changes.publish({ hostname: 'www.example.com' });
        assert.deepEqual(
          (await reopened.changes.since(0, 10)).map((change) => [change.seq, change.hostname]),
          [[1, 'www.example.com']],
        );
      } finally {
        await reopened.close();
      }
    } finally {
      await storage.close();
      await shared.drop();
      await admin.end();
    }
  });
});
