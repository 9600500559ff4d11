import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import type {
  LoggedRequest,
  RequestLogQuery,
  StatusFilter,
  StoredRequest,
} from '../src/features/requests/request-log-records.ts';
import type { StorageFixture } from './storage-contract.ts';

export const T0 = Date.UTC(2026, 0, 10, 12);
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
export const requestIdOf = (n: number) =>
  n % 7 === 0
    ? 'req-shared'
    : n % 11 === 0
      ? V7_SHARED
      : n % 2 === 0
        ? uuidV7(T0 + ((n * 37) % 3_000), n)
        : `req-${n}`;

export const request = (projectId: string, n: number, at: number, pick: number): LoggedRequest => ({
  projectId,
  at,
  requestId: requestIdOf(n),
  // Key, operation and status vary independently: every combination occurs, in some batches only.
  keyId: KEYS[pick % 3]!,
  keyLabel: pick % 5 === 0 ? null : `Key ${pick % 3}`,
  operation: OPERATIONS[Math.floor(pick / 3) % 3]!,
  method: Math.floor(pick / 3) % 3 === 2 ? 'POST' : 'GET',
  path: `/v1/pets/${n}`,
  status: STATUSES[Math.floor(pick / 9) % STATUSES.length]!,
  code: null,
  latencyMs: (pick % 40) / 8,
  address: '192.0.2.1',
});

const MAX_PAGES = 300;

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
        !(query.status === '4xx' && row.status === 429) &&
        (query.since === undefined || row.at >= query.since) &&
        (query.until === undefined || row.at < query.until),
    )
    .sort(newestFirst);
}

/**
 * The request log's listings against a reference that reads every row, over generated writes: overlapping
 * times (batches of two writers on SQLite), ties, several hours (PostgreSQL's hour ranges), batches
 * split at 256, UUIDv7 and other request ids, every filter and page size.
 */
export function requestLogGeneratedContract(fixture: () => StorageFixture): void {
  it('requestLog.list → any writes (overlapping times and hours, two instances), any filter and page size: every matching row once, newest first', async () => {
    const { storage } = fixture();
    const other = await fixture().open();
    let run = 0;
    const status = fc.constantFrom<StatusFilter>('2xx', '4xx', '429', '5xx', 404);
    const key = fc.constantFrom(...KEYS);
    const operation = fc.constantFrom(...OPERATIONS);
    const instant = fc.integer({ min: 0, max: 3_000 });
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 3_000 }).chain((span) => {
          const row = fc.tuple(fc.integer({ min: 0, max: span }), fc.nat(53));
          // Small writes make batches that lack most combinations; large ones split at 256.
          const write = fc.oneof(
            fc.array(row, { maxLength: 6 }),
            fc.array(row, { maxLength: 600, size: 'max' }),
          );
          return fc.array(write, { minLength: 1, maxLength: 12 });
        }),
        fc.oneof(
          fc.constant({}),
          fc.record({ keyId: key }),
          fc.record({ status }),
          fc.record({ operation }),
          fc.record({ keyId: key, status }),
          fc.record({ keyId: key, operation, status }),
          fc.record({ keyId: key, since: instant }),
          fc.record({ status, since: instant, until: instant }),
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
        fc.constantFrom(1, 60_000),
        async (writes, filters, pageSize, scale) => {
          // Each run has projects of its own, on the one database.
          const a = `prj_${run}_a`;
          const b = `prj_${run++}_b`;
          let n = 0;
          {
            for (const [w, write] of writes.entries()) {
              const rows = write.map(([at, pick]) =>
                request(pick % 4 === 0 ? b : a, n++, T0 + at * scale, pick),
              );
              // Two instances take turns, as two processes or servers would.
              await (w % 2 === 0 ? storage : other).requestLog.write(rows);
            }
            const query: RequestLogQuery = {
              projectId: a,
              ...filters,
              ...('since' in filters && { since: T0 + filters.since * scale }),
              ...('until' in filters && { until: T0 + filters.until * scale }),
              limit: pageSize,
            };
            const everything = [
              ...(await storage.requestLog.list({ projectId: a, limit: 10_000 })),
              ...(await storage.requestLog.list({ projectId: b, limit: 10_000 })),
            ];
            assert.equal(everything.length, n);
            const expected = reference(everything, query);
            // Every page up to MAX_PAGES (a page of one row over thousands would take seconds); a
            // listing ends with a short or empty page.
            const pages: StoredRequest[] = [];
            let page = await storage.requestLog.list(query);
            for (let read = 1; ; read++) {
              pages.push(...page);
              if (page.length < pageSize || read === MAX_PAGES) break;
              const last = page.at(-1)!;
              page = await storage.requestLog.list({ ...query, before: { at: last.at, id: last.id } });
            }
            const whole = pages.length < MAX_PAGES * pageSize;
            assert.deepEqual(
              pages.map((row) => row.id),
              (whole ? expected : expected.slice(0, pages.length)).map((row) => row.id),
            );
            for (const row of expected.slice(0, 3))
              assert.deepEqual(await storage.requestLog.get(a, row.id), row);
          }
        },
      ),
      // Shrinking thousands of rows takes minutes: a failure is reported as generated.
      { numRuns: 40, endOnFailure: true },
    );
  });
}
