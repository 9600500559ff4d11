import { spawnSync } from 'node:child_process';
import { DatabaseSync } from 'node:sqlite';
import { row, type Spec } from './compare.ts';
import { type Database, type Harness, SERVER_CORE, type Target } from './harness.ts';
import { fetchOnce, sampleProcess } from './processes.ts';
import { CLI } from './seed.ts';
import type { Row } from './table.ts';

/** Seconds the idle server is watched for its CPU time and RSS. */
const IDLE_SECONDS = 10;
/** Far in the future: no seeded domain is due a DNS check during the run. */
const NOT_DUE = 4_102_444_800_000;
const T0 = Date.UTC(2026, 0, 1);

/**
 * `tenants` projects on Pro, each with a verified custom domain `t<n>.tenants.example` (primary) and a
 * key, written into the product's own tables with set-based INSERTs (the triggers of migration 090
 * run as for any write); the last domain is the one asked for.
 */
export function seedTenants(path: string, tenants: number): string {
  const db = new DatabaseSync(path);
  db.exec('PRAGMA synchronous = OFF');
  db.exec('BEGIN');
  const each = `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${tenants - 1})`;
  db.exec(`${each} INSERT INTO projects (id, slug, name, plan, per_minute, per_day, created_at)
    SELECT 'prj_t' || i, 't' || i, 'Tenant ' || i, 'pro', NULL, NULL, ${T0} FROM n`);
  db.exec(`${each} INSERT INTO custom_domains (hostname, project_id, apex, token, state, reason, is_primary,
      checks, created_at, verified_at, checked_at, next_check_at, check_failures, proof_txt)
    SELECT 't' || i || '.tenants.example', 'prj_t' || i, 0, 'token', 'verified', NULL, 1,
      '{"records":[],"warnings":[]}', ${T0}, ${T0}, ${T0}, ${NOT_DUE}, 0, 0 FROM n`);
  db.exec(`${each} INSERT INTO api_keys (id, digest, project_id, prefix, plan, per_minute, per_day, label,
      environment, created_at, expires_at)
    SELECT 'key_t' || printf('%012d', i), lower(hex(randomblob(32))), 'prj_t' || i, NULL, 'pro', NULL, NULL,
      NULL, 'test', ${T0} + i, NULL FROM n`);
  db.exec('COMMIT');
  db.close();
  return `t${tenants - 1}.tenants.example`;
}

/** CPU (share of one core) and peak RSS of the server while nothing is asked of it. */
async function idle(target: Target): Promise<{ cpuPercent: number; rssMb: number }> {
  const sampler = sampleProcess(target.started.pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const { cpuSeconds, peakBytes } = sampler.stop();
  return { cpuPercent: (cpuSeconds / IDLE_SECONDS) * 100, rssMb: peakBytes / 1024 / 1024 };
}

/** Site requests timed one after another: within the client address's budget for pages (1,200 a minute). */
const SITE_REQUESTS = 300;

/** p50 and p99 of GET / on `host` (a docs site), one request at a time, each on a new connection. */
async function siteLatency(target: Target, host: string): Promise<{ p50Ms: number; p99Ms: number }> {
  const times: number[] = [];
  for (let i = 0; i < SITE_REQUESTS; i++) {
    const started = performance.now();
    const response = await fetchOnce(`${target.origin}/`, { headers: { host } });
    if (response.status !== 200) throw new Error(`GET / on ${host} answered ${response.status}`);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50Ms: times[Math.floor(times.length / 2)]!, p99Ms: times[Math.floor(times.length * 0.99)]! };
}

/** Wall time of `petstore keys list --limit 20` (a fresh process: start-up included). */
function keysListMs(db: Database): number {
  const started = performance.now();
  const result = spawnSync(process.execPath, [CLI, 'keys', 'list', '--limit', '20'], {
    env: { ...process.env, DATABASE_URL: db.url },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`keys list failed: ${result.stderr}`);
  return performance.now() - started;
}

interface Side {
  name: string;
  db: Database;
  host: string;
}

/**
 * One server on a database with `--tenants` projects, verified domains and keys against one with a
 * single tenant, in the same run: start-up, idle CPU and RSS, get req/s and p99, a docs-site request on
 * the last domain, and `keys list --limit 20`.
 */
export async function tenantsScenario(harness: Harness): Promise<Row[]> {
  const { pets, tenants } = harness.options;
  const sides: Side[] = [];
  for (const [name, count] of [
    ['one tenant', 1],
    [`${tenants.toLocaleString('en-US')} tenants`, tenants],
  ] as const) {
    const db = await harness.sqlite(pets);
    const started = performance.now();
    const host = seedTenants(db.url, count);
    console.error(
      `seeded ${count.toLocaleString('en-US')} tenants in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );
    sides.push({ name, db, host });
  }
  const rows: Row[] = [];
  for (const side of sides) {
    const target = await harness.startPetstore(side.db, {
      core: SERVER_CORE,
      label: `tenants-${side.db.url.length}`,
    });
    try {
      const quiet = await idle(target);
      rows.push({
        scenario: 'tenants: start-up, then idle 10 s',
        server: side.name,
        p50Ms: target.startupMs,
        rssMb: quiet.rssMb,
        note: `start-up to first 200 (p50 column); idle CPU ${quiet.cpuPercent.toFixed(2)} % of a core`,
      });
      const get: Spec = {
        method: 'GET',
        path: '/v1/pets/{id}',
        randomIdUpTo: pets,
        headers: harness.auth(side.db),
      };
      rows.push(row('tenants: get (random ids)', side.name, await harness.measure(target, get)));
      rows.push({
        scenario: 'tenants: docs site on the last domain',
        server: side.name,
        ...(await siteLatency(target, side.host)),
        note: `${SITE_REQUESTS} requests one at a time, each on a new connection`,
      });
    } finally {
      await harness.stop(target);
    }
    rows.push({
      scenario: 'tenants: keys list --limit 20 (process)',
      server: side.name,
      p50Ms: keysListMs(side.db),
      note: 'wall time of a fresh CLI process',
    });
  }
  return rows;
}
