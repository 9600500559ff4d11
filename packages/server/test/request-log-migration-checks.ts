import assert from 'node:assert/strict';
import type { StoredRequest } from '../src/features/requests/request-log-records.ts';
import type { ReversibleStore, Store } from '../src/features/store.ts';
import { request, requestIdOf, T0 } from './storage-contract-request-log-generated.ts';

/**
 * Undoes the migrations after `name` (those of other areas, whatever their number), then `name`.
 * `migrate()` applies them all again; `requestLogOnly` keeps the request log's among its answer.
 */
export async function undoThrough(storage: ReversibleStore, name: string): Promise<void> {
  for (;;) {
    const undone = await storage.rollback();
    assert.ok(undone, `${name} was never applied`);
    if (undone === name) return;
  }
}

export const requestLogOnly = (applied: string[]): string[] =>
  applied.filter((name) => name <= '057_request_log_compact_rows');

/** A logged request as the rows of request_log held it: its columns without id and project_id. */
export type LogColumns = Record<string, unknown>;

const asColumns = (row: StoredRequest): LogColumns => ({
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
});

/** A project's requests as the storage lists them, newest first, as columns. */
export const listedColumns = async (storage: Pick<Store, 'requestLog'>, projectId: string) =>
  (await storage.requestLog.list({ projectId, limit: 1_000 })).map(asColumns);

/**
 * What moving rows into batches (SQLite 054, PostgreSQL 056) must keep, for the 700 requests of
 * `request(…)` logged as rows before it (`before`, newest first, per project): the same requests in the
 * same order, found by request id (req-401, and a UUIDv7 logged before), filtered, no old id naming a
 * request, and new writes getting ids above every migrated one. Writes req-9997 to prj_a.
 */
export async function assertMovedIntoBatches(
  storage: Pick<Store, 'requestLog'>,
  before: { a: LogColumns[]; b: LogColumns[] },
): Promise<void> {
  assert.deepEqual(await listedColumns(storage, 'prj_a'), before.a);
  assert.deepEqual(await listedColumns(storage, 'prj_b'), before.b);
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
}

/**
 * What undoing 057 must keep: requests stored in the compact form (null labels and codes, latencies
 * whole, in hundredths and finer, two batches) list the same once their batches have held the array form
 * and 057 is applied again. `storedRows` reads prj_c's batches' own rows: 135 is undone first, so that
 * they hold their requests again rather than their page (the listings read pages since 135, so they list
 * only once every migration is applied again).
 */
export async function assertCompactRowsUndone(
  storage: ReversibleStore,
  storedRows: () => Promise<string[]>,
): Promise<void> {
  const written = Array.from({ length: 300 }, (_, n) => ({
    ...request('prj_c', n, T0 + n * 7, n),
    code: n % 4 === 0 ? 'not_found' : null,
    latencyMs: [0.42, 40, 0.425, 1234.56][n % 4]!,
  }));
  await storage.requestLog.write(written);
  const listed = await listedColumns(storage, 'prj_c');
  assert.equal(listed.length, 300);
  await undoThrough(storage, '135_request_log_pages');
  const compact = await storedRows();
  assert.ok(compact.length === 2 && compact.every((rows) => rows.startsWith('{"v":2,')));

  await undoThrough(storage, '057_request_log_compact_rows');
  const arrays = await storedRows();
  assert.ok(arrays.length === 2 && arrays.every((rows) => rows.startsWith('[')), arrays[0]?.slice(0, 80));

  assert.deepEqual(requestLogOnly(await storage.migrate()), ['057_request_log_compact_rows']);
  assert.deepEqual(await listedColumns(storage, 'prj_c'), listed);
}

const DAY = 86_400_000;

/**
 * What migration 115 (batches that expire) must keep: undone (and 135, which folds its pages back into
 * the batches) and applied again, the same requests listed and found by id, and each batch's expiry taken from its project's plan then (a project no
 * longer there: the longest retention), so the next purge goes by plan. Writes to prj_e_free and
 * prj_e_pro, which the caller has created on those plans.
 */
export async function assertExpiryMigrated(storage: ReversibleStore): Promise<void> {
  const day = Math.floor(T0 / DAY) * DAY;
  const written = ['prj_e_free', 'prj_e_pro', 'prj_e_gone'].flatMap((projectId) =>
    Array.from({ length: 300 }, (_, n) => request(projectId, n, day + n * 1_000, n)),
  );
  await storage.requestLog.write(written);
  const listed = async () =>
    Promise.all(['prj_e_free', 'prj_e_pro', 'prj_e_gone'].map((id) => listedColumns(storage, id)));
  const before = await listed();
  assert.deepEqual(
    before.map((rows) => rows.length),
    [300, 300, 300],
  );
  await undoThrough(storage, '115_request_log_expiry_partitions');
  await storage.migrate();
  assert.deepEqual(await listed(), before);
  const found = await storage.requestLog.list({
    projectId: 'prj_e_pro',
    requestId: requestIdOf(7),
    limit: 5,
  });
  assert.deepEqual(
    found.map((row) => row.path),
    before[1]!
      .filter((row) => row.request_id === requestIdOf(7))
      .slice(0, 5)
      .map((row) => row.path),
  );
  // Free keeps a day, Pro a week, a missing project the longest retention (30 days).
  assert.equal(await storage.requestLog.purge(day + 2 * DAY), 300);
  assert.equal(await storage.requestLog.purge(day + 8 * DAY), 300);
  assert.equal(await storage.requestLog.purge(day + 31 * DAY - 1), 0);
  assert.equal(await storage.requestLog.purge(day + 31 * DAY), 300);
  assert.deepEqual(
    (await listed()).map((rows) => rows.length),
    [0, 0, 0],
  );
}
