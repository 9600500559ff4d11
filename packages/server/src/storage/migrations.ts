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

/**
 * The numbered do/undo SQL files of one dialect, in ascending version order. A file whose SQL is the
 * same in both dialects is kept once, in `shared/`, and read from there when the dialect's own folder
 * lacks it; a file in both places is refused, so which one runs is never in doubt.
 */
export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const own = new Set(readdirSync(new URL(`${dialect}/`, MIGRATIONS)));
  const shared = new Set(readdirSync(new URL('shared/', MIGRATIONS)));
  const read = (file: string) => {
    if (own.has(file) && shared.has(file)) {
      throw new Error(`migration ${file} is both in ${dialect}/ and in shared/: keep one`);
    }
    return readFileSync(new URL(`${own.has(file) ? dialect : 'shared'}/${file}`, MIGRATIONS), 'utf8');
  };
  const migrations = [...new Set([...own, ...shared])]
    .map((file) => FILE.exec(file))
    .filter((match) => match !== null)
    .map((match) => {
      const name = match[0].slice(0, -'.up.sql'.length);
      return { version: Number(match[1]), name, up: read(match[0]), down: read(`${name}.down.sql`) };
    })
    .sort((a, b) => a.version - b.version);
  migrations.forEach((migration, index) => {
    if (index > 0 && migration.version === migrations[index - 1]!.version) {
      throw new Error(`two ${dialect} migrations share version ${migration.version}`);
    }
  });
  return migrations;
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
