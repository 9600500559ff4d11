import type { PoolClient } from 'pg';
import type { Clock } from '../time/clock.ts';
import { loadMigrations, pendingMigrations } from './migrations.ts';
import type { Row } from './rows.ts';

const MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)';

/**
 * Takes the migration lock for the rest of the caller's transaction, so instances starting together
 * apply each migration once, and returns the versions already applied.
 */
async function lockAndReadApplied(client: PoolClient, schema: string | undefined): Promise<number[]> {
  await client.query(
    "SELECT pg_advisory_xact_lock(hashtext('petstore.migrate:' || coalesce($1, current_schema(), '')))",
    [schema ?? null],
  );
  if (schema !== undefined) await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
  await client.query(MIGRATIONS_TABLE);
  const { rows } = await client.query<Row>('SELECT version FROM schema_migrations');
  return rows.map((row) => Number(row.version));
}

/** Applies pending migrations inside the caller's transaction; returns their names. */
export async function migrateUp(
  client: PoolClient,
  schema: string | undefined,
  clock: Clock,
): Promise<string[]> {
  const pending = pendingMigrations(loadMigrations('postgres'), await lockAndReadApplied(client, schema));
  for (const migration of pending) {
    await client.query(migration.up);
    await client.query('INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)', [
      migration.version,
      migration.name,
      clock.now(),
    ]);
  }
  return pending.map((migration) => migration.name);
}

/** Undoes the newest applied migration inside the caller's transaction; returns its name. */
export async function migrateDown(
  client: PoolClient,
  schema: string | undefined,
): Promise<string | undefined> {
  const applied = await lockAndReadApplied(client, schema);
  if (applied.length === 0) return undefined;
  const last = Math.max(...applied);
  const migration = loadMigrations('postgres').find((candidate) => candidate.version === last);
  if (!migration) throw new Error(`applied migration ${last} has no undo file`);
  await client.query(migration.down);
  await client.query('DELETE FROM schema_migrations WHERE version = $1', [last]);
  return migration.name;
}
