import { commandConfig, openOrCreateDatabase } from './database.ts';
import { type CliIo, say } from './io.ts';
import { parseCommand, stringOption } from './usage.ts';

const HELP = `petstore migrate [--database URL]

Applies pending database migrations (the server also applies them at start-up). Creates the database
when it does not exist yet: this and "petstore serve" are the commands that may create one.
--database URL   postgres://… or a SQLite file path (default: DATABASE_URL, else ./data/petstore.db)`;

export async function runMigrate(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'migrate', args, { database: { type: 'string' } }, HELP);
  if (!parsed) return 0;
  const flag = stringOption(parsed, 'database');
  const config = commandConfig(io, { database: flag });
  const { storage, created } = await openOrCreateDatabase(io, config.databaseUrl);
  try {
    const applied = await storage.migrate();
    if (created) say(io, `created a new database and applied ${applied.join(', ')}`);
    else say(io, applied.length ? `applied ${applied.join(', ')}` : 'the database is up to date');
    return 0;
  } finally {
    await storage.close();
  }
}
