import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import {
  assertCompactRowsUndone,
  assertExpiryMigrated,
  assertMovedIntoBatches,
  requestLogOnly,
  undoThrough,
} from './request-log-migration-checks.ts';
import { project } from './storage-contract-projects.ts';
import { request, T0 } from './storage-contract-request-log-generated.ts';
import { openStore } from '../src/features/store.ts';

describe('request log in SQLite batches', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-request-log-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('migration 054 → requests kept as rows become batches: same requests, same order, found by id; undone → rows again', async () => {
    const path = join(dir, 'migrated.db');
    const storage = openStore(new SqliteStorage(path));
    await storage.migrate();
    await undoThrough(storage, '057_request_log_compact_rows');
    assert.equal(await storage.rollback(), '054_request_log_batches');
    const raw = new DatabaseSync(path);
    const insert =
      raw.prepare(`INSERT INTO request_log (project_id, at, request_id, key_id, key_label, operation,
      method, path, status, code, latency_ms, address) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    raw.exec('BEGIN');
    for (let n = 0; n < 700; n++) {
      const row = request(n % 5 === 0 ? 'prj_b' : 'prj_a', n, T0 + Math.floor(n / 3), n);
      insert.run(
        row.projectId,
        row.at,
        row.requestId,
        row.keyId,
        row.keyLabel,
        row.operation,
        row.method,
        row.path,
        row.status,
        row.status === 404 ? 'not_found' : null,
        row.latencyMs,
        row.address,
      );
    }
    raw.exec('COMMIT');
    const asRows = (projectId: string) =>
      raw
        .prepare(
          `SELECT at, request_id, key_id, key_label, operation, method, path, status, code, latency_ms, address
           FROM request_log WHERE project_id = ? ORDER BY at DESC, id DESC`,
        )
        .all(projectId)
        .map(
          (row) => ({ ...row, at: Number(row.at), status: Number(row.status) }) as Record<string, unknown>,
        );
    const before = { a: asRows('prj_a'), b: asRows('prj_b') };
    raw.close();

    assert.deepEqual(requestLogOnly(await storage.migrate()), [
      '054_request_log_batches',
      '057_request_log_compact_rows',
    ]);
    await assertMovedIntoBatches(storage, before);

    await undoThrough(storage, '057_request_log_compact_rows');
    assert.equal(await storage.rollback(), '054_request_log_batches');
    const back = new DatabaseSync(path);
    const again = back
      .prepare(
        `SELECT at, request_id, key_id, key_label, operation, method, path, status, code, latency_ms, address
         FROM request_log WHERE project_id = ? AND request_id != 'req-9997' ORDER BY at DESC, id DESC`,
      )
      .all('prj_a')
      .map((row) => ({ ...row, at: Number(row.at), status: Number(row.status) }));
    back.close();
    assert.deepEqual(again, before.a);
    await storage.close();
  });
  it('migration 057 → batches written compact; undone → the array form, the same requests', async () => {
    const path = join(dir, 'compact.db');
    const storage = openStore(new SqliteStorage(path));
    await storage.migrate();
    const raw = new DatabaseSync(path);
    try {
      await assertCompactRowsUndone(storage, async () =>
        raw
          .prepare("SELECT rows FROM request_log_batches WHERE project_id = 'prj_c' ORDER BY id")
          .all()
          .map((row) => row.rows as string),
      );
    } finally {
      raw.close();
      await storage.close();
    }
  });

  it('migration 115 → each batch expires by its project’s plan; undone and applied again, the same requests', async () => {
    const storage = openStore(new SqliteStorage(join(dir, 'expiry.db')));
    try {
      await storage.migrate();
      await storage.projects.create(project('e_free', { plan: 'free' }));
      await storage.projects.create(project('e_pro', { plan: 'pro' }));
      await assertExpiryMigrated(storage);
    } finally {
      await storage.close();
    }
  });
});
