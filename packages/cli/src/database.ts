import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Config, type ConfigFlags, loadConfig } from '@petstore/server/config.ts';
import {
  DEFAULT_DATABASE,
  describeDatabase,
  sqliteFile,
  sqlitePath,
} from '@petstore/server/storage/open-storage.ts';
import { openStoreAt, type ReversibleStore } from '@petstore/server/features/store.ts';
import { EXIT, CliError } from './exit.ts';
import { type CliIo, note } from './io.ts';

/** Where the database address came from: a flag, the environment, or neither (the default). */
type DatabaseSource = '--database' | 'DATABASE_URL' | undefined;

function databaseSource(flag: string | undefined, env: NodeJS.ProcessEnv): DatabaseSource {
  if (flag !== undefined && flag !== '') return '--database';
  return env.DATABASE_URL ? 'DATABASE_URL' : undefined;
}

const POINT_ELSEWHERE =
  'pass --database (or set DATABASE_URL) to the database the server uses, or create a new one with "petstore migrate"';

function missing(io: CliIo, where: string, source: DatabaseSource): CliError {
  const origin =
    source === undefined
      ? `DATABASE_URL is not set, so the default ${DEFAULT_DATABASE} was looked for in ${io.cwd}`
      : `from ${source}`;
  return new CliError(`no database at ${where} (${origin}); ${POINT_ELSEWHERE}`, EXIT.usage);
}

/** The "using database …" line, on standard error so standard output stays the command's result. */
function announce(io: CliIo, databaseUrl: string | undefined): void {
  note(io, `using database ${describeDatabase(databaseUrl)}`);
}

/**
 * Opens the database a server already uses, for commands that change it (keys …). A database that
 * does not exist yet, or has none of the service's tables, is refused: a key written there would be
 * refused by the running server. Pending migrations are applied (the tables may be older).
 */
async function openExistingDatabase(
  io: CliIo,
  databaseUrl: string | undefined,
  source: DatabaseSource,
): Promise<ReversibleStore> {
  const file = sqliteFile(databaseUrl);
  if (file !== undefined && file !== ':memory:' && !existsSync(file)) throw missing(io, file, source);
  const storage = await openStoreAt(databaseUrl);
  try {
    if (!(await storage.hasSchema())) {
      throw new CliError(
        `${describeDatabase(databaseUrl)} has no Pet Store tables, so it is not a server's database; ${POINT_ELSEWHERE}`,
        EXIT.usage,
      );
    }
    await storage.migrate();
  } catch (error) {
    await storage.close();
    throw error;
  }
  // Operator commands say their mode: the database here, the management API with an access token.
  const named = source ?? `the default ${DEFAULT_DATABASE}: no --database or DATABASE_URL was given`;
  note(io, `petstore: operator mode on the database ${describeDatabase(databaseUrl)} (${named})`);
  return storage;
}

/** Opens a database, creating it when it does not exist yet (migrate), and says which one. */
export async function openOrCreateDatabase(
  io: CliIo,
  databaseUrl: string | undefined,
): Promise<{ storage: ReversibleStore; created: boolean }> {
  const storage = await openStoreAt(databaseUrl);
  try {
    const created = !(await storage.hasSchema());
    announce(io, databaseUrl);
    return { storage, created };
  } catch (error) {
    await storage.close();
    throw error;
  }
}

/**
 * The server's settings (`--database` over DATABASE_URL), with a relative SQLite path resolved against
 * the command's directory.
 */
export function commandConfig(io: CliIo, flags: ConfigFlags = {}): Config {
  const config = loadConfig(io.env, flags);
  const url = config.databaseUrl ?? DEFAULT_DATABASE;
  if (sqliteFile(url) === undefined) return config;
  const path = sqlitePath(url);
  return { ...config, databaseUrl: path === ':memory:' ? path : resolve(io.cwd, path) };
}

/** The settings and the database of a running server, for the commands that change it. */
export async function openServerDatabase(
  io: CliIo,
  flag: string | undefined,
): Promise<{ config: Config; storage: ReversibleStore }> {
  const config = commandConfig(io, { database: flag });
  const storage = await openExistingDatabase(io, config.databaseUrl, databaseSource(flag, io.env));
  return { config, storage };
}
