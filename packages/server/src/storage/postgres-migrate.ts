import type { PoolClient, QueryConfig } from 'pg';
import type { Clock } from '../time/clock.ts';
import { loadMigrations, pendingMigrations } from './migrations.ts';
import type { Row } from './rows.ts';

const MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)';

/**
 * How long a migration may take, and an instance starting meanwhile may wait for its lock: far beyond
 * the 5 s every other statement gets (postgres-pool.ts), as migrations that move or rebuild the request
 * log take seconds per million logged rows (docs/operations.md).
 */
export const MIGRATION_TIMEOUT_MS = 3_600_000;

/** A statement of the migration's transaction, given the migration's time on both sides of the wire. */
function long(client: PoolClient, text: string, values?: unknown[]) {
  const query: QueryConfig & { query_timeout: number } = {
    text,
    values,
    query_timeout: MIGRATION_TIMEOUT_MS + 60_000,
  };
  return client.query<Row>(query);
}

/**
 * Takes the migration lock for the rest of the caller's transaction, so instances starting together
 * apply each migration once, and returns the versions already applied.
 */
async function lockAndReadApplied(client: PoolClient, schema: string | undefined): Promise<number[]> {
  await client.query(`SET LOCAL statement_timeout = ${MIGRATION_TIMEOUT_MS}`);
  await long(
    client,
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
    await long(client, migration.up);
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
  await long(client, migration.down);
  await client.query('DELETE FROM schema_migrations WHERE version = $1', [last]);
  return migration.name;
}
