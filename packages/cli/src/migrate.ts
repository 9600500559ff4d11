import { describeDatabase, loadConfig, openStorage } from '@petstore/server';
import { parseCommand } from './usage.ts';

const HELP = `petstore migrate [--database URL]

Applies pending database migrations (the server also applies them at start-up).
--database URL   postgres://… or a SQLite file path (default: DATABASE_URL, else ./data/petstore.db)`;

export async function runMigrate(args: string[]): Promise<number> {
  const parsed = parseCommand(args, { database: { type: 'string' } }, HELP);
  if (!parsed) return 0;
  const config = loadConfig(process.env, { database: parsed.values.database as string | undefined });
  const storage = await openStorage(config.databaseUrl);
  try {
    const applied = await storage.migrate();
    const where = describeDatabase(config.databaseUrl);
    console.log(applied.length ? `applied ${applied.join(', ')} to ${where}` : `${where} is up to date`);
    return 0;
  } finally {
    await storage.close();
  }
}
