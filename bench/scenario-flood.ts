import { request } from 'node:http';
import { connect, createConnection, type Socket } from 'node:net';
import { type Database, type Harness, SERVER_CORE } from './harness.ts';
import { rssBytes } from './processes.ts';
import { createKey, seedPostgres } from './seed.ts';
import type { Row } from './table.ts';

/** The flood: pipelined GET /healthz on one connection that never reads. */
const FLOOD_REQUESTS = 200_000;
/** How long the flooding connection stays open before it closes. */
const FLOOD_SECONDS = 10;
/** How long the other tenant is probed before the flood (the machine's own noise), and once it closed. */
const BEFORE_SECONDS = 5;
const AFTER_SECONDS = 5;
/** One probe of the other tenant this often, whether or not the earlier ones were answered. */
const PROBE_EVERY_MS = 250;
/** A probe still unanswered this long after the flood closed is counted at this long. */
const PROBE_GIVE_UP_MS = 120_000;
/** The targets: the other tenant's p99 during and after the flood, the server's RSS growth. */
const P99_LIMIT_MS = 50;
const RSS_GROWTH_LIMIT_MB = 50;
/** The other tenant's own client address: the flood's per-address connection cap is not its. */
const PROBE_ADDRESS = '127.0.0.2';

const FLOOD_REQUEST = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';

interface Probe {
  phase: 'before' | 'during' | 'after';
  ms: number;
  status: number | string;
}

function probe(origin: string, key: string, phase: Probe['phase']): Promise<Probe> {
  const { hostname, port } = new URL(origin);
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number | string) => resolve({ phase, ms: performance.now() - started, status });
    const req = request(
      {
        host: hostname,
        port,
        path: '/v1/pets?limit=20',
        agent: false,
        localAddress: PROBE_ADDRESS,
        headers: { authorization: `Bearer ${key}` },
        timeout: PROBE_GIVE_UP_MS,
      },
      (response) => {
        response.resume();
        response.once('end', () => done(response.statusCode!));
      },
    );
    req.once('timeout', () => req.destroy(new Error('timeout')));
    req.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
    req.end();
  });
}

/** Writes the whole flood (as fast as the socket takes it) and never reads an answer. */
function flood(origin: string): Promise<Socket> {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      socket.pause();
      socket.write(Buffer.from(FLOOD_REQUEST.repeat(FLOOD_REQUESTS), 'latin1'));
      resolve(socket);
    });
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

const percentile = (values: number[], p: number) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

interface FloodRun {
  before: Probe[];
  during: Probe[];
  after: Probe[];
  rssGrowthMb: number;
}

async function floodOnce(harness: Harness, db: Database, label: string): Promise<FloodRun> {
  const target = await harness.startPetstore(db, { core: SERVER_CORE, label });
  try {
    // A few probes first, so what the flood adds is not the first requests' warm-up.
    for (let i = 0; i < 20; i++) await probe(target.origin, db.key, 'before');
    const probes: Promise<Probe>[] = [];
    let phase: Probe['phase'] = 'before';
    const prober = setInterval(() => probes.push(probe(target.origin, db.key, phase)), PROBE_EVERY_MS);
    await new Promise((wake) => setTimeout(wake, BEFORE_SECONDS * 1000));
    const pid = target.started.pid;
    const rssBefore = rssBytes(pid);
    let rssPeak = rssBefore;
    const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, rssBytes(pid))), 100);
    phase = 'during';
    const socket = await flood(target.origin);
    await new Promise((wake) => setTimeout(wake, FLOOD_SECONDS * 1000));
    socket.destroy();
    phase = 'after';
    await new Promise((wake) => setTimeout(wake, AFTER_SECONDS * 1000));
    clearInterval(prober);
    const answered = await Promise.all(probes);
    clearInterval(sampler);
    rssPeak = Math.max(rssPeak, rssBytes(pid));
    return {
      before: answered.filter((p) => p.phase === 'before'),
      during: answered.filter((p) => p.phase === 'during'),
      after: answered.filter((p) => p.phase === 'after'),
      rssGrowthMb: (rssPeak - rssBefore) / 1024 / 1024,
    };
  } finally {
    await harness.stop(target);
  }
}

function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = createConnection({ host: hostname, port: Number(port) || 5432 }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The bench's PostgreSQL database with `_flood` appended to its name: the flood's own, dropped first. */
async function postgresDatabase(harness: Harness): Promise<Database | undefined> {
  const url = new URL(harness.options.postgresUrl);
  if (!(await reachable(url.href))) return undefined;
  url.pathname = `${url.pathname}_flood`;
  await seedPostgres(url.href, 1_000);
  return { url: url.href, key: createKey(url.href) };
}

function rowsOf(database: string, runs: FloodRun[]): Row[] {
  const scenario = `flood (${FLOOD_REQUESTS.toLocaleString('en-US')} pipelined GET /healthz, never read, closed after ${FLOOD_SECONDS} s; ${database})`;
  return (['before', 'during', 'after'] as const).map((phase) => {
    const perRun = runs.map((run) => {
      const probes = run[phase];
      const ms = probes.map((p) => p.ms);
      return {
        p99: percentile(ms, 99),
        max: Math.max(0, ...ms),
        failed: probes.filter((p) => p.status !== 200).length,
        count: probes.length,
      };
    });
    const growth = phase === 'before' ? [] : runs.map((run) => run.rssGrowthMb);
    const worstP99 = Math.max(...perRun.map((r) => r.p99));
    const failed = perRun.reduce((sum, r) => sum + r.failed, 0);
    const spread = (values: number[], digits: number) => values.map((v) => v.toFixed(digits)).join(' / ');
    const probes = `worst run's p99; per run p99 ${spread(
      perRun.map((r) => r.p99),
      1,
    )} ms, max ${spread(
      perRun.map((r) => r.max),
      1,
    )} ms`;
    const failures = failed > 0 ? `; ${failed} probes not answered 200` : '';
    const server = `other tenant's GET /v1/pets every ${PROBE_EVERY_MS} ms, ${phase} the flood`;
    if (phase === 'before') {
      return { scenario, server, p99Ms: worstP99, note: `${probes} (the machine's own noise)${failures}` };
    }
    return {
      scenario,
      server,
      p99Ms: worstP99,
      rssMb: Math.max(...growth),
      target: `p99 < ${P99_LIMIT_MS} ms, RSS growth ≤ ${RSS_GROWTH_LIMIT_MB} MB`,
      met: worstP99 < P99_LIMIT_MS && Math.max(...growth) <= RSS_GROWTH_LIMIT_MB && failed === 0,
      note: `${probes}, RSS growth ${spread(growth, 0)} MB (rss column: the largest)${failures}`,
    };
  });
}

/**
 * One connection writes 200,000 pipelined GET /healthz and never reads, then closes after 10 s, while
 * another tenant's GET /v1/pets is sent every 250 ms from another client address, 5 s before the flood,
 * during it and 5 s after it: its p99 and max, and how much the server's RSS grew. --rounds runs each, on SQLite
 * and on PostgreSQL (when reachable at --postgres-url, in a database of its own).
 */
export async function floodScenario(harness: Harness): Promise<Row[]> {
  const rounds = Math.max(1, harness.options.rounds);
  const sqliteRuns: FloodRun[] = [];
  for (let round = 0; round < rounds; round++) {
    sqliteRuns.push(await floodOnce(harness, await harness.sqlite(1_000), `flood-sqlite-${round}`));
  }
  const rows = rowsOf('SQLite', sqliteRuns);
  const postgres = await postgresDatabase(harness);
  if (!postgres) {
    rows.push({ scenario: 'flood (PostgreSQL)', server: 'skipped', note: 'PostgreSQL not reachable' });
    return rows;
  }
  const postgresRuns: FloodRun[] = [];
  for (let round = 0; round < rounds; round++) {
    postgresRuns.push(await floodOnce(harness, postgres, `flood-postgres-${round}`));
  }
  return [...rows, ...rowsOf('PostgreSQL', postgresRuns)];
}
