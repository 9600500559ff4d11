import { rmSync } from 'node:fs';
import { copyFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStoreAt } from '../src/features/store.ts';

let template: Promise<string> | undefined;

/**
 * Writes a freshly migrated SQLite database at `path` (its directory must exist): a copy of one
 * migrated once per process, which costs a millisecond where migrating costs about a hundred (a hundred
 * statements, then a synchronous commit). For suites whose subject is not the migration itself.
 */
export async function copyMigratedSqlite(path: string): Promise<void> {
  template ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-template-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'petstore.db');
    const storage = await openStoreAt(file);
    await storage.migrate();
    // Closing the last connection checkpoints the WAL into the file and removes it: the file is whole.
    await storage.close();
    return file;
  })();
  await copyFile(await template, path);
}
