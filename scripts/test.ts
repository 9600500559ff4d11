// Runs the test suites: `npm test` the fast set (in-process: no browser, no TLS stack, no spawned
// server or CLI process, no outage or crash cycle), `npm run test:all` every suite. Extra arguments go
// to `node --test`; `--isolate` runs the fast set one process per file, as the other suites run.
import { spawn } from 'node:child_process';
import { accessSync, constants, globSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/** Suites that only `test:all` runs, and why. */
const FULL_ONLY: Record<string, string> = {
  'packages/server/test/dashboard-browser.test.ts': 'browser',
  'packages/server/test/dashboard-passkeys-browser.test.ts': 'browser',
  'packages/server/test/insights-journey-browser.test.ts': 'browser, spawned servers and CLI',
  'packages/server/test/docs-layout.test.ts': 'browser',
  'packages/server/test/docs-page.test.ts': 'browser',
  'packages/server/test/tls-browser.test.ts': 'browser, TLS',
  'packages/server/test/tls-e2e.test.ts': 'TLS (Caddy, Pebble)',
  'packages/server/test/tls-walkthrough.slow.test.ts': 'TLS, spawned processes',
  'packages/server/test/deploy-caddyfile.test.ts': 'Caddy',
  'packages/server/test/crash.test.ts': 'crash cycles',
  'packages/server/test/outage-postgres.test.ts': 'PostgreSQL outage',
  'packages/server/test/outage-redis.test.ts': 'Redis outage',
  'packages/server/test/scaleout.test.ts': 'three spawned servers',
  'packages/server/test/blackbox.test.ts': 'spawned server and CLI',
  'packages/server/test/ratelimit-blackbox.test.ts': 'spawned server and CLI',
  'packages/server/test/readiness-disk.test.ts': 'spawned server',
  'packages/server/test/shutdown.test.ts': 'spawned server',
  'packages/server/test/mail-serve.test.ts': 'spawned servers, loopback SMTP',
  'packages/server/test/mail-sink-script.test.ts': 'spawned mail-sink scripts',
  'packages/server/test/request-log-shutdown.test.ts': 'spawned servers',
  'packages/server/test/slow-clients.test.ts': 'spawned server, slow sockets',
  'packages/server/test/workers.test.ts': 'spawned server',
  'packages/server/test/edge-errors.test.ts': 'spawned server, raw sockets',
  'packages/server/test/hostile/catalogue.test.ts': 'spawned server, raw sockets',
  'packages/server/test/operators-domains.test.ts': 'spawned CLI',
  'packages/server/test/client-package.test.ts': 'packs and builds the client',
  'packages/client/test/package.test.ts': 'packs and builds the client',
  'packages/cli/test/start-flags.test.ts': 'spawned CLI',
  'packages/cli/test/npm-start-signal.test.ts': 'spawned npm and server',
  'packages/cli/test/dependencies.test.ts': 'builds the dependency bundle, spawned CLI and server',
  'bench/load.test.ts': 'spawned wrk',
  'bench/peers/peers.test.ts': 'spawned peer servers',
  'bench/peers/interrupt.test.ts': 'spawned benchmark runs (npm, servers)',
};

/**
 * Suites of the fast set that take seconds, many of them mostly waiting (PostgreSQL's commits, DNS
 * time-outs), with their seconds each, measured alone two at a time on the two-core machine less the
 * half second of a process's start; the others take half a second or less.
 * Only for spreading the suites evenly over the processes: a stale figure costs time, never a result.
 */
const SLOW: Record<string, number> = {
  'packages/server/test/storage-postgres.test.ts': 47,
  'packages/server/test/edge-pipelining-flood.test.ts': 17,
  'packages/server/test/tokens-account-security.test.ts': 16,
  'packages/server/test/revocation-instances.test.ts': 11,
  'packages/server/test/domains-dns-failures.test.ts': 9,
  'packages/server/test/host-lookup-timeout.test.ts': 9,
  'packages/server/test/request-exports.test.ts': 8,
  'packages/server/test/pets-lane-sockets.test.ts': 6,
  'packages/server/test/outbox-delivery.test.ts': 6,
  'packages/server/test/readyz-bounded.test.ts': 6,
  'packages/server/src/features/domains/manage-domains.test.ts': 6,
  'packages/server/src/features/identity/password-bounds.test.ts': 6,
  'packages/server/test/conformance-manage.test.ts': 5,
  'packages/server/test/route-table.test.ts': 5,
  'packages/server/test/storage-sqlite.test.ts': 5,
  'packages/server/src/features/members/dashboard-invitations.test.ts': 5,
  'packages/server/test/account-removal.test.ts': 5,
  'packages/server/test/dashboard-shared.test.ts': 5,
  'packages/server/test/operators.test.ts': 4,
  'packages/server/src/features/members/manage-members.test.ts': 4,
  'packages/server/test/tenant-isolation.test.ts': 4,
  'packages/server/test/cors.test.ts': 4,
  'packages/server/test/mail.test.ts': 4,
  'packages/server/test/ratelimit-redis-stall.test.ts': 4,
  'packages/server/test/text-rules.test.ts': 4,
  'packages/server/test/redaction.test.ts': 4,
  'packages/server/test/dashboard-owner-race.test.ts': 4,
  'packages/server/test/cursors.test.ts': 4,
  'packages/server/test/domains-verify.test.ts': 4,
  'packages/server/test/pets-lane.test.ts': 4,
  'packages/server/test/request-exports-instances.test.ts': 4,
  'packages/server/test/edge-pipelining.test.ts': 3,
  'packages/server/test/dashboard-password-reset.test.ts': 3,
  'packages/server/test/request-path.test.ts': 3,
  'packages/server/test/dashboard-passkey-second-factor.test.ts': 3,
  'packages/server/test/dashboard-filters-properties.test.ts': 3,
  'packages/server/test/write-path-http.test.ts': 3,
  'packages/server/test/manage-idempotency.test.ts': 3,
  'packages/server/test/dashboard-passkey-recovery-codes.test.ts': 3,
  'packages/server/src/features/audit/manage-audit.test.ts': 3,
  'packages/cli/test/smoke-process.test.ts': 3,
  'packages/server/test/domains-http.test.ts': 3,
  'packages/server/src/features/keys/manage-keys.test.ts': 3,
  'packages/server/test/dashboard-requests.test.ts': 3,
  'packages/server/test/changes-instances.test.ts': 2,
  'packages/server/src/features/keys/manage-keys-doors.test.ts': 2,
  'packages/server/test/manage-caps.test.ts': 2,
  'packages/server/test/ratelimit-http.test.ts': 2,
  'packages/server/test/ratelimit-bans-http.test.ts': 2,
  'packages/server/test/metrics.test.ts': 2,
  'packages/server/src/features/members/dashboard-member-removal.test.ts': 2,
};

const flags = ['--all', '--isolate'];
const all = process.argv.includes('--all');
const isolate = process.argv.includes('--isolate');
const extra = process.argv.slice(2).filter((arg) => !flags.includes(arg));
const files = globSync([
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'bench/**/*.test.ts',
]).sort();
const missing = [...Object.keys(FULL_ONLY), ...Object.keys(SLOW)].filter((file) => !files.includes(file));
if (missing.length > 0) {
  console.error(`scripts/test.ts names suites that do not exist: ${missing.join(', ')}`);
  process.exit(2);
}
const fast = files.filter((file) => !(file in FULL_ONLY));
const full = files.filter((file) => file in FULL_ONLY);

// Every suite process compiles the same few hundred modules: V8's code cache keeps the work of the first.
const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? 'node_modules/.cache/node-compile',
};
if (process.stdout.isTTY) env.FORCE_COLOR ??= '1';

/**
 * The fast set's temporary files (every test app's SQLite database) go to a RAM file system where
 * there is one (Linux's /dev/shm): a commit there returns in a fraction of a millisecond, where on a
 * virtual machine's disk it waits about 10 ms for fsync, holding its process's event loop. Only the
 * disk's flush is skipped; the suites of crashes and durability are in the full set, on the disk.
 */
const fastEnv: NodeJS.ProcessEnv = { ...env };
if (process.env.TMPDIR === undefined) {
  try {
    accessSync('/dev/shm', constants.W_OK);
    fastEnv.TMPDIR = '/dev/shm';
  } catch {
    // No RAM file system: the system's temporary directory.
  }
}
// No test may hang the run: each has 5 minutes at most (the slowest take about 1 under load), and a
// process whose tests are done exits even if a test that timed out left sockets or timers behind.
const base = ['--test', '--test-timeout=300000', '--test-force-exit'];

interface Outcome {
  code: number;
  output: string;
}

/** Runs `node --test` with `args`; its output is kept (and printed whole at the end) or streamed. */
function nodeTest(args: string[], keep: boolean, childEnv = env): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...base, ...args, ...extra], {
      env: childEnv,
      stdio: keep ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

/** Deals the suites into `count` groups of about equal expected time, the slowest first. */
function deal(list: string[], count: number): string[][] {
  const groups = Array.from({ length: count }, () => ({ files: [] as string[], seconds: 0 }));
  const seconds = (file: string) => SLOW[file] ?? 0.5;
  for (const file of list.toSorted((a, b) => seconds(b) - seconds(a))) {
    const lightest = groups.reduce((best, group) => (group.seconds < best.seconds ? group : best));
    lightest.files.push(file);
    lightest.seconds += seconds(file);
  }
  return groups.map((group) => group.files);
}

/**
 * The fast set shares processes: a suite file costs about a second of start-up (Node, the TypeScript
 * of the whole server, the contract's validators) when it has a process of its own, and the suites are
 * free of process-wide state (no environment changes, global mocks or fake timers), so several files
 * run one after another in each of a few processes, and the processes run side by side.
 */
async function runFast(): Promise<Outcome[]> {
  if (isolate) return [await nodeTest(['--test-concurrency=2', ...fast], false, fastEnv)];
  const count = Math.min(
    Number(process.env.PETSTORE_TEST_PROCESSES) || availableParallelism() + 1,
    fast.length,
  );
  const outcomes = await Promise.all(
    deal(fast, count).map((group) => nodeTest(['--test-isolation=none', ...group], true, fastEnv)),
  );
  outcomes.forEach(({ output }, index) => {
    process.stdout.write(`\n── fast set, process ${index + 1} of ${count} ──\n${output}`);
  });
  return outcomes;
}

const totals = (outcomes: Outcome[]): string => {
  const sum = (name: string) =>
    outcomes.reduce(
      (total, { output }) => total + Number(output.match(new RegExp(`ℹ ${name} (\\d+)`))?.[1] ?? 0),
      0,
    );
  return ['tests', 'pass', 'fail', 'cancelled', 'skipped'].map((name) => `${name} ${sum(name)}`).join(', ');
};

const started = performance.now();
const outcomes = await runFast();
const failed = outcomes.some(({ code }) => code !== 0);
if (!isolate) console.log(`\nfast set (${fast.length} files): ${totals(outcomes)}`);
let fullCode = 0;
if (all) fullCode = (await nodeTest(['--test-concurrency=2', ...full], false)).code;
console.log(`${all ? 'all suites' : 'fast set'}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
process.exit(failed ? 1 : fullCode);
