import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { parseArgs } from 'node:util';

export const SCENARIOS = [
  'list',
  'list-1m',
  'get',
  'create',
  'paging',
  'workers',
  'startup',
  'postgres',
  'request-log',
  'attack',
  'export',
  'flood',
  'tenants',
  'purge',
] as const;
export type ScenarioName = (typeof SCENARIOS)[number];
export type Tool = 'wrk' | 'autocannon';

export interface BenchOptions {
  scenarios: ScenarioName[];
  durationSeconds: number;
  warmupSeconds: number;
  rounds: number;
  connections: number;
  pets: number;
  tool: Tool;
  logLevel: string | undefined;
  markdown: boolean;
  out: string | undefined;
  profileDir: string | undefined;
  startupRuns: number;
  /** Projects, verified domains and keys seeded by the tenants scenario. */
  tenants: number;
  /** Expired requests the purge scenario seeds and purges on PostgreSQL, one run per size. */
  purgeRows: number[];
  /** Keys seeded by the tenants scenario (spread over its projects). */
  tenantKeys: number;
  /** Projects and domains (and as many keys) of the tenants scenario on PostgreSQL; 0: SQLite only. */
  tenantsPostgres: number;
  tenantKeysPostgres: number;
  postgresUrl: string;
  /** Rate-limit store for the postgres scenario (the scale-out setup); empty string: none. */
  redisUrl: string;
  keep: boolean;
  /** Where the temporary directory (databases, logs) is made. */
  dir: string;
}

export const HELP = `npm run bench -- [options]

Load benchmarks of the real server (petstore serve, pinned to core 0) against a raw node:http
baseline (bench/raw-baseline.ts, same body size and content type, pinned to core 0), driven by wrk or
autocannon pinned to core 1. Prints one table: scenario, req/s, p50, p99, ratio to the baseline, RSS.

Scenarios (--scenario, comma-separated; default: all of them):
  list       GET /v1/pets?limit=20 with --pets pets
  list-1m    GET /v1/pets?limit=20&status=available at 10,000 and at 1,000,000 pets (cost growth)
  get        GET /v1/pets/{id}, random ids among the seeded pets
  create     POST /v1/pets (durable 201s)
  paging     time to walk every page (limit=100) via Link at 10,000 and --pets pets
  workers    serve --workers 2 vs one process, neither pinned
  startup    spawn to first 200 of GET /v1/pets?limit=20 (and the CPU time it took): the project as
             node direct and as npm start, the Fastify peer and raw, in turns, medians of --startup-runs;
             target: node direct at most 0.8x the Fastify peer
  postgres   list status=available and create with DATABASE_URL=--postgres-url and REDIS_URL=--redis-url
             (skipped when PostgreSQL is unreachable; without Redis when it is)
  attack     another tenant's GET /v1/pets (16 connections) alone, then while 8 posts of the worst
             passwords to /dashboard/invitation are always in flight; its p99 must stay under 50 ms;
             then a 1M-row NDJSON export of the request log (a viewer's read token) alone (rows/s,
             target >= 50,000) and beside another tenant's GET every 250 ms (p99 < 50 ms, max < 200 ms).
             Then 200,000 pipelined GET /healthz on one connection that never reads, closed after
             10 s, while the tenant's GET /v1/pets is probed every 250 ms (SQLite, and PostgreSQL at
             --postgres-url with _flood appended to its database name): p99 < 50 ms, RSS growth ≤ 50 MB
  export     the attack scenario's 1M-row export alone
  flood      the attack scenario's pipelining flood alone
  tenants    --tenants projects and verified custom domains, --tenant-keys keys vs one tenant: start-up,
             idle CPU and RSS, get and list, a docs-site request on the last domain, the TLS ask, 50k
             keys in rotation vs one, keys list --limit 20 (SQLite; with --tenants-postgres N also
             PostgreSQL, with its tuples read per idle second by 2 and 4 instances)
  purge      the request log's purge: PostgreSQL drop time per --purge-rows expired requests, get p99
             during a purge against without; SQLite file size under steady writes and purges, and
             the longest purge slice

Options:
  --scenario LIST      which scenarios to run (default: all)
  --duration S         seconds of measured load per run (default 10)
  --warmup S           seconds of unmeasured load before each run (default 5: V8 is still
                       optimising the hot paths for the first 2 to 3 s under load)
  --rounds N           server and baseline take turns N times; each reports its median round
                       (default 1; use 3 or 5 on a machine that is busy with other work)
  --connections N      concurrent connections (default 64)
  --pets N             pets seeded for list, get, create and paging (default 100000)
  --tool wrk|autocannon  load generator (default: wrk when on PATH, else autocannon)
  --log-level L        LOG_LEVEL of the server (default: unset, i.e. the server's default, info)
  --markdown           print the table as Markdown
  --out FILE           also write the table (as printed) to FILE
  --profile DIR        run the server with --cpu-prof and write its profiles to DIR
                       (summarise one with: node bench/profile-summary.ts DIR/<file>.cpuprofile)
  --startup-runs N     start-ups measured by the startup scenario (default 5)
  --tenants N          projects, domains and keys seeded by the tenants scenario (default 100000)
  --purge-rows LIST    expired requests per purge measured by the purge scenario (default
                       1000000,3000000)
  --tenant-keys N      keys seeded by the tenants scenario (default: --tenants)
  --tenants-postgres N projects, domains and keys of the tenants scenario on PostgreSQL, in databases
                       named after --postgres-url's with _tenants_one/_tenants_many (default 0: none)
  --tenant-keys-postgres N  keys of the tenants scenario on PostgreSQL (default: --tenants-postgres)
  --postgres-url URL   database for the postgres scenario; it is dropped and re-created
                       (default postgres://postgres@127.0.0.1:5432/petstore_bench)
  --redis-url URL      rate-limit store for the postgres scenario (default redis://127.0.0.1:6379;
                       used when it answers)
  --dir DIR            where to make the temporary directory for databases and logs (default: the
                       system's, ${tmpdir()}); its file system decides what a durable commit costs
  --keep               keep the temporary directory (databases, logs, wrk scripts)
  -h, --help           this text

wrk is not installed by this script: on Debian, apt-get install wrk. Without it autocannon (a dev
dependency) is used; it is a Node process and saturates one core sooner, so baselines read lower.`;

function wrkOnPath(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

function positive(name: string, text: string | undefined, fallback: number, allowZero = false): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || (!allowZero && value === 0)) {
    throw new Error(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, got "${text}"`);
  }
  return value;
}

function scenarios(text: string | undefined): ScenarioName[] {
  if (text === undefined || text === 'all') return [...SCENARIOS];
  const names = text.split(',').map((name) => name.trim());
  for (const name of names) {
    if (!SCENARIOS.includes(name as ScenarioName)) {
      throw new Error(`unknown scenario "${name}"; known: ${SCENARIOS.join(', ')}`);
    }
  }
  return names as ScenarioName[];
}

/** Parses the command line; undefined means --help was printed. */
export function readOptions(args: string[]): BenchOptions | undefined {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      scenario: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      rounds: { type: 'string' },
      connections: { type: 'string' },
      pets: { type: 'string' },
      tool: { type: 'string' },
      'log-level': { type: 'string' },
      markdown: { type: 'boolean' },
      out: { type: 'string' },
      profile: { type: 'string' },
      'startup-runs': { type: 'string' },
      tenants: { type: 'string' },
      'purge-rows': { type: 'string' },
      'tenant-keys': { type: 'string' },
      'tenants-postgres': { type: 'string' },
      'tenant-keys-postgres': { type: 'string' },
      'postgres-url': { type: 'string' },
      'redis-url': { type: 'string' },
      keep: { type: 'boolean' },
      dir: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return undefined;
  }
  const tool = values.tool ?? (wrkOnPath() ? 'wrk' : 'autocannon');
  if (tool !== 'wrk' && tool !== 'autocannon')
    throw new Error(`--tool must be wrk or autocannon, got "${tool}"`);
  if (tool === 'wrk' && !wrkOnPath()) throw new Error('--tool wrk: wrk is not on PATH (apt-get install wrk)');
  return {
    scenarios: scenarios(values.scenario),
    durationSeconds: positive('duration', values.duration, 10),
    warmupSeconds: positive('warmup', values.warmup, 5, true),
    rounds: Math.round(positive('rounds', values.rounds, 1)),
    connections: Math.round(positive('connections', values.connections, 64)),
    pets: Math.round(positive('pets', values.pets, 100_000)),
    tool,
    logLevel: values['log-level'],
    markdown: values.markdown ?? false,
    out: values.out,
    profileDir: values.profile,
    startupRuns: Math.round(positive('startup-runs', values['startup-runs'], 5)),
    tenants: Math.round(positive('tenants', values.tenants, 100_000)),
    purgeRows: (values['purge-rows'] ?? '1000000,3000000')
      .split(',')
      .map((size) => Math.round(positive('purge-rows', size, 1))),
    tenantKeys: Math.round(
      positive('tenant-keys', values['tenant-keys'], positive('tenants', values.tenants, 100_000)),
    ),
    tenantsPostgres: Math.round(positive('tenants-postgres', values['tenants-postgres'], 0, true)),
    tenantKeysPostgres: Math.round(
      positive(
        'tenant-keys-postgres',
        values['tenant-keys-postgres'],
        positive('tenants-postgres', values['tenants-postgres'], 0, true),
        true,
      ),
    ),
    postgresUrl: values['postgres-url'] ?? 'postgres://postgres@127.0.0.1:5432/petstore_bench',
    redisUrl: values['redis-url'] ?? 'redis://127.0.0.1:6379',
    keep: values.keep ?? false,
    dir: values.dir ?? tmpdir(),
  };
}
