import { mkdtemp, rm } from 'node:fs/promises';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { createRequestIds } from '../packages/server/src/http/request-ids.ts';
import { openStore, type ReversibleStore } from '../packages/server/src/features/store.ts';
import { PostgresStorage } from '../packages/server/src/storage/postgres.ts';
import type { LoggedRequest } from '../packages/server/src/features/requests/request-log-records.ts';
import { SqliteStorage } from '../packages/server/src/storage/sqlite.ts';

const HELP = `node bench/log-writer.ts [--database sqlite|postgres] [--batches N] [--batch-size N] [--projects N] [--runs N]

The request log's storage alone: writes batches of logged requests one at a time, as the server's
writer does (one project, the service's own UUIDv7 request ids), and prints the CPU of this process a
request (user and system) and, on PostgreSQL, of every postgres process on the machine meanwhile.
  --database      sqlite (a file in a temporary directory) or postgres (default; a schema of its own on
                  PETSTORE_BENCH_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test, dropped after)
  --batches       timed batches (default 2000), after 50 untimed ones; --batch-size (default 250)
  --projects      spread the requests round-robin over this many projects (default 1); the disk a
                  request takes is printed too (the file's pages in use, or the log's tables with their
                  indexes), and the time to purge them all once expired
  --runs          repeat the whole measurement (default 1)`;

const { values } = parseArgs({
  options: {
    database: { type: 'string', default: 'postgres' },
    batches: { type: 'string', default: '2000' },
    'batch-size': { type: 'string', default: '250' },
    runs: { type: 'string', default: '1' },
    projects: { type: 'string', default: '1' },
    help: { type: 'boolean', default: false },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}
const database = values.database;
if (database !== 'sqlite' && database !== 'postgres') {
  console.error(`--database must be sqlite or postgres, not ${database}\n\n${HELP}`);
  process.exit(2);
}
const batches = Number(values.batches);
const batchSize = Number(values['batch-size']);
const runs = Number(values.runs);
const projects = Number(values.projects);
for (const [name, value] of [
  ['--projects', projects],
  ['--batches', batches],
  ['--batch-size', batchSize],
  ['--runs', runs],
] as const) {
  if (!Number.isInteger(value) || value < 1) {
    console.error(`${name} must be a whole number above 0\n\n${HELP}`);
    process.exit(2);
  }
}

const POSTGRES_URL = process.env.PETSTORE_BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'petstore_bench_log_writer';
const CLOCK_TICKS_US = 10_000;

/** CPU (µs) of every postgres process on the machine: /proc/PID/stat's utime and stime. */
function postgresMicros(): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // The process ended meanwhile.
    }
  }
  return ticks * CLOCK_TICKS_US;
}

const ids = createRequestIds(() => Date.now());
let written = 0;
const request = (i: number): LoggedRequest => ({
  projectId: projects === 1 ? 'prj_bench' : `prj_bench${written++ % projects}`,
  at: Date.now(),
  requestId: ids.next(),
  keyId: 'key_3f9a1c2b7d',
  keyLabel: 'Storefront',
  operation: 'listPets',
  method: 'GET',
  path: '/v1/pets?limit=20&status=available',
  status: 200,
  code: null,
  latencyMs: 0.42 + (i % 7) / 100,
  address: '127.0.0.1',
});
const batchOf = () => Array.from({ length: batchSize }, (_, i) => request(i));

interface Opened {
  storage: ReversibleStore;
  /** Bytes the request log takes on disk. */
  bytes: () => Promise<number>;
  dispose: () => Promise<void>;
}

async function open(): Promise<Opened> {
  if (database === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'petstore-log-writer-'));
    const path = join(dir, 'log.db');
    const storage = openStore(new SqliteStorage(path));
    // The pages in use, those still in the WAL included.
    const bytes = async () => {
      const count = async (pragma: string) =>
        Number(Object.values((await storage.sql.all(`PRAGMA ${pragma}`))[0]!)[0]);
      return ((await count('page_count')) - (await count('freelist_count'))) * (await count('page_size'));
    };
    return { storage, bytes, dispose: () => rm(dir, { recursive: true, force: true }) };
  }
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
  const storage = openStore(new PostgresStorage({ url: POSTGRES_URL, schema: SCHEMA, poolSize: 4 }));
  const bytes = async () => {
    const { rows } = await admin.query(
      `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint AS n FROM pg_class c
       WHERE c.relnamespace = '${SCHEMA}'::regnamespace AND c.relkind = 'r' AND c.relname LIKE 'request\\_log\\_%'`,
    );
    return Number(rows[0].n);
  };
  return {
    storage,
    bytes,
    dispose: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
      await admin.end();
    },
  };
}

for (let run = 1; run <= runs; run++) {
  const { storage, bytes, dispose } = await open();
  try {
    await storage.migrate();
    for (let b = 0; b < 50; b++) await storage.requestLog.write(batchOf());
    const timed = Array.from({ length: batches }, batchOf);
    const postgresBefore = database === 'postgres' ? postgresMicros() : 0;
    const cpuBefore = process.cpuUsage();
    const started = performance.now();
    for (const batch of timed) await storage.requestLog.write(batch);
    const cpu = process.cpuUsage(cpuBefore);
    const wall = performance.now() - started;
    const requests = batches * batchSize;
    const disk = (await bytes()) / (requests + 50 * batchSize);
    // Everything expired: the purge's time, its slices yielding as the maintenance owner's do.
    const purgeStarted = performance.now();
    const purged = await storage.requestLog.purge(Date.now() + 40 * 86_400_000);
    const purgeMs = performance.now() - purgeStarted;
    const perRequest = (micros: number) => (micros / requests).toFixed(2);
    const postgres =
      database === 'postgres' ? `, postgres ${perRequest(postgresMicros() - postgresBefore)} µs` : '';
    console.log(
      `${database} run ${run}: ${requests.toLocaleString('en')} requests in batches of ${batchSize}: ` +
        `this process ${perRequest(cpu.user + cpu.system)} µs of CPU a request (user ${perRequest(cpu.user)}, ` +
        `system ${perRequest(cpu.system)})${postgres}, wall ${perRequest(wall * 1000)} µs; ` +
        `over ${projects.toLocaleString('en')} project(s), ${disk.toFixed(0)} bytes of disk a request; ` +
        `purge of ${purged.toLocaleString('en')} requests ${purgeMs.toFixed(0)} ms`,
    );
  } finally {
    await storage.close();
    await dispose();
  }
}
