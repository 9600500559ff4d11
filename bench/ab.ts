import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { median } from './compare.ts';
import { type LoadSpec, runLoad } from './load.ts';
import {
  cpuSeconds,
  cpuSplit,
  freePort,
  type Started,
  startPinned,
  stop,
  waitForStatus,
} from './processes.ts';
import { buildCheckout, createKey, seedPostgres, seedSqlite, startNodeFlags } from './seed.ts';

const HELP = `node bench/ab.ts --a REF --b REF [options]

Interleaved A/B rounds of two versions of the server (git refs; "." is the working tree), each on its
own copy of the database, both pinned to core 0 and taking turns under wrk pinned to core 1. Prints
every round and, per side, the median and range of req/s, p99 and the server's CPU per request, and
the CPU that PostgreSQL and Redis used per request meanwhile (every postgres and redis-server
process on the machine, so other work shows up there).

  --a REF, --b REF      versions to compare (commit, branch, tag or ".")
  --a-env K=V,…         extra environment for side A (same for --b-env; REDIS_URL= turns Redis off)
  --scenario S          list (GET /v1/pets?<--query>), get (GET /v1/pets/1) or create (POST /v1/pets);
                        default list
  --query Q             list query (default limit=20&status=available)
  --database D          postgres (default) or sqlite; "sqlite,postgres" gives A the first, B the second
  --postgres-url URL    base URL; databases <name>_a and <name>_b are dropped and re-created
                        (default postgres://postgres@127.0.0.1:5432/petstore_ab)
  --redis URL|none      REDIS_URL of both servers (default redis://127.0.0.1:6379)
  --rounds N            rounds (default 10); --duration S (default 3); --warmup S (default 2, once)
  --connections N       default 64; --pets N (default 100000)
  --services-core N     pin every postgres and redis-server process to core N for the run (1, wrk's,
                        keeps them off the servers' core), and give them every core back after. Left
                        to the scheduler, a PostgreSQL backend that lands on core 0 beside the server
                        made the logged list's CPU a request jump by 40 % for whole runs. Not for
                        creates: PostgreSQL then shares wrk's core and the creates wait for it
  --together            load both servers at the same time in every round (two wrk on core 1), so
                        the machine's slow and fast spells fall on both alike: each gets about half
                        of core 0, and the req/s ratio is the ratio of their costs a request. For
                        differences of a few per cent on a machine whose speed drifts between rounds.
                        Embedded runs only: on PostgreSQL both servers' backends and Redis compete,
                        and their CPU a request counts both sides' work`;

interface Side {
  name: 'A' | 'B';
  dir: string;
  env: Record<string, string>;
}

interface Round {
  rps: number;
  p99Ms: number;
  cpuMicros: number;
  /** The part of cpuMicros spent in the kernel (sockets, file writes). */
  kernelMicros: number;
  servicesMicros: number;
  non2xx: number;
}

const ROOT = new URL('..', import.meta.url).pathname;

/** A copy of `ref` whose node_modules resolve to the working tree's, except its own workspace packages. */
function checkout(ref: string, into: string): string {
  if (ref === '.') return buildCheckout(ROOT);
  mkdirSync(into, { recursive: true });
  execFileSync('sh', ['-c', `git -C "${ROOT}" archive "${ref}" | tar -x -C "${into}"`]);
  const modules = join(into, 'node_modules');
  mkdirSync(join(modules, '@petstore'), { recursive: true });
  for (const entry of readdirSync(join(ROOT, 'node_modules'))) {
    if (entry !== '@petstore') symlinkSync(join(ROOT, 'node_modules', entry), join(modules, entry));
  }
  for (const name of readdirSync(join(into, 'packages'))) {
    symlinkSync(join(into, 'packages', name), join(modules, '@petstore', name));
  }
  return buildCheckout(into);
}

function environment(text: string | undefined): Record<string, string> {
  if (!text) return {};
  return Object.fromEntries(text.split(',').map((pair) => pair.split('=', 2) as [string, string]));
}

/** Every PostgreSQL and Redis process on the machine. */
function servicePids(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const comm = readFileSync(`/proc/${entry}/comm`, 'utf8').trim();
      if (comm === 'postgres' || comm === 'redis-server') pids.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return pids;
}

/** CPU seconds used so far by every PostgreSQL and Redis process on the machine. */
function servicesCpu(): number {
  let total = 0;
  for (const pid of servicePids()) {
    try {
      total += cpuSeconds(pid);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/**
 * Sets the CPU affinity of every PostgreSQL and Redis process (`taskset --cpu-list`), their later
 * children included: PostgreSQL forks a connection's backend from the postmaster, which passes it on.
 */
function pinServices(cores: string): void {
  for (const pid of servicePids()) {
    try {
      execFileSync('taskset', ['--cpu-list', '--pid', cores, String(pid)], { stdio: 'ignore' });
    } catch {
      // gone meanwhile
    }
  }
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      a: { type: 'string' },
      b: { type: 'string' },
      'a-env': { type: 'string' },
      'b-env': { type: 'string' },
      scenario: { type: 'string', default: 'list' },
      query: { type: 'string', default: 'limit=20&status=available' },
      database: { type: 'string', default: 'postgres' },
      'postgres-url': { type: 'string', default: 'postgres://postgres@127.0.0.1:5432/petstore_ab' },
      redis: { type: 'string', default: 'redis://127.0.0.1:6379' },
      rounds: { type: 'string', default: '10' },
      duration: { type: 'string', default: '3' },
      warmup: { type: 'string', default: '2' },
      connections: { type: 'string', default: '64' },
      pets: { type: 'string', default: '100000' },
      'services-core': { type: 'string' },
      together: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.a || !values.b) {
    console.log(HELP);
    return;
  }
  const servicesCore = values['services-core'];
  if (servicesCore !== undefined && !/^\d+$/.test(servicesCore)) {
    console.error(`--services-core must be a core number, got "${servicesCore}"\n\n${HELP}`);
    process.exit(2);
  }
  const work = mkdtempSync(join(tmpdir(), 'petstore-ab-'));
  const sides: Side[] = [
    { name: 'A', dir: checkout(values.a, join(work, 'a')), env: environment(values['a-env']) },
    { name: 'B', dir: checkout(values.b, join(work, 'b')), env: environment(values['b-env']) },
  ];
  const pets = Number(values.pets);
  const started: Started[] = [];
  try {
    if (servicesCore !== undefined) pinServices(servicesCore);
    const servers: { side: Side; server: Started; origin: string; key: string }[] = [];
    const databases = values.database.split(',');
    for (const [index, side] of sides.entries()) {
      const cli = join(side.dir, 'packages/cli/bin/petstore.js');
      let databaseUrl: string;
      if ((databases[index] ?? databases[0]) === 'sqlite') {
        databaseUrl = join(work, `${side.name}.db`);
        await seedSqlite(databaseUrl, pets, cli);
      } else {
        const url = new URL(values['postgres-url']);
        url.pathname = `${url.pathname}_${side.name.toLowerCase()}`;
        databaseUrl = url.href;
        await seedPostgres(databaseUrl, pets, cli);
      }
      const key = createKey(databaseUrl, cli);
      const port = await freePort();
      const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: databaseUrl };
      delete env.LOG_LEVEL;
      if (values.redis === 'none') delete env.REDIS_URL;
      else env.REDIS_URL = values.redis;
      Object.assign(env, side.env);
      const server = startPinned(
        '0',
        process.execPath,
        [...startNodeFlags(side.dir), cli, 'serve', '--port', `${port}`],
        {
          env,
          logFile: join(work, `${side.name}.log`),
        },
      );
      started.push(server);
      const origin = `http://127.0.0.1:${port}`;
      await waitForStatus(server, `${origin}/v1/pets?limit=1`, { authorization: `Bearer ${key}` });
      servers.push({ side, server, origin, key });
    }
    const spec = (origin: string, key: string): LoadSpec => {
      const base = {
        origin,
        connections: Number(values.connections),
        durationSeconds: Number(values.duration),
      };
      const authorization = `Bearer ${key}`;
      return values.scenario === 'create'
        ? {
            ...base,
            method: 'POST',
            path: '/v1/pets',
            headers: { authorization, 'content-type': 'application/json' },
            body: JSON.stringify({ name: 'Rex the benchmark dog', categoryId: 7, status: 'available' }),
          }
        : values.scenario === 'get'
          ? { ...base, method: 'GET', path: '/v1/pets/1', headers: { authorization } }
          : { ...base, method: 'GET', path: `/v1/pets?${values.query}`, headers: { authorization } };
    };
    for (const { origin, key } of servers) {
      await runLoad('wrk', { ...spec(origin, key), durationSeconds: Number(values.warmup) }, '1', work);
    }
    const rounds: Round[][] = [[], []];
    const measure = async (index: number): Promise<string> => {
      const { server, origin, key, side } = servers[index]!;
      const cpuBefore = cpuSplit(server.pid);
      const servicesBefore = servicesCpu();
      const result = await runLoad('wrk', spec(origin, key), '1', work);
      const requests = Math.max(1, result.requests);
      const cpuAfter = cpuSplit(server.pid);
      const measured: Round = {
        rps: result.rps,
        p99Ms: result.p99Ms,
        cpuMicros: ((cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system) * 1e6) / requests,
        kernelMicros: ((cpuAfter.system - cpuBefore.system) * 1e6) / requests,
        servicesMicros: ((servicesCpu() - servicesBefore) * 1e6) / requests,
        non2xx: result.non2xx + result.errors,
      };
      rounds[index]!.push(measured);
      return (
        `${side.name} ${Math.round(measured.rps)} req/s ${measured.cpuMicros.toFixed(1)} µs ` +
        `(kernel ${measured.kernelMicros.toFixed(1)}) p99 ${measured.p99Ms.toFixed(1)} ms` +
        (measured.non2xx > 0 ? ` (${measured.non2xx} failed)` : '')
      );
    };
    for (let round = 0; round < Number(values.rounds); round += 1) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      const line: string[] = [];
      if (values.together) line.push(...(await Promise.all([0, 1].map(measure))));
      else for (const index of order) line.push(await measure(index));
      console.log(`round ${round + 1}: ${line.join(' | ')}`);
    }
    const summary = (values: number[], digits: number) =>
      `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
    for (const [index, side] of sides.entries()) {
      const runs = rounds[index]!;
      console.log(
        `${side.name} ${values[side.name === 'A' ? 'a' : 'b']} ${JSON.stringify(side.env)}: ` +
          `req/s ${summary(
            runs.map((r) => r.rps),
            0,
          )}, CPU µs/req ${summary(
            runs.map((r) => r.cpuMicros),
            1,
          )} (kernel ${summary(
            runs.map((r) => r.kernelMicros),
            1,
          )}), ` +
          `p99 ms ${summary(
            runs.map((r) => r.p99Ms),
            1,
          )}, PostgreSQL+Redis µs/req ${summary(
            runs.map((r) => r.servicesMicros),
            1,
          )}`,
      );
    }
    const ratio = (pick: (r: Round) => number) =>
      median(rounds[1]!.map((run, i) => pick(run) / pick(rounds[0]![i]!))).toFixed(3);
    console.log(
      `B/A per round, median: req/s ${ratio((r) => r.rps)}, CPU µs/req ${ratio((r) => r.cpuMicros)}`,
    );
  } finally {
    if (servicesCore !== undefined) pinServices(`0-${availableParallelism() - 1}`);
    await Promise.all(started.map((server) => stop(server, 5_000)));
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
