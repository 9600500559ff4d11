import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { ROOT } from './serve-process.ts';
import { skipWithoutTlsTools } from './tls-tools.ts';

const run = promisify(execFile);

/**
 * Slow (a few seconds when idle, it starts Pebble, Caddy and the service): docs/tls.md's local
 * walk-through, run command for command by scripts/tls-walkthrough.sh, which also checks every output
 * the page promises. A change to the Caddyfile, the settings or the CLI that breaks the page fails here.
 */
test(
  'docs/tls.md: the local walk-through works verbatim (Pebble, Caddy from deploy/Caddyfile, the service)',
  {
    skip: skipWithoutTlsTools,
    timeout: 180_000,
  },
  async () => {
    const { stdout } = await run('bash', [join(ROOT, 'scripts', 'tls-walkthrough.sh')], {
      cwd: ROOT,
      timeout: 170_000,
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout?: string; stderr?: string; message: string }) => {
      throw new Error(`${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
    });
    assert.match(stdout, /every step of docs\/tls\.md worked as documented/);
  },
);
