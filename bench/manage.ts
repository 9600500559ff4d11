// The management API's reads under load (docs/benchmarks.md, "Management API"): a server on a SQLite
// file with one project of 200 keys and 20,000 audit events (beside 20,000 of other projects), pinned
// to one core, and autocannon pinned to the other at 64 connections against GET /manage/v1/projects,
// …/keys (a page of 20) and …/audit (a page of 50), one after the other, each after a warm-up.
// The server runs in a child process of this script (`--serve`), so the load generator does not
// share its event loop. Usage: npm run bench:manage -- --help
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { parseArgs } from 'node:util';
import { runLoad } from './load.ts';
import { cpuSeconds } from './processes.ts';

const READS = {
  projects: '/manage/v1/projects',
  keys: '/manage/v1/projects/bench/keys',
  audit: '/manage/v1/projects/bench/audit',
} as const;

const HELP = `npm run bench:manage -- [--seconds 10] [--warmup 2] [--connections 64] [--reads projects,keys,audit]
                          [--server-core 0] [--load-core 1]

The management API's reads under load: a server (a child process) on a temporary SQLite file with one
project of 200 keys and 20,000 audit events (and 20,000 events of 20 other projects in the same table),
pinned to --server-core; autocannon, pinned to --load-core, with --connections against
GET /manage/v1/projects, …/keys (a page of 20) and …/audit (a page of 50): --warmup seconds unmeasured,
then --seconds measured, each read in turn. A core of "none" leaves that process unpinned. Prints
req/s, p50, p99 and the server's CPU time per request of each (what the code costs, whatever else the
machine runs); BENCH_SERVER_FLAGS passes node flags to the server (e.g. --cpu-prof --cpu-prof-dir=DIR).`;

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '2' },
    connections: { type: 'string', default: '64' },
    reads: { type: 'string', default: Object.keys(READS).join(',') },
    'server-core': { type: 'string', default: '0' },
    'load-core': { type: 'string', default: '1' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(HELP);
  process.exit(0);
}

async function serve(dir: string): Promise<void> {
  const { openStoreAt } = await import('../packages/server/src/features/store.ts');
  const { buildApp } = await import('../packages/server/src/app.ts');
  const { createRateLimiter } = await import('../packages/server/src/ratelimit/limiter.ts');
  const { createMemoryStore } = await import('../packages/server/src/ratelimit/memory-store.ts');
  const { systemClock } = await import('../packages/server/src/time/clock.ts');
  const { createKeyService } = await import('../packages/server/src/features/keys/service.ts');
  const storage = await openStoreAt(join(dir, 'bench.db'));
  await storage.migrate();
  const clock = systemClock;
  const now = clock.now();
  await storage.accounts.create({
    id: 'acc_bench',
    email: 'bench@example.com',
    passwordHash: 'x',
    createdAt: now,
  });
  await storage.projects.create({
    id: 'prj_bench',
    slug: 'bench',
    name: 'Bench',
    plan: 'business',
    perMinute: null,
    perDay: null,
    createdAt: now,
  });
  await storage.projects.addMember('acc_bench', 'prj_bench', now, 'owner');
  const actor = {
    kind: 'account' as const,
    accountId: 'acc_bench',
    email: 'bench@example.com',
    address: null,
  };
  const keys = createKeyService({ storage, clock, keyEnvironment: 'test' });
  for (let i = 0; i < 200; i++) await keys.create(actor, 'bench', { label: `key ${i}` });
  seedAuditTrail(join(dir, 'bench.db'), now);
  const limiter = createRateLimiter({ store: createMemoryStore(), clock });
  const app = buildApp({
    storage,
    limiter,
    clock,
    keyEnvironment: 'test',
    requestLog: false,
    manageTokenLimits: { perMinute: 1e9, perDay: 1e12 },
    manageAccountLimits: { perMinute: 1e9, perDay: 1e12 },
  });
  await app.ready();
  const token = await app.accessTokens.create(actor, {
    name: 'bench',
    scope: 'read',
    projects: ['bench'],
    expiresInDays: 7,
  });
  if (!token.ok) throw new Error(token.problem.message);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  // Ends cleanly when the benchmark is done, so that a --cpu-prof in NODE_OPTIONS is written.
  process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
  process.stdout.write(`${JSON.stringify({ address, token: token.value.secret })}\n`);
}

/**
 * A long trail, written in one transaction on a second connection (one commit, not 40,000): the
 * bench project's 20,000 events over the past days, of several actions and actors, and as many of 20
 * other projects (events only, no projects rows: the page query must pick the project's by its index).
 */
function seedAuditTrail(file: string, now: number): void {
  const db = new DatabaseSync(file);
  const insert = db.prepare(
    `INSERT INTO audit_log (at, project_id, actor_account_id, actor, action, target, address, via)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const shapes = [
    ['key_created', 'key 7 (ps_test_aB3dE…)', 'dashboard'],
    ['key_revoked', 'key 12 (ps_test_x9YzW…)', 'token:tok_1'],
    ['plan_changed', 'free → business', 'dashboard'],
    ['member_added', 'someone@example.com as developer (invitation)', 'dashboard'],
    ['domain_added', 'api.example.com', 'cli'],
  ] as const;
  db.exec('BEGIN');
  for (let i = 0; i < 40_000; i++) {
    const project = i % 2 === 0 ? 'prj_bench' : `prj_other_${i % 20}`;
    const [action, target, via] = shapes[i % shapes.length]!;
    // Older than the events the server wrote, one every 10 s.
    insert.run(
      now - 1 - (40_000 - i) * 5_000,
      project,
      'acc_bench',
      'bench@example.com',
      action,
      target,
      '203.0.113.7',
      via,
    );
  }
  db.exec('COMMIT');
  db.close();
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-manage-'));
  // BENCH_SERVER_FLAGS: node flags of the server's process, e.g. --cpu-prof --cpu-prof-dir=DIR.
  const flags = process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];
  const core = (name: 'server-core' | 'load-core') => (values[name] === 'none' ? undefined : values[name]);
  const serverCore = core('server-core');
  const command = [process.execPath, ...flags, import.meta.filename, '--serve', dir];
  // taskset execs the server, so the child's pid is the server's own (its CPU time is read by pid).
  const [file, ...args] = serverCore === undefined ? command : ['taskset', '-c', serverCore, ...command];
  const child = spawn(file!, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const { address, token } = await new Promise<{ address: string; token: string }>((resolve, reject) => {
      child.stdout.setEncoding('utf8');
      child.stdout.once('data', (line: string) => resolve(JSON.parse(line)));
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    const rows: string[] = [
      '| read | requests/s | p50 ms | p99 ms | server CPU µs/request | non-2xx or errors |',
      '|---|---:|---:|---:|---:|---:|',
    ];
    for (const read of values.reads.split(',')) {
      const path = READS[read as keyof typeof READS];
      if (path === undefined)
        throw new Error(`--reads: no read named ${read} (${Object.keys(READS).join(', ')})`);
      const load = (durationSeconds: number) =>
        runLoad(
          'autocannon',
          {
            origin: address,
            method: 'GET',
            path,
            headers: { authorization: `Bearer ${token}` },
            connections: Number(values.connections),
            durationSeconds,
          },
          core('load-core'),
          dir,
        );
      // Unmeasured: the area's first request loads its modules, and V8 compiles the hot paths.
      if (Number(values.warmup) > 0) await load(Number(values.warmup));
      const cpuBefore = cpuSeconds(child.pid!);
      const result = await load(Number(values.seconds));
      // The server's own CPU time per answer: what the code costs, whatever else the machine runs.
      const cpuMicros = ((cpuSeconds(child.pid!) - cpuBefore) * 1e6) / result.requests;
      rows.push(
        `| \`GET ${path}\` | ${Math.round(result.rps)} | ${result.p50Ms} | ${result.p99Ms} | ${Math.round(cpuMicros)} | ${result.non2xx + result.errors} |`,
      );
    }
    console.log(rows.join('\n'));
  } finally {
    child.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (values.serve) await serve(values.serve);
else await main();
