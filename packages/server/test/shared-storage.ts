import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openStoreAt, type Store } from '../src/features/store.ts';

/**
 * One database that several instances of the service open, as processes sharing it would: a SQLite
 * file in a temporary directory, or a schema of its own on the test PostgreSQL server.
 */
export interface SharedStorage {
  /** Another connection to the same database (each instance opens its own). */
  open(): Promise<Store>;
  /** Removes the database (the file, or the schema). */
  cleanup(): Promise<void>;
}

export async function sharedStorage(postgresUrl: string | undefined, prefix: string): Promise<SharedStorage> {
  if (postgresUrl) {
    const schema = `petstore_test_${randomBytes(6).toString('hex')}`;
    return {
      open: () => openStoreAt(postgresUrl, { schema, poolSize: 2 }),
      async cleanup() {
        const admin = new pg.Client({ connectionString: postgresUrl });
        await admin.connect();
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        await admin.end();
      },
    };
  }
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return {
    open: () => openStoreAt(join(dir, 'shared.db')),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}
