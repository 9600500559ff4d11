import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import { loadMigrations } from '../src/storage/migrations.ts';

/** A schema of its own on the test server, migrated once and emptied between tests. */
export interface ReusableSchema {
  name: string;
  /**
   * Leaves the schema as a fresh migration leaves it: every table empty, every sequence restarted, no
   * request-log partition. A schema whose migrations a test left half undone is dropped instead, and
   * the next instance to migrate builds it again.
   */
  reset(): Promise<void>;
  drop(): Promise<void>;
}

/**
 * Migrating a schema costs about 150 ms and emptying one a few, so suites that need a fresh
 * database per test migrate once and reset after each (all instances over it closed first).
 */
export function reusableSchema(admin: pg.Pool): ReusableSchema {
  const name = `petstore_test_${randomBytes(6).toString('hex')}`;
  const drop = async () => {
    await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
  };
  const applied = (): Promise<number> =>
    admin.query<{ n: string }>(`SELECT count(*) AS n FROM ${name}.schema_migrations`).then(
      ({ rows }) => Number(rows[0]?.n),
      () => 0,
    );
  return {
    name,
    drop,
    async reset() {
      if ((await applied()) !== loadMigrations('postgres').length) return drop();
      await admin.query(`DO $$
        DECLARE
          relation record;
          blocked integer;
          removed bigint;
          deleted bigint;
        BEGIN
          FOR relation IN
            SELECT c.relname FROM pg_inherits i
            JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            WHERE n.nspname = '${name}' AND c.relkind = 'r'
          LOOP
            EXECUTE format('DROP TABLE %I.%I', '${name}', relation.relname);
          END LOOP;
          -- DELETE, not TRUNCATE (which writes new files for every table and index: 10 times slower);
          -- a table still referenced waits for the next pass. Deleting a project, a domain, a key or a
          -- token appends to host_changes (their triggers), which the catalogue may list first: the
          -- passes go on until one finds every table empty.
          FOR pass IN 1..10 LOOP
            blocked := 0;
            removed := 0;
            FOR relation IN
              SELECT tablename FROM pg_tables WHERE schemaname = '${name}' AND tablename <> 'schema_migrations'
            LOOP
              BEGIN
                EXECUTE format('DELETE FROM %I.%I', '${name}', relation.tablename);
                GET DIAGNOSTICS deleted = ROW_COUNT;
                removed := removed + deleted;
              EXCEPTION WHEN foreign_key_violation THEN
                blocked := blocked + 1;
              END;
            END LOOP;
            EXIT WHEN blocked = 0 AND removed = 0;
          END LOOP;
          IF blocked > 0 OR removed > 0 THEN
            RAISE EXCEPTION 'tables of % still referenced or written after 10 passes', '${name}';
          END IF;
          FOR relation IN SELECT sequencename FROM pg_sequences WHERE schemaname = '${name}' LOOP
            EXECUTE format('ALTER SEQUENCE %I.%I RESTART', '${name}', relation.sequencename);
          END LOOP;
        END $$`);
    },
  };
}
