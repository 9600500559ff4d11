import { statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { PostgresStorage } from '../packages/server/src/storage/postgres.ts';
import {
  BATCH_SLOTS,
  DAY_MS,
  encodeSlots,
} from '../packages/server/src/features/requests/request-log-batch.ts';
import {
  partitionName,
  requestIdPartitionName,
} from '../packages/server/src/features/requests/request-log-postgres.ts';
import {
  type LoggedRequest,
  type PurgeSlice,
  requestFields,
} from '../packages/server/src/features/requests/request-log-records.ts';
import { SqliteStorage } from '../packages/server/src/storage/sqlite.ts';
import { row, type Spec } from './compare.ts';
import { type Harness, SERVER_CORE } from './harness.ts';
import { createKey, seedPostgres } from './seed.ts';
import type { Row } from './table.ts';
import { openStore, type StoreOf } from '../packages/server/src/features/store.ts';

/** Projects the seeded and written traffic is spread over. */
const PROJECTS = 10_000;
/** Expiry days the seeded requests are spread over (a partition each), far ahead: the server's own purge never takes them. */
const SEEDED_DAYS = 4;
const FIRST_SEEDED_DAY = Math.floor(Date.now() / DAY_MS) + 400;
/** After every seeded day: the bench's purge at this instant drops them all. */
const PURGE_AT = (FIRST_SEEDED_DAY + SEEDED_DAYS + 1) * DAY_MS;

const request = (n: number, at: number): LoggedRequest => ({
  projectId: `prj_p${n % PROJECTS}`,
  at,
  requestId: `0190a1b2-c3d4-7e5f-8a9b-${String(n).padStart(12, '0')}`,
  keyId: 'key_bench',
  keyLabel: 'Bench',
  operation: 'getPet',
  method: 'GET',
  path: `/v1/pets/${n}`,
  status: n % 20 === 0 ? 404 : 200,
  code: n % 20 === 0 ? 'not_found' : null,
  latencyMs: (n % 400) / 100,
  address: '192.0.2.1',
});

/** The PostgreSQL database of this scenario: the --postgres-url's name with `_purge`, dropped and made again. */
const purgeUrl = (url: string) => {
  const target = new URL(url);
  target.pathname = `${target.pathname}_purge`;
  return target.href;
};

/**
 * `requests` expired requests in batches of `perBatch`, written straight into the partitions of
 * SEEDED_DAYS expiry days by set-based INSERTs, each batch's stored text a real encoded batch's.
 */
async function seedExpired(client: pg.Client, requests: number, perBatch: number): Promise<void> {
  const slots = Array.from({ length: perBatch }, (_, n) => requestFields(request(n, Date.now() + n)));
  const encoded = encodeSlots(slots);
  const batches = Math.ceil(requests / perBatch);
  for (let d = 0; d < SEEDED_DAYS; d++) {
    const day = FIRST_SEEDED_DAY + d;
    const bounds = `FROM (${(day - 1) * DAY_MS + 1}) TO (${day * DAY_MS + 1})`;
    await client.query(`CREATE TABLE IF NOT EXISTS ${partitionName(day)} PARTITION OF request_log_batches
      FOR VALUES ${bounds}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${requestIdPartitionName(day)}
      PARTITION OF request_log_request_ids FOR VALUES ${bounds}`);
    const share = Math.floor(batches / SEEDED_DAYS) + (d < batches % SEEDED_DAYS ? 1 : 0);
    await client.query(
      `INSERT INTO request_log_batches (id, project_id, first_at, last_at, id_ms_min, id_ms_max, requests,
         combinations, rows, expires_at)
       SELECT nextval('request_log_batch_id'), 'prj_p' || (g % ${PROJECTS}), $1, $2, $3, $4, $5, $6, $7, $8
       FROM generate_series(1, $9::int) g`,
      [
        encoded.firstAt,
        encoded.lastAt,
        encoded.idMsMin,
        encoded.idMsMax,
        encoded.requests,
        encoded.combinations,
        encoded.rows,
        day * DAY_MS,
        share,
      ],
    );
  }
  await client.query('CHECKPOINT');
}

async function timedPurge(storage: StoreOf<PostgresStorage>, expected: number): Promise<number> {
  const started = performance.now();
  const removed = await storage.requestLog.purge(PURGE_AT);
  const ms = performance.now() - started;
  if (removed < expected) throw new Error(`purge removed ${removed} of ${expected} requests`);
  return ms;
}

async function postgresPurge(harness: Harness): Promise<Row[]> {
  const url = purgeUrl(harness.options.postgresUrl);
  await seedPostgres(url, harness.options.pets);
  const db = { url, key: createKey(url) };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const storage = openStore(new PostgresStorage({ url, poolSize: 2 }));
  const rows: Row[] = [];
  try {
    const ms = new Map<number, number>();
    for (const [sizes, perBatch] of [
      [harness.options.purgeRows, BATCH_SLOTS],
      [[Math.min(...harness.options.purgeRows)], 1],
    ] as const) {
      for (const size of sizes) {
        await seedExpired(client, size, perBatch);
        const took = await timedPurge(storage, size);
        if (perBatch === BATCH_SLOTS) ms.set(size, took);
        rows.push({
          scenario: `purge: PostgreSQL, ${size.toLocaleString('en-US')} expired requests, ${perBatch} a batch`,
          server: 'petstore',
          p50Ms: took,
          note: `${SEEDED_DAYS} partitions dropped; ${(took / (size / 1e6) / 1000).toFixed(2)} s per million`,
        });
      }
    }
    const sizes = [...ms.keys()].sort((a, b) => a - b);
    if (sizes.length > 1) {
      const [small, large] = [sizes[0]!, sizes.at(-1)!];
      rows.push({
        scenario: 'purge: PostgreSQL, slope',
        server: 'petstore',
        note: `${((ms.get(large)! - ms.get(small)!) / ((large - small) / 1e6) / 1000).toFixed(3)} s per extra million requests (${small.toLocaleString('en-US')} → ${large.toLocaleString('en-US')})`,
      });
    }

    const target = await harness.startPetstore(db, { core: SERVER_CORE, label: 'purge-postgres' });
    try {
      const get: Spec = {
        method: 'GET',
        path: '/v1/pets/{id}',
        randomIdUpTo: harness.options.pets,
        headers: harness.auth(db),
      };
      const quiet = await harness.measure(target, get);
      rows.push(row('purge: PostgreSQL get, no purge', 'petstore', quiet));
      const largest = Math.max(...harness.options.purgeRows);
      await seedExpired(client, largest, BATCH_SLOTS);
      // The purge starts a second into the measured load, after its warm-up.
      const purging = new Promise<number>((resolve, reject) => {
        setTimeout(
          () => timedPurge(storage, largest).then(resolve, reject),
          (harness.options.warmupSeconds + 1) * 1000,
        );
      });
      const [during, took] = await Promise.all([harness.measure(target, get), purging]);
      rows.push(
        row('purge: PostgreSQL get, during a purge', 'petstore', during, {
          ratio: during.p99Ms / quiet.p99Ms,
          note: `p99 ×${(during.p99Ms / quiet.p99Ms).toFixed(2)} of no purge (ratio column); the purge of ${largest.toLocaleString('en-US')} requests took ${(took / 1000).toFixed(2)} s of the ${harness.options.durationSeconds} s`,
        }),
      );
    } finally {
      await harness.stop(target);
    }
  } finally {
    await storage.close();
    await client.end();
  }
  return rows;
}

/** Requests written a simulated day, over 100 Free projects (a day's retention), in writes of 250. */
const SQLITE_DAILY = 200_000;
const SQLITE_DAYS = 8;

/**
 * A steady load on SQLite: each simulated day SQLITE_DAILY requests, then the purge at the day's end;
 * the file's size after each day, and the longest slice of the purges (the event loop's longest hold).
 */
async function sqliteSteady(harness: Harness): Promise<Row[]> {
  const path = join(harness.workDir, 'purge-steady.db');
  const storage = openStore(new SqliteStorage(path));
  await storage.migrate();
  for (let p = 0; p < 100; p++)
    await storage.projects.create({
      id: `prj_p${p}`,
      slug: `p${p}`,
      name: `P ${p}`,
      plan: 'free',
      perMinute: null,
      perDay: null,
      createdAt: 0,
    });
  const day0 = Math.floor(Date.now() / DAY_MS);
  const sizes: string[] = [];
  // Each slice's wall time and CPU time: on a busy machine a slice's wall time also counts the time the
  // process waited for a core; its CPU time is what it held the event loop for.
  const wall: number[] = [];
  const cpu: number[] = [];
  let writeMs = 0;
  try {
    for (let d = 0; d < SQLITE_DAYS; d++) {
      const start = (day0 + d) * DAY_MS;
      const started = performance.now();
      for (let w = 0; w < SQLITE_DAILY / 250; w++)
        await storage.requestLog.write(
          Array.from({ length: 250 }, (_, i) => ({
            ...request(w * 250 + i, start + w * 1_000 + i),
            projectId: `prj_p${(w * 250 + i) % 100}`,
          })),
        );
      writeMs += performance.now() - started;
      let sliceStart = performance.now();
      let cpuStart = process.cpuUsage();
      const ended = () => {
        wall.push(performance.now() - sliceStart);
        const used = process.cpuUsage(cpuStart);
        cpu.push((used.user + used.system) / 1000);
      };
      const slice: PurgeSlice = async () => {
        ended();
        await new Promise((resolve) => setImmediate(resolve));
        sliceStart = performance.now();
        cpuStart = process.cpuUsage();
        return true;
      };
      await storage.requestLog.purge(start + DAY_MS, slice);
      ended();
      sizes.push((statSync(path).size / 1024 / 1024).toFixed(1));
    }
  } finally {
    await storage.close();
  }
  const at = (values: number[], share: number) =>
    values.sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))]!;
  return [
    {
      scenario: `purge: SQLite, ${SQLITE_DAILY.toLocaleString('en-US')} requests a day, purged daily`,
      server: 'petstore',
      note: `file MB after each of ${SQLITE_DAYS} days: ${sizes.join(', ')}; ${((writeMs * 1000) / (SQLITE_DAILY * SQLITE_DAYS)).toFixed(2)} µs a request written`,
    },
    {
      scenario: 'purge: SQLite, one slice (wall time)',
      server: 'petstore',
      p50Ms: at(wall, 0.5),
      p99Ms: at(wall, 0.99),
      note: `${wall.length} slices; longest ${at(wall, 1).toFixed(1)} ms`,
    },
    {
      scenario: 'purge: SQLite, one slice (CPU time: the event loop held)',
      server: 'petstore',
      p50Ms: at(cpu, 0.5),
      p99Ms: at(cpu, 0.99),
      note: `longest ${at(cpu, 1).toFixed(1)} ms`,
    },
  ];
}

/**
 * The request log's purge: on PostgreSQL the time to drop --purge-rows expired requests (full batches,
 * and one-request batches as when traffic is spread over many projects) and the API's p99 during a
 * purge against without one; on SQLite, the file's size under a steady write-and-purge load.
 */
export async function purgeScenario(harness: Harness): Promise<Row[]> {
  return [...(await sqliteSteady(harness)), ...(await postgresPurge(harness))];
}
