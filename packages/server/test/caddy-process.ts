import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ROOT } from './serve-process.ts';
import { untilPrinted } from './tls-tools.ts';

const run = promisify(execFile);

/** The Caddyfile shipped for production. */
export const DEPLOY_CADDYFILE = join(ROOT, 'deploy', 'Caddyfile');

/** Caddy's JSON configuration, as far as the tests read and change it. */
export interface CaddyConfig {
  admin?: object;
  storage?: object;
  apps: {
    http: { http_port?: number; https_port?: number; servers: Record<string, { listen: string[] }> };
    tls: {
      automation: {
        policies: { subjects?: string[]; on_demand?: boolean; issuers: Record<string, unknown>[] }[];
        on_demand?: { ask?: string };
      };
    };
  };
}

/** A process environment for Caddy that keeps everything it writes (storage, autosave) inside `dir`. */
const caddyEnv = (dir: string, settings: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: dir,
  XDG_DATA_HOME: join(dir, 'data'),
  XDG_CONFIG_HOME: join(dir, 'config'),
  ...settings,
});

/** `caddy adapt` of deploy/Caddyfile with these settings: its JSON, and any warning Caddy printed. */
export async function adaptDeployCaddyfile(
  dir: string,
  settings: Record<string, string>,
): Promise<{ config: CaddyConfig; warnings: string[] }> {
  const { stdout, stderr } = await run(
    'caddy',
    ['adapt', '--config', DEPLOY_CADDYFILE, '--adapter', 'caddyfile'],
    { env: caddyEnv(dir, settings) },
  );
  const warnings = stderr
    .split('\n')
    .filter((line) => line.includes('"level":"warn"') || line.includes('"level":"error"'));
  return { config: JSON.parse(stdout) as CaddyConfig, warnings };
}

/**
 * The production configuration moved onto loopback for a test, changing only what a test must: the
 * ports (high, free, 127.0.0.1 only), no admin endpoint, storage in the test's directory, and the
 * certificate of the test CA's own listener trusted for talking ACME to it. Routes, the ask and the
 * proxying stay exactly as shipped.
 */
export function onLoopback(
  config: CaddyConfig,
  options: { dir: string; httpPort: number; httpsPort: number; acmeTrustedRoots: string[] },
): CaddyConfig {
  const copy = structuredClone(config);
  copy.admin = { disabled: true, config: { persist: false } };
  copy.storage = { module: 'file_system', root: join(options.dir, 'storage') };
  copy.apps.http.http_port = options.httpPort;
  copy.apps.http.https_port = options.httpsPort;
  for (const [name, server] of Object.entries(copy.apps.http.servers)) {
    if (server.listen.join() !== ':443') throw new Error(`server ${name} listens on ${server.listen.join()}`);
    server.listen = [`127.0.0.1:${options.httpsPort}`];
  }
  for (const policy of copy.apps.tls.automation.policies) {
    for (const issuer of policy.issuers) {
      if (issuer.module === 'acme') issuer.trusted_roots_pem_files = options.acmeTrustedRoots;
    }
  }
  return copy;
}

export interface Caddy {
  child: ChildProcess;
  /** Everything Caddy logged so far (JSON lines). */
  output(): string;
}

/** `caddy run` with a JSON configuration; resolves once it serves it. */
export async function startCaddy(dir: string, config: CaddyConfig): Promise<Caddy> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'caddy.json');
  await writeFile(file, JSON.stringify(config));
  const child = spawn('caddy', ['run', '--config', file], {
    env: caddyEnv(dir),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = await untilPrinted(child, 'Caddy', 'serving initial configuration');
  return { child, output };
}
