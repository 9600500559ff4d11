import { readdirSync, readFileSync } from 'node:fs';
import type { Storage } from './repository.ts';

export interface Migration {
  version: number;
  /** File stem, e.g. `001_init`. */
  name: string;
  up: string;
  down: string;
}

const FILE = /^(\d+)_[a-z0-9_]+\.up\.sql$/;

const MIGRATIONS = new URL('./migrations/', import.meta.url);

/** A migration as its file names say: no SQL read. */
interface MigrationFile {
  version: number;
  name: string;
  /** Where each of its files is: `sqlite`, `postgres` or `shared`. */
  upFolder: string;
  downFolder: string;
}

/**
 * The numbered do/undo SQL files of one dialect, by name, in ascending version order. A file whose SQL
 * is the same in both dialects is kept once, in `shared/`, and read from there when the dialect's own
 * folder lacks it; a file in both places is refused, so which one runs is never in doubt.
 */
function migrationFiles(dialect: 'sqlite' | 'postgres'): MigrationFile[] {
  const own = new Set(readdirSync(new URL(`${dialect}/`, MIGRATIONS)));
  const shared = new Set(readdirSync(new URL('shared/', MIGRATIONS)));
  const folderOf = (file: string) => {
    if (own.has(file) && shared.has(file)) {
      throw new Error(`migration ${file} is both in ${dialect}/ and in shared/: keep one`);
    }
    return own.has(file) ? dialect : 'shared';
  };
  const files = [...new Set([...own, ...shared])]
    .map((file) => FILE.exec(file))
    .filter((match) => match !== null)
    .map((match) => {
      const name = match[0].slice(0, -'.up.sql'.length);
      return {
        version: Number(match[1]),
        name,
        upFolder: folderOf(match[0]),
        downFolder: folderOf(`${name}.down.sql`),
      };
    })
    .sort((a, b) => a.version - b.version);
  files.forEach((file, index) => {
    if (index > 0 && file.version === files[index - 1]!.version) {
      throw new Error(`two ${dialect} migrations share version ${file.version}`);
    }
  });
  return files;
}

/** The migrations of one dialect with their SQL, in ascending version order (see migrationFiles). */
export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const read = (folder: string, file: string) =>
    readFileSync(new URL(`${folder}/${file}`, MIGRATIONS), 'utf8');
  return migrationFiles(dialect).map(({ version, name, upFolder, downFolder }) => ({
    version,
    name,
    up: read(upFolder, `${name}.up.sql`),
    down: read(downFolder, `${name}.down.sql`),
  }));
}

/**
 * Whether every migration of `dialect` is among `applied`, from the files' names alone: a database
 * already up to date is checked without reading any SQL or taking the migration lock.
 */
export function upToDate(dialect: 'sqlite' | 'postgres', applied: Iterable<number>): boolean {
  const done = new Set(applied);
  return migrationFiles(dialect).every((file) => done.has(file.version));
}

/** The migrations not yet recorded as applied. */
export function pendingMigrations(all: Migration[], applied: Iterable<number>): Migration[] {
  const done = new Set(applied);
  return all.filter((migration) => !done.has(migration.version));
}

/** A storage whose migrations can also be undone, newest first (operators and the migration tests). */
export interface ReversibleStorage extends Storage {
  /** Whether a migration was ever applied here: false for a new, empty database. */
  hasSchema(): Promise<boolean>;
  /** Undoes the newest applied migration; returns its name, or undefined when none is applied. */
  rollback(): Promise<string | undefined>;
}
