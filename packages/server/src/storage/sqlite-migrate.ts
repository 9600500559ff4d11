import type { Clock } from '../time/clock.ts';
import { loadMigrations, pendingMigrations } from './migrations.ts';
import type { SqliteDatabase } from './sqlite-database.ts';

const MIGRATIONS_TABLE =
  'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)';

/** Applies pending migrations in one write transaction (other processes wait); returns their names. */
export function migrateUp(db: SqliteDatabase, clock: Clock): string[] {
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
