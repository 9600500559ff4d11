import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { LoggedRequest, RequestLogQuery, StatusFilter, StoredRequest } from './request-log-records.ts';
import { SqliteStorage } from './sqlite.ts';

const T0 = Date.UTC(2026, 0, 10, 12);
const KEYS = ['key_a', 'key_b', 'key_ab'];
const OPERATIONS = ['listPets', 'getPet', 'createPet'];
const STATUSES = [200, 201, 400, 404, 429, 503];

/** A UUIDv7 for a time and a sequence, as http/request-ids.ts or a client could make it. */
const uuidV7 = (ms: number, sequence: number) => {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8)}-7${(sequence % 4096).toString(16).padStart(3, '0')}-8a5e-00c0ffee0042`;
};
const V7_SHARED = uuidV7(T0 + 5, 4095);

/** Ids of three kinds: a client's own (some shared), and UUIDv7s whose times need not be near `at`. */
const requestIdOf = (n: number) =>
  n % 7 === 0
    ? 'req-shared'
    : n % 11 === 0
      ? V7_SHARED
      : n % 2 === 0
        ? uuidV7(T0 + ((n * 37) % 3_000), n)
        : `req-${n}`;

const request = (projectId: string, n: number, at: number, pick: number): LoggedRequest => ({
  projectId,
  at,
  requestId: requestIdOf(n),
  keyId: KEYS[pick % KEYS.length]!,
  keyLabel: pick % 5 === 0 ? null : `Key ${pick % KEYS.length}`,
  operation: OPERATIONS[pick % OPERATIONS.length]!,
  method: pick % 3 === 2 ? 'POST' : 'GET',
  path: `/v1/pets/${n}`,
  status: STATUSES[pick % STATUSES.length]!,
  code: null,
  latencyMs: (pick % 40) / 8,
  address: '192.0.2.1',
});

const newestFirst = (a: StoredRequest, b: StoredRequest) => b.at - a.at || Number(b.id) - Number(a.id);

/** The query's rows as a reader of every row would list them: the reference the batches must match. */
function reference(all: StoredRequest[], query: RequestLogQuery): StoredRequest[] {
  const ranges: Record<string, [number, number]> = {
    '2xx': [200, 299],
    '4xx': [400, 499],
    '429': [429, 429],
    '5xx': [500, 599],
  };
  const [low, high] =
    query.status === undefined
      ? [0, 999]
      : typeof query.status === 'number'
        ? [query.status, query.status]
        : ranges[query.status]!;
  return all
    .filter(
      (row) =>
        row.projectId === query.projectId &&
        (query.keyId === undefined || row.keyId === query.keyId) &&
        (query.operation === undefined || row.operation === query.operation) &&
        (query.requestId === undefined || row.requestId === query.requestId) &&
        row.status >= low &&
        row.status <= high &&
        (query.since === undefined || row.at >= query.since) &&
        (query.until === undefined || row.at < query.until),
    )
    .sort(newestFirst);
}

describe('request log in SQLite batches', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'petstore-request-log-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('list → any writes (overlapping times, several writers, batches split at 256), any filter and page size: every matching row once, newest first', async () => {
    let run = 0;
    const status = fc.constantFrom<StatusFilter>('2xx', '4xx', '429', '5xx', 404);
    const key = fc.constantFrom(...KEYS);
    const operation = fc.constantFrom(...OPERATIONS);
    const instant = fc.integer({ min: 0, max: 3_000 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3_000 }).chain((span) =>
          fc.array(
            fc.array(fc.tuple(fc.integer({ min: 0, max: span }), fc.nat(60)), {
              maxLength: 600,
              size: 'max',
            }),
            {
              minLength: 1,
              maxLength: 6,
            },
          ),
        ),
        fc.oneof(
          fc.constant({}),
          fc.record({ keyId: key }),
          fc.record({ status }),
          fc.record({ operation }),
          fc.record({ keyId: key, status }),
          fc.record({ operation, status, since: instant }),
          fc.record({ since: instant, until: instant }),
          fc.record({
            requestId: fc.constantFrom(
              'req-shared',
              'req-3',
              'req-nothing',
              V7_SHARED,
              requestIdOf(4),
              requestIdOf(16),
            ),
          }),
        ),
        fc.integer({ min: 1, max: 70 }),
        async (writes, filters, pageSize) => {
          const storage = new SqliteStorage(join(dir, `p${run++}.db`));
          const other = new SqliteStorage(join(dir, `p${run - 1}.db`));
          try {
            await storage.migrate();
            let n = 0;
            for (const [w, write] of writes.entries()) {
              const rows = write.map(([at, pick]) =>
                request(pick % 4 === 0 ? 'prj_b' : 'prj_a', n++, T0 + at, pick),
              );
              // Two connections take turns, as two processes on one file would.
              await (w % 2 === 0 ? storage : other).requestLog.write(rows);
            }
            const query: RequestLogQuery = {
              projectId: 'prj_a',
              ...filters,
              ...('since' in filters && { since: T0 + filters.since }),
              ...('until' in filters && { until: T0 + filters.until }),
              limit: pageSize,
            };
            const everything = [
              ...(await storage.requestLog.list({ projectId: 'prj_a', limit: 10_000 })),
              ...(await storage.requestLog.list({ projectId: 'prj_b', limit: 10_000 })),
            ];
            assert.equal(everything.length, n);
            const expected = reference(everything, query);
            const pages: StoredRequest[] = [];
            let page = await storage.requestLog.list(query);
            for (let guard = 0; page.length > 0 && guard < 1_000; guard++) {
              pages.push(...page);
              if (page.length < pageSize) break;
              const last = page.at(-1)!;
              page = await storage.requestLog.list({ ...query, before: { at: last.at, id: last.id } });
            }
            assert.deepEqual(
              pages.map((row) => row.id),
              expected.map((row) => row.id),
            );
            for (const row of expected.slice(0, 3))
              assert.deepEqual(await storage.requestLog.get('prj_a', row.id), row);
          } finally {
            await storage.close();
            await other.close();
          }
        },
      ),
      // Shrinking thousands of rows takes minutes: a failure is reported as generated.
      { numRuns: 40, endOnFailure: true },
    );
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
