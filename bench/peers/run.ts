import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { Harness, LOAD_CORE } from '../harness.ts';
import { type LoadSpec, runLoad } from '../load.ts';
import type { BenchOptions } from '../options.ts';
import { fetchOnce, type Response } from '../processes.ts';
import { buildCheckout } from '../seed.ts';
import { emptyResults, report, type Results, type Scenario, SCENARIOS } from './report.ts';
import { peakRssBytes, type Server, type ServerName, SERVERS, Servers } from './servers.ts';

const HELP = `npm run bench:peers -- [options]

Raw node:http, the project as it ships (petstore serve, request log on), a Fastify 5 peer (without and
with its request log) and an Express 5 peer (bench/peers/), in one run: GET /v1/pets?limit=20,
GET /v1/pets/{id} (random ids) and durable POST /v1/pets. Every server is pinned to core 0 and
wrk -t1 -c64 --latency to core 1; a warm-up pass, then --rounds rounds with the order of the servers
rotated; medians with ranges, p99, start-up to the first 200, peak RSS (VmHWM), ratios.

Options:
  --quick              a smoke test: 1 round of 2 s after a 2 s warm-up (flags below still apply)
  --rounds N           measured rounds (default 3); also the start-ups timed per server
  --duration S         seconds of each measured run (default 5)
  --warmup S           seconds of each warm-up run (default: --duration)
  --pets N             pets seeded in every database (default 10000)
  --connections N      wrk connections (default 64)
  --out FILE           also write the results (Markdown) to FILE
  --dir DIR            where to make the temporary directory (default ${tmpdir()})
  --keep               keep the temporary directory (databases, server logs)
  -h, --help           this text

Needs wrk and taskset on the PATH (bash scripts/ensure-bench-tools.sh installs wrk).`;

interface Options {
  rounds: number;
  duration: number;
  warmup: number;
  pets: number;
  connections: number;
  out: string | undefined;
  dir: string;
  keep: boolean;
}

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`--${name} must be a positive integer, got "${text}"`);
  return value;
}

function readOptions(args: string[]): Options | undefined {
  const { values } = parseArgs({
    args,
    strict: true,
    options: {
      quick: { type: 'boolean' },
      rounds: { type: 'string' },
      duration: { type: 'string' },
      warmup: { type: 'string' },
      pets: { type: 'string' },
      connections: { type: 'string' },
      out: { type: 'string' },
      dir: { type: 'string' },
      keep: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return undefined;
  }
  const quick = values.quick ?? false;
  const duration = positive('duration', values.duration, quick ? 2 : 5);
  return {
    rounds: positive('rounds', values.rounds, quick ? 1 : 3),
    duration,
    warmup: positive('warmup', values.warmup, duration),
    pets: positive('pets', values.pets, 10_000),
    connections: positive('connections', values.connections, 64),
    out: values.out,
    dir: values.dir ?? tmpdir(),
    keep: values.keep ?? false,
  };
}

function requireTools(): void {
  if (Number(process.versions.node.split('.')[0]) < 24)
    throw new Error(`Node ${process.version}: run with Node 24`);
  for (const [tool, args] of [
    ['taskset', ['-V']],
    ['wrk', ['--version']],
  ] as const) {
    if (spawnSync(tool, args, { stdio: 'ignore' }).error)
      throw new Error(`${tool} is not on the PATH (bash scripts/ensure-bench-tools.sh)`);
  }
}

/** The existing harness seeds the project's databases and starts it and the raw baseline. */
function harnessOptions(options: Options): BenchOptions {
  return {
    scenarios: [],
    durationSeconds: options.duration,
    warmupSeconds: 0,
    rounds: options.rounds,
    connections: options.connections,
    pets: options.pets,
    tool: 'wrk',
    logLevel: undefined,
    markdown: true,
    out: undefined,
    profileDir: undefined,
    startupRuns: options.rounds,
    tenants: 1,
    purgeRows: [],
    tenantKeys: 1,
    tenantsPostgres: 0,
    tenantKeysPostgres: 0,
    postgresUrl: '',
    redisUrl: '',
    keep: options.keep,
    dir: options.dir,
  };
}

type Spec = Omit<LoadSpec, 'origin' | 'connections' | 'durationSeconds'>;

function specOf(scenario: Scenario, key: string, pets: number): Spec {
  const headers = { authorization: `Bearer ${key}` };
  if (scenario === 'list') return { method: 'GET', path: '/v1/pets?limit=20', headers };
  if (scenario === 'get') return { method: 'GET', path: '/v1/pets/{id}', randomIdUpTo: pets, headers };
  return {
    method: 'POST',
    path: '/v1/pets',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Rex the benchmark dog', categoryId: 7, status: 'available' }),
  };
}

const rotate = <T>(items: readonly T[], by: number): T[] =>
  items.map((_, index) => items[(index + by) % items.length]!);

const text = (command: string, ...args: string[]) =>
  spawnSync(command, args, { encoding: 'utf8' }).stdout?.trim() ?? '';

function header(options: Options, before: string, after: string): string[] {
  const commit = text('git', 'rev-parse', '--short', 'HEAD') || 'unknown commit';
  const dirty = text('git', 'status', '--porcelain', '--', 'packages', 'bench')
    ? ' + uncommitted changes'
    : '';
  const wrk =
    text('wrk', '--version').split('\n')[0] || spawnSync('wrk', ['--version'], { encoding: 'utf8' }).stderr;
  return [
    `- finished ${new Date().toISOString()} at ${commit}${dirty}; node ${process.version}; ${wrk.split(' [')[0]}`,
    `- machine: ${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown'}; databases in ${options.dir} (${text('stat', '-f', '-c', '%T', options.dir)})`,
    `- uptime before: ${before}`,
    `- uptime after: ${after}`,
    `- ${options.pets.toLocaleString('en-US')} pets; wrk -t1 -c${options.connections} -d${options.duration}s --latency on core 1, ` +
      `servers on core 0; a ${options.warmup} s warm-up pass, then ${options.rounds} round(s), servers in rotated order`,
  ];
}

async function measure(options: Options, harness: Harness, servers: Servers): Promise<Results> {
  const results = emptyResults();
  const load = (server: Server, scenario: Scenario, seconds: number) =>
    runLoad(
      'wrk',
      {
        ...specOf(scenario, server.key, options.pets),
        origin: server.target.origin,
        connections: options.connections,
        durationSeconds: seconds,
      },
      LOAD_CORE,
      harness.workDir,
    );

  // The project first: its answers are the raw baseline's bodies.
  const petstore = await servers.start('petstore', await harness.sqlite(options.pets));
  const probes = {} as Record<Scenario, Response>;
  for (const scenario of SCENARIOS) {
    const spec = specOf(scenario, petstore.key, options.pets);
    probes[scenario] = await fetchOnce(`${petstore.target.origin}${spec.path.replace('{id}', '1')}`, spec);
    if (probes[scenario].status >= 300)
      throw new Error(`project ${scenario} answered ${probes[scenario].status}`);
  }

  const startupDb = await harness.sqlite(options.pets);
  for (let round = 0; round < options.rounds; round += 1) {
    for (const name of rotate(SERVERS, round)) {
      const server =
        name === 'raw'
          ? await servers.startRaw(probes.list, `startup-raw-${round}`)
          : await servers.start(name, startupDb);
      results.startupMs[name].push(server.target.startupMs);
      await servers.stop(server);
    }
  }

  const raws = {} as Record<Scenario, Server>;
  for (const scenario of SCENARIOS)
    raws[scenario] = await servers.startRaw(probes[scenario], `raw-${scenario}`);
  const running: Record<Exclude<ServerName, 'raw'>, Server> = {
    petstore,
    fastify: await servers.start('fastify', startupDb),
    'fastify-log': await servers.start('fastify-log', startupDb),
    express: await servers.start('express', startupDb),
  };
  const serverFor = (name: ServerName, scenario: Scenario) =>
    name === 'raw' ? raws[scenario] : running[name];

  for (const scenario of SCENARIOS) {
    for (const name of SERVERS) {
      console.error(`warm-up ${scenario} ${name}`);
      await load(serverFor(name, scenario), scenario, options.warmup);
    }
  }
  for (let round = 0; round < options.rounds; round += 1) {
    for (const scenario of SCENARIOS) {
      for (const name of rotate(SERVERS, round)) {
        const result = await load(serverFor(name, scenario), scenario, options.duration);
        console.error(
          `round ${round + 1} ${scenario} ${name}: ${Math.round(result.rps)} req/s, p99 ${result.p99Ms} ms`,
        );
        results.runs[scenario][name].push(result);
      }
    }
  }

  const mb = (pid: number) => peakRssBytes(pid) / 1024 / 1024;
  results.peakRssMb.raw = Math.max(...SCENARIOS.map((scenario) => mb(raws[scenario].target.started.pid)));
  for (const [name, server] of Object.entries(running))
    results.peakRssMb[name as ServerName] = mb(server.target.started.pid);
  return results;
}

/** The signals that end a run, with their numbers (the exit status is 128 plus it). */
const INTERRUPTIONS: readonly [NodeJS.Signals, number][] = [
  ['SIGINT', 2],
  ['SIGTERM', 15],
  ['SIGHUP', 1],
  ['SIGQUIT', 3],
];

async function main(): Promise<number> {
  const options = readOptions(process.argv.slice(2));
  if (!options) return 0;
  requireTools();
  // The project runs as `npm ci` leaves it: built (its dependency bundle current), its sources as they are.
  buildCheckout();
  // Whatever stops the run (Ctrl-C, a kill, a closed terminal), its servers stop and its temporary
  // directory goes: the process exits the way the signal would have ended it (128 + its number). The
  // handlers come first, so that no moment after the directory is made is left to the default action.
  const made: { servers?: Servers; workDir?: string } = {};
  const cleanUp = () => {
    if (made.workDir === undefined) return;
    if (options.keep) console.error(`kept ${made.workDir}`);
    else rmSync(made.workDir, { recursive: true, force: true });
  };
  for (const [signal, number] of INTERRUPTIONS)
    process.once(signal, () => {
      console.error(`bench:peers: ${signal}, stopping`);
      void Promise.resolve(made.servers?.stopAll())
        .finally(cleanUp)
        .finally(() => process.exit(128 + number));
    });
  const workDir = mkdtempSync(join(options.dir, 'petstore-peers-'));
  made.workDir = workDir;
  const harness = new Harness(harnessOptions(options), workDir);
  const servers = new Servers(harness, options.pets);
  made.servers = servers;
  const before = text('uptime');
  try {
    const results = await measure(options, harness, servers);
    const output = `${header(options, before, text('uptime')).join('\n')}\n\n${report(results)}\n`;
    process.stdout.write(output);
    if (options.out) {
      mkdirSync(dirname(options.out), { recursive: true });
      writeFileSync(options.out, output);
    }
    return 0;
  } finally {
    await servers.stopAll();
    cleanUp();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`bench:peers: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 2;
  },
);
