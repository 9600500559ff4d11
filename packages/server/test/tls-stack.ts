import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type CliResult, cleanEnv, runCli } from './blackbox-process.ts';
import { adaptDeployCaddyfile, type Caddy, onLoopback, startCaddy } from './caddy-process.ts';
import { startZoneServer, type ZoneServer } from './dns-zone-server.ts';
import { TEST_CHANGE_POLL_MS } from './eventually.ts';
import { type Pebble, startPebble } from './pebble-process.ts';
import { freePort } from './scaleout-servers.ts';
import { type ServeProcess, spawnServe } from './serve-process.ts';
import {
  type Handshake,
  type HttpsAnswer,
  type HttpsOptions,
  httpsRequest,
  tlsHandshake,
  until,
} from './tls-client.ts';
import { tlsToolsMissing } from './tls-tools.ts';

export const SITE_DOMAIN = 'sites.example.test';
export const API_HOST = 'api.example.test';

/**
 * Production's TLS path, offline on loopback: a DNS zone (the customer's DNS provider and the
 * internet's resolvers, for Pebble and the service alike), Pebble as the CA, Caddy run from
 * deploy/Caddyfile, and `petstore serve` on a SQLite file behind it. Names reach Caddy through the test's
 * own client (SNI and Host on 127.0.0.1), never through /etc/hosts.
 */
export interface TlsStack {
  zone: ZoneServer;
  pebble: Pebble;
  caddy: Caddy;
  server: ServeProcess;
  /** The service itself, without Caddy: `http://127.0.0.1:<port>`. */
  serverUrl: string;
  /** The internal listener, where Caddy asks for certificates. */
  internalUrl: string;
  /** Caddy's HTTPS port (and the port in every https:// URL of the tests). */
  httpsPort: number;
  /** The environment of `petstore` commands: same database, DNS and names as the server. */
  env: NodeJS.ProcessEnv;
  cli(args: string[], input?: string): Promise<CliResult>;
  /** A request to `host` through Caddy, verified against Pebble's root. */
  https(
    host: string,
    path?: string,
    options?: Omit<HttpsOptions, 'port' | 'host' | 'path'>,
  ): Promise<HttpsAnswer>;
  handshake(host: string): Promise<Handshake>;
  /** The end of every process's output, for a failing test. */
  logs(): string;
  stop(): Promise<void>;
}

export async function startTlsStack(): Promise<TlsStack> {
  if (tlsToolsMissing) throw new Error(tlsToolsMissing);
  const dir = await mkdtemp(join(tmpdir(), 'petstore-tls-'));
  const children = new Set<ChildProcess>();
  const killChildren = () => {
    for (const child of children)
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  process.once('exit', killChildren);
  let zone: ZoneServer | undefined;
  const stop = async () => {
    const exits = [...children].map(
      (child) =>
        new Promise((resolve) =>
          child.exitCode !== null || child.signalCode !== null ? resolve(null) : child.once('exit', resolve),
        ),
    );
    killChildren();
    await Promise.all(exits);
    process.removeListener('exit', killChildren);
    await zone?.close();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    zone = await startZoneServer();
    zone.set(API_HOST, [{ type: 'A', value: '127.0.0.1' }]);
    const [httpPort, httpsPort, internalPort] = [await freePort(), await freePort(), await freePort()];
    const env = cleanEnv({
      DATABASE_URL: join(dir, 'petstore.db'),
      PETSTORE_SITE_DOMAIN: SITE_DOMAIN,
      PETSTORE_API_HOST: API_HOST,
      PETSTORE_DNS_SERVERS: zone.address,
      PETSTORE_TLS_PROBE: `127.0.0.1:${httpsPort}`,
      TRUST_PROXY: '127.0.0.1',
      PETSTORE_ENV: 'development',
      PETSTORE_INTERNAL_PORT: String(internalPort),
      PETSTORE_CHANGE_POLL_MS: String(TEST_CHANGE_POLL_MS),
    });
    const server = spawnServe(env, ['--port', '0']);
    children.add(server.child);
    const pebble = await startPebble({ dir, dnsServer: zone.address, httpPort, tlsPort: httpsPort });
    children.add(pebble.child);
    const serverUrl = await server.listening();
    const { port: upstreamPort } = new URL(serverUrl);
    const { config, warnings } = await adaptDeployCaddyfile(dir, {
      PETSTORE_API_HOST: API_HOST,
      PETSTORE_UPSTREAM_HOST: '127.0.0.1',
      PETSTORE_UPSTREAM_PORT: upstreamPort,
      PETSTORE_INTERNAL_PORT: String(internalPort),
      ACME_CA: pebble.directory,
    });
    if (warnings.length > 0)
      throw new Error(`caddy adapt warned about deploy/Caddyfile:\n${warnings.join('\n')}`);
    const caddy = await startCaddy(
      join(dir, 'caddy'),
      onLoopback(config, {
        dir: join(dir, 'caddy'),
        httpPort,
        httpsPort,
        acmeTrustedRoots: [pebble.listenerCertFile],
      }),
    );
    children.add(caddy.child);
    const tail = (text: string) => text.slice(-8_000);
    const logs = () =>
      [
        `--- caddy\n${tail(caddy.output())}`,
        `--- pebble\n${tail(pebble.output())}`,
        `--- petstore\n${tail(`${server.lines.join('\n')}\n${server.stderr()}`)}`,
      ].join('\n');
    // The API host's certificate is obtained when Caddy starts (not on demand): wait for it.
    await until(
      'the API host certificate',
      async () => ((await tlsHandshake(httpsPort, API_HOST)).ok ? true : undefined),
      15_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${logs()}`);
    });
    return {
      zone,
      pebble,
      caddy,
      server,
      serverUrl,
      internalUrl: `http://127.0.0.1:${internalPort}`,
      httpsPort,
      env,
      cli: (args, input) => runCli(args, env, { input }),
      https: (host, path = '/', options = {}) =>
        httpsRequest({ ...options, port: httpsPort, host, path, ca: options.ca ?? pebble.root }),
      handshake: (host) => tlsHandshake(httpsPort, host),
      logs,
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
