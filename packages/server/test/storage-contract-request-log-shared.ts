import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type { Plan } from '../src/storage/records.ts';
import { batchReads } from '../src/features/requests/request-log-batch-reads.ts';
import type { LoggedRequest, StoredRequest } from '../src/features/requests/request-log-records.ts';
import type { SqlExecutor } from '../src/storage/sql-executor.ts';
import type { StorageFixture } from './storage-contract.ts';
import { project } from './storage-contract-projects.ts';
import { request, T0 } from './storage-contract-request-log-generated.ts';

const HOUR = 3_600_000;
const PLANS: Plan[] = ['free', 'pro', 'business', 'enterprise'];

const withoutId = ({ id: _id, message: _message, ...rest }: StoredRequest) => rest;
const written = ({ message: _message, ...rest }: LoggedRequest) => rest;

/**
 * A write's batches of many projects share a page (features/requests/request-log-pages.ts): a project lists,
 * finds and gets its own requests and never another's, whatever the mix of projects, plans (pages by
 * expiry) and writes; a listing with a filter that matches nothing reads only the batches in its range.
 */
export function requestLogSharedContract(fixture: () => StorageFixture): void {
  it('requestLog → writes spread over many projects on several plans: each project lists, finds and gets its own requests, never another’s', async () => {
    const { storage } = fixture();
    const other = await fixture().open();
    let run = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 2, max: 12 }),
        fc.array(
          fc.array(fc.tuple(fc.nat(11), fc.integer({ min: 0, max: 3 * 86_400 }), fc.nat(53)), {
            maxLength: 400,
          }),
          { minLength: 1, maxLength: 6 },
        ),
        async (count, writes) => {
          const ids = Array.from({ length: count }, (_, p) => `shared_${run}_${p}`);
          run++;
          for (const [p, slug] of ids.entries())
            await storage.projects.create(project(slug, { plan: PLANS[p % PLANS.length]! }));
          const sent = new Map<string, LoggedRequest[]>(ids.map((slug) => [`prj_${slug}`, []]));
          let n = 0;
          for (const [w, write] of writes.entries()) {
            const rows = write.map(([p, seconds, pick]) =>
              request(`prj_${ids[p % count]!}`, n++, T0 + seconds * 1_000, pick),
            );
            for (const row of rows) sent.get(row.projectId)!.push(row);
            await (w % 2 === 0 ? storage : other).requestLog.write(rows);
          }
          const listed = new Map<string, StoredRequest[]>();
          for (const [projectId, rows] of sent) {
            const own = await storage.requestLog.list({ projectId, limit: 10_000 });
            listed.set(projectId, own);
            assert.ok(own.every((row) => row.projectId === projectId));
            const key = (row: Omit<LoggedRequest, 'message'>) => `${row.path} ${row.at}`;
            assert.deepEqual(
              own.map(withoutId).sort((a, b) => key(a).localeCompare(key(b))),
              rows.map(written).sort((a, b) => key(a).localeCompare(key(b))),
            );
          }
          // Another project's ids name nothing; the same request id (shared by every project) finds
          // only the project's own requests.
          for (const [projectId, own] of listed) {
            const stranger = ids.map((slug) => `prj_${slug}`).find((id) => id !== projectId)!;
            for (const row of own.slice(0, 5)) {
              assert.equal(await storage.requestLog.get(stranger, row.id), undefined);
              assert.deepEqual(await storage.requestLog.get(projectId, row.id), row);
            }
            const found = await storage.requestLog.list({ projectId, requestId: 'req-shared', limit: 1_000 });
            assert.deepEqual(
              found.map((row) => row.id).sort(),
              own
                .filter((row) => row.requestId === 'req-shared')
                .map((row) => row.id)
                .sort(),
            );
          }
        },
      ),
      { numRuns: 25, endOnFailure: true },
    );
  });

  it('requestLog.list → a filter that matches nothing reads only the batches within its time range, not the project’s whole log', async () => {
    const { storage } = fixture();
    await storage.projects.create(project('acme', { plan: 'business' }));
    await storage.projects.create(project('beta', { plan: 'free' }));
    // 48 writes an hour apart, each with requests of two projects: 48 batches of prj_acme.
    for (let h = 0; h < 48; h++)
      await storage.requestLog.write(
        Array.from({ length: 6 }, (_, i) => ({
          ...request(i % 2 === 0 ? 'prj_acme' : 'prj_beta', h * 6 + i, T0 + h * HOUR + i, 0),
          status: 429,
        })),
      );
    const sql = (storage as unknown as { sql: SqlExecutor }).sql;
    let batchesRead = 0;
    const counting: SqlExecutor = {
      all: async (text, params, name) => {
        const rows = await sql.all(text, params, name);
        if (text.includes('FROM request_log_batches b')) batchesRead += rows.length;
        return rows;
      },
      run: (text, params) => sql.run(text, params),
    };
    const reads = batchReads(counting);
    // 4xx leaves 429 to its own class, but its pattern (4__) takes the batches of 429s: each is read.
    const query = { projectId: 'prj_acme', status: '4xx' as const, limit: 50 };
    assert.deepEqual(await reads.list({ ...query, since: T0 + 20 * HOUR, until: T0 + 24 * HOUR }), []);
    assert.ok(batchesRead >= 4 && batchesRead <= 5, `${batchesRead} batches read for 4 hours`);
    batchesRead = 0;
    assert.deepEqual(await reads.list(query), []);
    assert.equal(batchesRead, 48, 'without a range, the whole log');
  });
}
