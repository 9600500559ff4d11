import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoggedRequest } from '../packages/server/src/features/requests/request-log-records.ts';
import { createRequestIds } from '../packages/server/src/http/request-ids.ts';
import type { PostgresStorage } from '../packages/server/src/storage/postgres.ts';
import { SqliteStorage } from '../packages/server/src/storage/sqlite.ts';
import { makeTestApp } from '../packages/server/test/harness.ts';
import type { Harness } from './harness.ts';
import { seedPostgres } from './seed.ts';
import type { Row } from './table.ts';
import {
  openStore,
  openStoreAt,
  type ReversibleStore,
  type StoreOf,
} from '../packages/server/src/features/store.ts';

const ROWS = 1_000_000;
const BATCH = 10_000;
const SAMPLES = 200;
const TARGET_MS = 100;

/** The service's own ids (UUIDv7, made at the request's time) for even rows, a client's for odd ones. */
let idClock = 0;
let ownIds = createRequestIds(() => idClock);
/** The id of one of the service's own, searched for in a view. */
const OWN_ID_ROW = ROWS - 12_344;
let ownIdSearched = '';
const requestIdOf = (i: number, at: number) => {
  idClock = at;
  if (i % 2 === 1) return `req-${i}`;
  const id = ownIds.next();
  if (i === OWN_ID_ROW) ownIdSearched = id;
  return id;
};

function entry(projectId: string, now: number, i: number): LoggedRequest {
  const roll = i % 100;
  const at = now - Math.floor(((ROWS - i) * 86_400_000) / ROWS);
  const status = roll < 90 ? 200 : roll < 94 ? 400 : roll < 96 ? 404 : roll < 99 ? 429 : 503;
  const operation = ['listPets', 'getPet', 'createPet'][i % 3]!;
  return {
    projectId,
    // A day of traffic: about 11 requests a second, newest last.
    at,
    requestId: requestIdOf(i, at),
    keyId: `key_${i % 3}`,
    keyLabel: `Key ${i % 3}`,
    operation,
    method: operation === 'createPet' ? 'POST' : 'GET',
    path: operation === 'getPet' ? `/v1/pets/${i}` : '/v1/pets?limit=20',
    status,
    code: status === 200 ? null : status === 429 ? 'rate_limited' : 'not_found',
    latencyMs: 1 + (i % 17) / 10,
    address: `192.0.2.${i % 250}`,
  };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

/** Where the PostgreSQL run keeps its rows; dropped and re-created (PETSTORE_BENCH_LOG_POSTGRES_URL). */
const POSTGRES_URL =
  process.env.PETSTORE_BENCH_LOG_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/petstore_bench_log';

/**
 * The dashboard's Requests tab over 1,000,000 logged requests of one project, on SQLite and (when it
 * answers) PostgreSQL: each view (the newest page, filters, a search by request id, a page deep in the
 * day) rendered SAMPLES times in process, signed in; p50 and p99 of the whole answer (session check,
 * query, page).
 */
export async function requestLogScenario(_harness?: Harness): Promise<Row[]> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-request-log-'));
  try {
    const rows = await viewsOver('sqlite', openStore(new SqliteStorage(join(dir, 'petstore.db'))));
    let postgres: ReversibleStore | undefined;
    try {
      await seedPostgres(POSTGRES_URL, 0);
      postgres = await openStoreAt(POSTGRES_URL);
    } catch (error) {
      console.error(`request-log: PostgreSQL skipped (${(error as Error).message})`);
    }
    if (postgres) {
      // Timed once the analyses the storage starts as the new day partitions fill have finished: no
      // ANALYZE of the scenario's own, so a freshly loaded day is measured as the server leaves it.
      const analysed = (postgres as StoreOf<PostgresStorage>).requestLog.analysis;
      rows.push(...(await viewsOver('postgres', postgres, () => analysed.idle())));
    }
    return rows;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function viewsOver(
  kind: string,
  storage: ReversibleStore,
  afterFill: () => Promise<void> = async () => {},
): Promise<Row[]> {
  await storage.migrate();
  const t = await makeTestApp({ storage, requestLog: false });
  try {
    const member = await t.signedInMember('acme', { plan: 'business' });
    const now = t.clock.now();
    ownIds = createRequestIds(() => idClock);
    const filled = performance.now();
    for (let start = 0; start < ROWS; start += BATCH) {
      await storage.requestLog.write(
        Array.from({ length: BATCH }, (_, k) => entry(member.projectId, now, start + k)),
      );
    }
    const fillSeconds = (performance.now() - filled) / 1000;
    await afterFill();
    const [middle] = await storage.requestLog.list({
      projectId: member.projectId,
      requestId: `req-${ROWS / 2 + 1}`,
      limit: 1,
    });
    const views: [string, string][] = [
      ['newest page', ''],
      ['status 5xx', 'status=5xx'],
      ['status 429, one key', 'status=429&key=key_1'],
      ['operation createPet, 4xx', 'operation=createPet&status=4xx'],
      ['last hour', 'range=1h'],
      ['request id search: a client’s id', `request_id=req-${ROWS - 12_345}`],
      ['request id search: the service’s own id', `request_id=${ownIdSearched}`],
      ['page at mid-day', `before=${middle!.at}.${middle!.id}`],
      // Filters each common in every stored batch but rare or never together: the worst case of
      // SQLite's batch summaries and of PostgreSQL's one-column indexes.
      ['one key’s 5xx', 'key=key_1&status=5xx'],
      ['a key with an operation it never called', 'key=key_0&operation=getPet'],
    ];
    const rows: Row[] = [];
    for (const [name, query] of views) {
      const times: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const began = performance.now();
        const response = await t.app.inject({
          url: `/dashboard/projects/acme/requests${query && `?${query}`}`,
          headers: { cookie: member.cookie },
          // Each view from its own address: the dashboard's per-address rate limit is not measured here.
          remoteAddress: `10.0.${i >> 8}.${i & 255}`,
        });
        times.push(performance.now() - began);
        if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode}`);
      }
      times.sort((a, b) => a - b);
      const p99 = percentile(times, 0.99);
      rows.push({
        scenario: `request-log: ${name}`,
        server: `petstore ${kind}, 1M rows`,
        p50Ms: percentile(times, 0.5),
        p99Ms: p99,
        target: `p99 < ${TARGET_MS} ms`,
        met: p99 < TARGET_MS,
        note: `${SAMPLES} views in process; 1M rows written in ${fillSeconds.toFixed(1)} s`,
      });
    }
    return rows;
  } finally {
    await t.close();
  }
}

if (import.meta.main) {
  for (const row of await requestLogScenario()) console.log(JSON.stringify(row));
}
