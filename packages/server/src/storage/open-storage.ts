import { resolve } from 'node:path';
import type { Clock } from '../time/clock.ts';
import type { PostgresStorage } from './postgres.ts';
import type { SqliteStorage } from './sqlite.ts';

export const DEFAULT_DATABASE = './data/petstore.db';

export interface OpenStorageOptions {
  clock?: Clock;
  /** PostgreSQL only: most connections held at once (default 10). */
  poolSize?: number;
  /** PostgreSQL only: the schema to work in instead of the default search_path. */
  schema?: string;
}

function isPostgres(url: string): boolean {
  return /^postgres(ql)?:\/\//i.test(url);
}

/** `sqlite:` / `file:` prefixes are optional; `file:///abs/x.db` and `sqlite://./x.db` keep their path. */
export function sqlitePath(url: string): string {
  const path = url.replace(/^(sqlite|file):/i, '');
  return path.startsWith('//') ? path.slice(2) : path;
}

/**
 * `postgres://` or `postgresql://` opens PostgreSQL; anything else is a SQLite file path. Nothing is
 * migrated here: call `migrate()` before use. The features' repositories are built on it by
 * features/store.ts (openStore).
 */
export async function openStorage(
  databaseUrl: string | undefined,
  options: OpenStorageOptions = {},
): Promise<SqliteStorage | PostgresStorage> {
  const url = databaseUrl ?? DEFAULT_DATABASE;
  if (isPostgres(url)) {
    // Loaded on demand: the embedded default never pays for the PostgreSQL driver at start-up.
    const { PostgresStorage } = await import('./postgres.ts');
    return new PostgresStorage({
      url,
      clock: options.clock,
      poolSize: options.poolSize,
      schema: options.schema,
    });
  }
  // Loaded on demand too: a command that never opens a database (the management API's) loads neither.
  const { SqliteStorage } = await import('./sqlite.ts');
  return new SqliteStorage(sqlitePath(url), { clock: options.clock });
}

/** The absolute path of a SQLite database, or undefined for PostgreSQL. */
export function sqliteFile(databaseUrl: string | undefined): string | undefined {
  const url = databaseUrl ?? DEFAULT_DATABASE;
  if (isPostgres(url)) return undefined;
  const path = sqlitePath(url);
  return path === ':memory:' ? path : resolve(path);
}

/** A description of the database that is safe to log: never the password; a SQLite file's full path. */
export function describeDatabase(databaseUrl: string | undefined): string {
  const file = sqliteFile(databaseUrl);
  if (file !== undefined) return `sqlite ${file}`;
  const url = databaseUrl ?? DEFAULT_DATABASE;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'postgres (unparseable URL)';
  }
  parsed.password = '';
  parsed.searchParams.delete('password');
  return `postgres ${parsed.href}`;
}
