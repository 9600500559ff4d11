import type { Clock } from '../time/clock.ts';
import { loadMigrations, pendingMigrations, upToDate } from './migrations.ts';
import type { SqliteDatabase } from './sqlite-database.ts';

const MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)';

/** The versions applied, read without a write lock; none when the table is not there yet. */
function appliedVersions(db: SqliteDatabase): number[] {
  const table = db.get(
    "SELECT 1 AS found FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'",
  );
  if (table === undefined) return [];
  return db.all('SELECT version FROM schema_migrations').map((row) => Number(row.version));
}

/**
 * Applies pending migrations in one write transaction (other processes wait); returns their names.
 * An up-to-date database is told by a read: no write lock (a busy server holds it often), no SQL file.
 */
export function migrateUp(db: SqliteDatabase, clock: Clock): string[] {
  if (upToDate('sqlite', appliedVersions(db))) return [];
  return db.transaction(() => {
    db.exec(MIGRATIONS_TABLE);
    const applied = db.all('SELECT version FROM schema_migrations').map((row) => Number(row.version));
    const pending = pendingMigrations(loadMigrations('sqlite'), applied);
    for (const migration of pending) {
      db.exec(migration.up);
      db.run(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
        migration.version,
        migration.name,
        clock.now(),
      );
    }
    return pending.map((migration) => migration.name);
  });
}

/** Undoes the newest applied migration; returns its name, or undefined when none is applied. */
export function migrateDown(db: SqliteDatabase): string | undefined {
  return db.transaction(() => {
    db.exec(MIGRATIONS_TABLE);
    const last = db.get('SELECT max(version) AS version FROM schema_migrations')!.version;
    if (last === null) return undefined;
    const migration = loadMigrations('sqlite').find((candidate) => candidate.version === Number(last));
    if (!migration) throw new Error(`applied migration ${last} has no undo file`);
    db.exec(migration.down);
    db.run('DELETE FROM schema_migrations WHERE version = ?', migration.version);
    return migration.name;
  });
}
