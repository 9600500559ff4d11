import { existsSync } from 'node:fs';
import {
  DEFAULT_DATABASE,
  describeDatabase,
  openStorage,
  type ReversibleStorage,
  sqliteFile,
} from '@petstore/server/operator';
import { EXIT, CliError } from './exit.ts';

/** Where the database address came from: a flag, the environment, or neither (the default). */
export type DatabaseSource = '--database' | 'DATABASE_URL' | undefined;

export function databaseSource(flag: string | undefined, env: NodeJS.ProcessEnv): DatabaseSource {
  if (flag !== undefined && flag !== '') return '--database';
  return env.DATABASE_URL ? 'DATABASE_URL' : undefined;
}

const POINT_ELSEWHERE =
  'pass --database (or set DATABASE_URL) to the database the server uses, or create a new one with "petstore migrate"';

function missing(where: string, source: DatabaseSource): CliError {
  const origin =
    source === undefined
      ? `DATABASE_URL is not set, so the default ${DEFAULT_DATABASE} was looked for in ${process.cwd()}`
      : `from ${source}`;
  return new CliError(`no database at ${where} (${origin}); ${POINT_ELSEWHERE}`, EXIT.usage);
}

/** The "using database …" line, on standard error so standard output stays the command's result. */
function announce(databaseUrl: string | undefined): void {
  console.error(`using database ${describeDatabase(databaseUrl)}`);
}

/**
 * Opens the database a server already uses, for commands that change it (keys …). A database that
 * does not exist yet, or has none of the service's tables, is refused: a key written there would be
 * refused by the running server. Pending migrations are applied (the tables may be older).
 */
export async function openExistingDatabase(
  databaseUrl: string | undefined,
  source: DatabaseSource,
): Promise<ReversibleStorage> {
  const file = sqliteFile(databaseUrl);
  if (file !== undefined && file !== ':memory:' && !existsSync(file)) throw missing(file, source);
  const storage = await openStorage(databaseUrl);
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
  announce(databaseUrl);
  return storage;
}

/** Opens a database, creating it when it does not exist yet (migrate), and says which one. */
export async function openOrCreateDatabase(
  databaseUrl: string | undefined,
): Promise<{ storage: ReversibleStorage; created: boolean }> {
  const storage = await openStorage(databaseUrl);
  try {
    const created = !(await storage.hasSchema());
    announce(databaseUrl);
    return { storage, created };
  } catch (error) {
    await storage.close();
    throw error;
  }
}
