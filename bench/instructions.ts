import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { freePort, startPinned, stop, waitForStatus } from './processes.ts';
import { CLI, createKey, seedSqlite, startNodeFlags } from './seed.ts';

const USAGE = `node bench/instructions.ts [--path /v1/pets/1] [--warmup 5000] [--requests 5000] [--windows 3]
  [--connections 16] [--pets 1000] [--env NAME=VALUE…]

  Instructions per request of the server, counted by valgrind (callgrind): \`petstore serve\` on a fresh
  SQLite database runs under callgrind with counting off; \`--warmup\` requests (autocannon, outside
  valgrind) let V8 compile the hot paths, then each of \`--windows\` windows of \`--requests\` requests is
  counted alone (callgrind_control -i on once, then -d after each window). Instruction counts do not
  move with the other processes on the machine, as CPU time does; what moves them is the garbage
  collector, whose work falls in one window or the next: compare means over several windows.
  The main thread's share is printed too (callgrind counts each thread apart): V8 compiles optimised
  code on background threads, whose work moves by more than 100k instructions a request from one
  window to the next, while the main thread's (the requests' own work) moves by a few per cent.`;

const { values } = parseArgs({
  options: {
    path: { type: 'string', default: '/v1/pets/1' },
    warmup: { type: 'string', default: '5000' },
    requests: { type: 'string', default: '5000' },
    windows: { type: 'string', default: '3' },
    connections: { type: 'string', default: '16' },
    pets: { type: 'string', default: '1000' },
    env: { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

interface AutocannonResult {
  '2xx': number;
  non2xx: number;
  errors: number;
}
type Autocannon = (options: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const dir = mkdtempSync(join(tmpdir(), 'petstore-instructions-'));
const database = join(dir, 'bench.db');
await seedSqlite(database, Number(values.pets));
const key = createKey(database);
const headers = { authorization: `Bearer ${key}` };
const port = await freePort();
const outFile = join(dir, 'callgrind.out');
const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: database };
delete env.REDIS_URL;
// Under valgrind a connection may wait seconds for its turn while V8 compiles: no 408 for that.
env.PETSTORE_HEADERS_TIMEOUT_SECONDS = '280';
env.PETSTORE_REQUEST_TIMEOUT_SECONDS = '290';
for (const pair of values.env) {
  const at = pair.indexOf('=');
  env[pair.slice(0, at)] = pair.slice(at + 1);
}
const valgrind = [
  '--tool=callgrind',
  '--instr-atstart=no',
  '--smc-check=all-non-file',
  '--separate-threads=yes',
];
valgrind.push(`--callgrind-out-file=${outFile}`);
const args = [...valgrind, process.execPath, ...startNodeFlags(), CLI, 'serve', '--port', String(port)];
const server = startPinned(undefined, 'valgrind', args, { env, logFile: join(dir, 'server.log') });
const origin = `http://127.0.0.1:${port}`;
const control = (...flags: string[]) =>
  execFileSync('callgrind_control', [...flags, String(server.pid)], { stdio: 'ignore' });

/** Sends `amount` requests; resolves to how many were answered 2xx (a few may fail under valgrind). */
const load = async (amount: number, strict = true): Promise<number> => {
  const result = await autocannon({
    url: `${origin}${values.path}`,
    headers,
    connections: Number(values.connections),
    amount,
    timeout: 600,
  });
  const ok = result['2xx'];
  if (strict && (result.non2xx > 0 || ok < amount * 0.99))
    throw new Error(`${values.path}: ${result.non2xx} answers not 2xx, ${result.errors} errors of ${amount}`);
  return ok;
};

/** The instructions (Ir) in a dump file once it is written whole, else undefined. */
const totalOf = (file: string): number | undefined => {
  const total = existsSync(file) && /^totals: (\d+)/m.exec(readFileSync(file, 'utf8'));
  return total ? Number(total[1]) : undefined;
};

/**
 * The instructions (Ir) of the `n`th dump, every thread's and the main thread's, once its files (one a
 * thread, `callgrind.out.N-01` the main thread's) are written whole and no other appears.
 */
const dump = async (n: number): Promise<{ all: number; main: number }> => {
  const prefix = `callgrind.out.${n}-`;
  let seen = '';
  for (let tries = 0; ; tries++) {
    const files = readdirSync(dir)
      .filter((name) => name.startsWith(prefix))
      .sort();
    const totals = files.map((name) => totalOf(join(dir, name)));
    const names = files.join(',');
    if (files.length > 0 && totals.every((total) => total !== undefined) && names === seen)
      return {
        all: totals.reduce((sum, total) => sum! + total!, 0)!,
        main: totalOf(join(dir, `${prefix}01`))!,
      };
    seen = totals.every((total) => total !== undefined) ? names : '';
    if (tries > 600) throw new Error(`no dump ${prefix}*`);
    await sleep(200);
  }
};

try {
  await waitForStatus(server, `${origin}${values.path}`, headers, 200, 300_000);
  await load(Number(values.warmup));
  // Counting on once (a toggle re-translates the code), a few requests, then every window between
  // two dumps: a dump writes what was counted since the one before and zeroes the counters.
  control('-i', 'on');
  // Re-translating every block stalls the server for a while: a request or two may time out here.
  await load(100, false);
  control('-z');
  const requests = Number(values.requests);
  const perRequest: number[] = [];
  const mainPerRequest: number[] = [];
  for (let window = 1; window <= Number(values.windows); window++) {
    const answered = await load(requests);
    control('-d');
    const { all, main } = await dump(window);
    perRequest.push(all / answered);
    mainPerRequest.push(main / answered);
  }
  const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
  const summary = (counts: number[]) => {
    const sorted = [...counts].sort((a, b) => a - b);
    const mean = counts.reduce((sum, n) => sum + n, 0) / counts.length;
    return `${k(mean)} (mean; median ${k(sorted[Math.floor(sorted.length / 2)]!)}; windows ${counts.map(k).join(', ')})`;
  };
  console.log(`${values.path}: ${summary(perRequest)} instructions/request`);
  console.log(`  main thread: ${summary(mainPerRequest)}`);
} finally {
  await stop(server, 60_000);
  rmSync(dir, { recursive: true, force: true });
}
