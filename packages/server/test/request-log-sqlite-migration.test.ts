import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import { SqliteStorage } from '../src/storage/sqlite.ts';
import { request, requestIdOf, T0 } from './storage-contract-request-log-generated.ts';

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
    const storage = new SqliteStorage(path);
    await storage.migrate();
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

    assert.deepEqual(await storage.migrate(), ['054_request_log_batches']);
    const listed = async (projectId: string) =>
      (await storage.requestLog.list({ projectId, limit: 1_000 })).map((row) => ({
        at: row.at,
        request_id: row.requestId,
        key_id: row.keyId,
        key_label: row.keyLabel,
        operation: row.operation,
        method: row.method,
        path: row.path,
        status: row.status,
        code: row.code,
        latency_ms: row.latencyMs,
        address: row.address,
      }));
    assert.deepEqual(await listed('prj_a'), before.a);
    assert.deepEqual(await listed('prj_b'), before.b);
    const found = await storage.requestLog.list({ projectId: 'prj_a', requestId: 'req-401', limit: 5 });
    assert.deepEqual(
      found.map((row) => row.path),
      ['/v1/pets/401'],
    );
    // A UUIDv7 logged before the migration: its batch keeps no time range, the request-id table has it.
    const v7 = await storage.requestLog.list({ projectId: 'prj_a', requestId: requestIdOf(402), limit: 5 });
    assert.deepEqual(
      v7.map((row) => row.path),
      ['/v1/pets/402'],
    );
    const filtered = await storage.requestLog.list({
      projectId: 'prj_a',
      status: 404,
      keyId: 'key_a',
      limit: 1_000,
    });
    assert.deepEqual(
      filtered.map((row) => row.requestId),
      before.a.filter((row) => row.status === 404 && row.key_id === 'key_a').map((row) => row.request_id),
    );
    // Old ids name no request now; new writes get ids above every migrated one.
    for (const oldId of ['1', '256', '700'])
      assert.equal(await storage.requestLog.get('prj_a', oldId), undefined, oldId);
    const newest = (await storage.requestLog.list({ projectId: 'prj_a', limit: 1 }))[0]!;
    await storage.requestLog.write([request('prj_a', 9_997, T0, 0)]);
    const [written] = await storage.requestLog.list({ projectId: 'prj_a', requestId: 'req-9997', limit: 1 });
    assert.ok(BigInt(written!.id) > BigInt(newest.id));

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
});
