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

/** The numbered do/undo SQL files of one dialect, in ascending version order. */
export function loadMigrations(dialect: 'sqlite' | 'postgres'): Migration[] {
  const dir = new URL(`./migrations/${dialect}/`, import.meta.url);
  const migrations = readdirSync(dir)
    .map((file) => FILE.exec(file))
    .filter((match) => match !== null)
    .map((match) => {
      const name = match[0].slice(0, -'.up.sql'.length);
      return {
        version: Number(match[1]),
        name,
        up: readFileSync(new URL(match[0], dir), 'utf8'),
        down: readFileSync(new URL(`${name}.down.sql`, dir), 'utf8'),
      };
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
