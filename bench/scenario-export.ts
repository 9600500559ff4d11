import { execFile } from 'node:child_process';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { accessTokenRecords } from '../packages/server/src/features/access-tokens/repository.ts';
import { generateAccessToken } from '../packages/server/src/features/access-tokens/token-format.ts';
import { REQUEST_LOG_DEFAULTS } from '../packages/server/src/features/requests/request-log-writer.ts';
import type { LoggedRequest } from '../packages/server/src/features/requests/request-log-records.ts';
import { type Database, type Harness, LOAD_CORE, SERVER_CORE } from './harness.ts';
import type { Row } from './table.ts';
import { openStoreAt } from '../packages/server/src/features/store.ts';

/** The exported project's log: a day of requests, seeded through the storage (not through HTTP). */
const EXPORT_ROWS = 1_000_000;
/**
 * Rows a write stores: the request log writer's batch, as a busy project's log is written (a log of
 * small writes, as a quiet one is, takes minutes to seed and reads at about a third of the speed).
 */
const SEED_BATCH = REQUEST_LOG_DEFAULTS.batchSize;
/** How often the other tenant asks for a page of pets while the export streams. */
const PROBE_EVERY_MS = 250;
/** The targets: the other tenant's p99 and max during the export; the export's speed alone. */
const PROBE_P99_LIMIT_MS = 50;
const PROBE_MAX_LIMIT_MS = 200;
const ROWS_PER_SECOND_TARGET = 50_000;
/** Exports made back to back while the other tenant is probed: enough probes for a p99. */
const EXPORTS_BESIDE = 3;
/** How long the other tenant is probed with no export, for comparison. */
const QUIET_PROBE_MS = 10_000;

function logged(projectId: string, now: number, i: number): LoggedRequest {
  const roll = i % 100;
  const status = roll < 90 ? 200 : roll < 97 ? 404 : 429;
  return {
    projectId,
    at: now - Math.floor(((EXPORT_ROWS - i) * 86_400_000) / EXPORT_ROWS),
    requestId: `req-${i}`,
    keyId: `key_${i % 3}`,
    keyLabel: `Key ${i % 3}`,
    operation: i % 2 === 0 ? 'listPets' : 'getPet',
    method: 'GET',
    path: i % 2 === 0 ? '/v1/pets?limit=20' : `/v1/pets/${i}`,
    status,
    code: status === 200 ? null : status === 429 ? 'rate_limited' : 'not_found',
    latencyMs: 1 + (i % 17) / 10,
    address: `192.0.2.${i % 250}`,
  };
}

/** A business project with EXPORT_ROWS logged requests and a viewer's read token for it. */
async function seedExport(db: Database): Promise<{ token: string; seedSeconds: number }> {
  const storage = await openStoreAt(db.url);
  try {
    const now = Date.now();
    await storage.accounts.create({
      id: 'acc_viewer',
      email: 'viewer@example.com',
      passwordHash: 'scrypt$unused',
      createdAt: now,
    });
    await storage.projects.create({
      id: 'prj_exporter',
      slug: 'exporter',
      name: 'Exporter',
      plan: 'business',
      perMinute: null,
      perDay: null,
      createdAt: now,
    });
    await storage.projects.addMember('acc_viewer', 'prj_exporter', now, 'viewer');
    const generated = generateAccessToken();
    await accessTokenRecords(storage.sql).insert({
      id: generated.id,
      digest: generated.digest,
      accountId: 'acc_viewer',
      name: 'export',
      prefix: generated.prefix,
      scope: 'read',
      managesTokens: false,
      projectIds: ['prj_exporter'],
      createdAt: now,
      expiresAt: now + 7 * 86_400_000,
    });
    const began = performance.now();
    for (let start = 0; start < EXPORT_ROWS; start += SEED_BATCH) {
      await storage.requestLog.write(
        Array.from({ length: SEED_BATCH }, (_, k) => logged('prj_exporter', now, start + k)),
      );
    }
    return { token: generated.secret, seedSeconds: (performance.now() - began) / 1000 };
  } finally {
    await storage.close();
  }
}

/**
 * The whole NDJSON export read by curl as fast as it can (into `wc -l`, pinned to the load generator's
 * core): its lines and seconds. A client slower than the server (one counting lines in this process)
 * pushes back on the socket and hides a server that never gives the event loop back.
 */
function exportAll(origin: string, token: string): Promise<{ lines: number; seconds: number }> {
  const began = performance.now();
  const url = `${origin}/manage/v1/projects/exporter/requests`;
  const script = `curl -sSf -H "authorization: Bearer $TOKEN" -H "accept: application/x-ndjson" "$URL" | wc -l`;
  return new Promise((resolve, reject) => {
    const command = ['bash', '-c', `set -o pipefail; ${script}`];
    const [file, ...args] = LOAD_CORE === undefined ? command : ['taskset', '-c', LOAD_CORE, ...command];
    execFile(file!, args, { env: { ...process.env, TOKEN: token, URL: url } }, (error, stdout) => {
      if (error) reject(error);
      else resolve({ lines: Number(stdout.trim()), seconds: (performance.now() - began) / 1000 });
    });
  });
}

/** GET /v1/pets?limit=20 with the other tenant's key every PROBE_EVERY_MS until `stop`: each latency. */
async function probe(origin: string, key: string, stop: Promise<unknown>): Promise<number[]> {
  const { hostname, port } = new URL(origin);
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  let stopped = false;
  void stop.then(() => (stopped = true));
  const times: number[] = [];
  const pending: Promise<void>[] = [];
  const once = () =>
    new Promise<void>((resolve) => {
      const began = performance.now();
      request(
        {
          host: hostname,
          port,
          agent,
          path: '/v1/pets?limit=20',
          headers: { authorization: `Bearer ${key}` },
        },
        (response) => {
          response.resume();
          response.once('end', () => {
            times.push(performance.now() - began);
            resolve();
          });
        },
      )
        .once('error', () => resolve())
        .end();
    });
  while (!stopped) {
    // Sent on time whether or not the last one was answered: a stalled server shows as queued probes.
    pending.push(once());
    await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
  }
  await Promise.all(pending);
  agent.destroy();
  return times;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

/**
 * A viewer's read token exporting a 1,000,000-row request log as NDJSON through the management API:
 * alone (rows/s), then EXPORTS_BESIDE times back to back beside another tenant's GET /v1/pets every
 * 250 ms (its p99 and max while the exports stream). The log is seeded through the storage, in writes
 * of the request log writer's batch size, as the writer stores it.
 */
export async function exportAttack(harness: Harness): Promise<Row[]> {
  const db = await harness.sqlite(10_000);
  const { token, seedSeconds } = await seedExport(db);
  const target = await harness.startPetstore(db, { core: SERVER_CORE, label: 'export' });
  try {
    const quiet = (await probe(target.origin, db.key, sleep(QUIET_PROBE_MS))).sort((a, b) => a - b);
    const alone = await exportAll(target.origin, token);
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const probing = probe(target.origin, db.key, finished);
    const beside: { lines: number; seconds: number }[] = [];
    try {
      for (let i = 0; i < EXPORTS_BESIDE; i++) beside.push(await exportAll(target.origin, token));
    } finally {
      done();
    }
    const times = (await probing).sort((a, b) => a - b);
    const name = `export (1M-row NDJSON through /manage beside another tenant's GET every ${PROBE_EVERY_MS} ms)`;
    const rowsPerSecond = alone.lines / alone.seconds;
    const p99 = percentile(times, 0.99);
    const max = times.at(-1) ?? 0;
    return [
      {
        scenario: name,
        server: 'export alone',
        rps: rowsPerSecond,
        target: `≥ ${ROWS_PER_SECOND_TARGET.toLocaleString('en-US')} rows/s`,
        met: alone.lines === EXPORT_ROWS && rowsPerSecond >= ROWS_PER_SECOND_TARGET,
        note: `req/s column: rows/s; ${alone.lines} rows in ${alone.seconds.toFixed(1)} s; seeded in ${seedSeconds.toFixed(1)} s`,
      },
      {
        scenario: name,
        server: 'other tenant, no export',
        p50Ms: percentile(quiet, 0.5),
        p99Ms: percentile(quiet, 0.99),
        note: `max ${(quiet.at(-1) ?? 0).toFixed(0)} ms over ${quiet.length} probes`,
      },
      {
        scenario: name,
        server: 'other tenant during the export',
        p50Ms: percentile(times, 0.5),
        p99Ms: p99,
        target: `p99 < ${PROBE_P99_LIMIT_MS} ms, max < ${PROBE_MAX_LIMIT_MS} ms`,
        met:
          p99 < PROBE_P99_LIMIT_MS &&
          max < PROBE_MAX_LIMIT_MS &&
          beside.every((run) => run.lines === EXPORT_ROWS),
        note: `max ${max.toFixed(0)} ms over ${times.length} probes; ${EXPORTS_BESIDE} exports back to back, ${beside.map((run) => run.seconds.toFixed(1)).join(', ')} s`,
      },
    ];
  } finally {
    await harness.stop(target);
  }
}
