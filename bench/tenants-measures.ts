import { spawnSync } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import type { Database, Target } from './harness.ts';
import { fetchOnce, sampleProcess } from './processes.ts';
import { CLI } from './seed.ts';

/** Seconds an idle server (or set of servers) is watched. */
export const IDLE_SECONDS = 10;
/** Requests timed one after another: within the client address's budget for pages (1,200 a minute). */
export const SEQUENTIAL_REQUESTS = 300;

/** CPU (share of one core) and peak RSS of the server while nothing is asked of it. */
export async function idle(target: Target): Promise<{ cpuPercent: number; rssMb: number }> {
  const sampler = sampleProcess(target.started.pid);
  await sleep(IDLE_SECONDS * 1000);
  const { cpuSeconds, peakBytes } = sampler.stop();
  return { cpuPercent: (cpuSeconds / IDLE_SECONDS) * 100, rssMb: peakBytes / 1024 / 1024 };
}

/** p50 and p99 of GET `url` (with `host`), one request at a time, each on a new connection. */
export async function sequential(
  url: string,
  host: string | undefined,
  expected: number,
): Promise<{ p50Ms: number; p99Ms: number }> {
  const times: number[] = [];
  for (let i = 0; i < SEQUENTIAL_REQUESTS; i++) {
    const started = performance.now();
    const response = await fetchOnce(url, { headers: host === undefined ? {} : { host } });
    if (response.status !== expected) throw new Error(`GET ${url} (${host}) answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: times[Math.floor(times.length / 2)]!, p99Ms: times[Math.floor(times.length * 0.99)]! };
}

/** Wall time of `petstore keys list --limit 20` (a fresh process: start-up included). */
export function keysListMs(db: Database): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [CLI, 'keys', 'list', '--limit', '20'], {
    env: { ...process.env, DATABASE_URL: db.url },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`keys list failed: ${result.stderr}`);
  return performance.now() - started;
}

/**
 * Tuples PostgreSQL read from the product's tables (sequential-scan rows plus index fetches, summed over
 * pg_stat_user_tables) in the database of `url`, per second over IDLE_SECONDS, while the servers started
 * meanwhile sit idle. Catalog reads and autovacuum are not in it (pg_stat_database counts them too).
 */
export async function tuplesReadPerSecond(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const read = async () => {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await client.query<{ n: string }>(
      'SELECT sum(coalesce(seq_tup_read, 0) + coalesce(idx_tup_fetch, 0)) AS n FROM pg_stat_user_tables',
    );
    return Number(rows[0]!.n);
  };
  try {
    // Backends report their counts at most once a second: wait for what the start-up read to land.
    await sleep(2_000);
    const before = await read();
    await sleep(IDLE_SECONDS * 1000);
    // …and for the last second's.
    await sleep(1_500);
    return ((await read()) - before) / (IDLE_SECONDS + 1.5);
  } finally {
    await client.end();
  }
}
