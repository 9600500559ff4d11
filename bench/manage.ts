// The management API's reads under load (docs/benchmarks.md, "Management API"): a server on a SQLite
// file with one project of 200 keys and 2,000 audit events, and autocannon at 64 connections against
// GET /manage/v1/projects, …/keys (a page of 20) and …/audit (a page of 50), one after the other.
// The server runs in a child process of this script (`--serve`), so the load generator does not
// share its event loop. Usage: npm run bench:manage -- [--seconds 10] [--connections 64]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { cpuSeconds } from './processes.ts';

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (
  options: Record<string, unknown>,
) => Promise<AutocannonResult>;

const HELP = `npm run bench:manage -- [--seconds 10] [--connections 64]

The management API's reads under load: a server (a child process) on a temporary SQLite file with one
project of 200 keys and 2,000 audit events; autocannon with --connections against GET /manage/v1/projects,
…/keys (a page of 20) and …/audit (a page of 50), --seconds each. Prints req/s, p50, p99 and the
server's CPU time per request of each.`;

const { values } = parseArgs({
  options: {
    serve: { type: 'string' },
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
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
  for (let i = 0; i < 1_800; i++) {
    await storage.audit.record({
      at: now + i,
      projectId: 'prj_bench',
      actorAccountId: 'acc_bench',
      actor: 'bench@example.com',
      action: 'plan_changed',
      target: 'free → business',
      address: '127.0.0.1',
      via: 'dashboard',
    });
  }
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

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-manage-'));
  // BENCH_SERVER_FLAGS: node flags of the server's process, e.g. --cpu-prof --cpu-prof-dir=DIR.
  const flags = process.env.BENCH_SERVER_FLAGS?.split(' ').filter(Boolean) ?? [];
  const child = spawn(process.execPath, [...flags, import.meta.filename, '--serve', dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const { address, token } = await new Promise<{ address: string; token: string }>((resolve, reject) => {
      child.stdout.setEncoding('utf8');
      child.stdout.once('data', (line: string) => resolve(JSON.parse(line)));
      child.once('exit', (code) => reject(new Error(`the server exited (${code})`)));
    });
    const rows: string[] = [
      '| read | requests/s | p50 ms | p99 ms | server CPU µs/request | non-2xx |',
      '|---|---:|---:|---:|---:|---:|',
    ];
    for (const path of [
      '/manage/v1/projects',
      '/manage/v1/projects/bench/keys',
      '/manage/v1/projects/bench/audit',
    ]) {
      const cpuBefore = cpuSeconds(child.pid!);
      const result = await autocannon({
        url: `${address}${path}`,
        connections: Number(values.connections),
        duration: Number(values.seconds),
        headers: { authorization: `Bearer ${token}` },
      });
      // The server's own CPU time per answer: what the code costs, whatever else the machine runs.
      const cpuMicros = ((cpuSeconds(child.pid!) - cpuBefore) * 1e6) / result.requests.total;
      rows.push(
        `| \`GET ${path}\` | ${Math.round(result.requests.average)} | ${result.latency.p50} | ${result.latency.p99} | ${Math.round(cpuMicros)} | ${result.non2xx} |`,
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
