// Runs the test suites: `npm test` the fast set (in-process: no browser, no TLS stack, no spawned
// server or CLI process, no outage or crash cycle), `npm run test:all` every suite. Extra arguments go
// to `node --test`.
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';

/** Suites that only `test:all` runs, and why. */
const FULL_ONLY: Record<string, string> = {
  'packages/server/test/dashboard-browser.test.ts': 'browser',
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
  'packages/server/test/request-log-shutdown.test.ts': 'spawned servers',
  'packages/server/test/slow-clients.test.ts': 'spawned server, slow sockets',
  'packages/server/test/workers.test.ts': 'spawned server',
  'packages/server/test/edge-errors.test.ts': 'spawned server, raw sockets',
  'packages/server/test/hostile/catalogue.test.ts': 'spawned server, raw sockets',
  'packages/server/test/operators-domains.test.ts': 'spawned CLI',
  'packages/server/test/client-package.test.ts': 'packs and builds the client',
  'packages/client/test/package.test.ts': 'packs and builds the client',
  'packages/cli/test/start-flags.test.ts': 'spawned CLI',
  'bench/peers/peers.test.ts': 'spawned peer servers',
};

const all = process.argv.includes('--all');
const extra = process.argv.slice(2).filter((arg) => arg !== '--all');
const files = globSync(['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'bench/**/*.test.ts'])
  .sort()
  .filter((file) => all || !(file in FULL_ONLY));
const missing = Object.keys(FULL_ONLY).filter((file) => !globSync(file).length);
if (missing.length > 0) {
  console.error(`scripts/test.ts names suites that do not exist: ${missing.join(', ')}`);
  process.exit(2);
}
// No test may hang the run: each has 5 minutes at most (the slowest take about 1 under load).
const run = spawnSync(
  process.execPath,
  ['--test', '--test-concurrency=2', '--test-timeout=300000', ...extra, ...files],
  {
    stdio: 'inherit',
  },
);
process.exit(run.status ?? 1);
