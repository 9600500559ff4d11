import { rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStoreAt } from '../src/features/store.ts';
import { TEST_START } from './harness.ts';
import { copyMigratedSqlite } from './migrated-sqlite.ts';
import { logged } from './storage-contract-request-log.ts';

const templates = new Map<number, Promise<string>>();

/**
 * A migrated SQLite file holding project acme (as `tokenHolder` creates it) and `rows` requests logged
 * for it, one a millisecond up to TEST_START, for `makeTestApp({ copyOf })`: written once per process
 * and row count, since writing 60,000 rows costs most of a second of CPU and copying the file a few ms.
 */
export function seededRequestLog(rows: number): Promise<string> {
  let template = templates.get(rows);
  if (!template) {
    template = write(rows);
    templates.set(rows, template);
  }
  return template;
}

async function write(rows: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-request-log-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'petstore.db');
  await copyMigratedSqlite(file);
  const storage = await openStoreAt(file);
  await storage.projects.create({
    id: 'prj_acme',
    slug: 'acme',
    name: 'Project acme',
    plan: 'free',
    perMinute: null,
    perDay: null,
    createdAt: TEST_START,
  });
  for (let start = 0; start < rows; start += 10_000) {
    const count = Math.min(10_000, rows - start);
    await storage.requestLog.write(
      Array.from({ length: count }, (_, i) =>
        logged({ projectId: 'prj_acme', at: TEST_START - rows + start + i, requestId: `req-${start + i}` }),
      ),
    );
  }
  // Closing the last connection checkpoints the WAL into the file: the file is whole.
  await storage.close();
  return file;
}
