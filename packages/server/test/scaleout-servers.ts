import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { listenOnLowPort } from './low-ports.ts';

const run = promisify(execFile);
const required = process.env.PETSTORE_REQUIRE_SERVICES === '1';

/** A skip reason for node:test, or a thrown error when CI requires the servers (as services.ts does). */
export function skipOrFail(reason: string): { skip: string } {
  if (required) throw new Error(`${reason} (PETSTORE_REQUIRE_SERVICES=1 requires it)`);
  console.warn(`# SKIPPED: ${reason}`);
  return { skip: reason };
}

/** A port nobody listens on right now, released for a child process to listen on. */
export async function freePort(): Promise<number> {
  const { port, listening } = await listenOnLowPort(async (candidate) => {
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(candidate, '127.0.0.1', resolve);
    });
    return server;
  });
  await new Promise((resolve) => listening.close(resolve));
  return port;
}

/** Resolves once something accepts TCP connections on the port, or rejects after `timeoutMs`. */
export async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: '127.0.0.1', port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`nothing answers on 127.0.0.1:${port} after ${timeoutMs} ms`);
}

function onPath(binary: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir && existsSync(join(dir, binary))) return join(dir, binary);
  }
  return undefined;
}

/** The directory holding initdb and pg_ctl: on the PATH, else Debian's newest /usr/lib/postgresql/N/bin. */
function postgresBinDir(): string | undefined {
  const initdb = onPath('initdb');
  if (initdb) return join(initdb, '..');
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

export interface PrivatePostgres {
  url: string;
  port: number;
  /** `immediate` drops every connection at once, as a crash would (recovery replays the WAL on start). */
  stop(mode?: 'fast' | 'immediate'): Promise<void>;
  start(): Promise<void>;
  /** Stops the server if it runs and removes its files; safe to call twice. */
  dispose(): Promise<void>;
}

/** Where a private PostgreSQL cluster can be made, or why not. */
export function privatePostgresAvailable(suite: string): { binDir: string } | { skip: string } {
  const binDir = postgresBinDir();
  if (binDir) return { binDir };
  return skipOrFail(
    `${suite}: needs a private PostgreSQL, but initdb is not on the PATH or in /usr/lib/postgresql/N/bin`,
  );
}

/**
 * A throw-away PostgreSQL cluster on its own port, which a test may stop and start. initdb refuses to
 * run as root, so as root the cluster belongs to the `postgres` OS user.
 */
export async function privatePostgres(binDir: string): Promise<PrivatePostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-pg-'));
  const asRoot = process.getuid?.() === 0;
  const exec = async (binary: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(binDir, binary);
    const argv = asRoot ? ['-u', 'postgres', '--', join(binDir, binary), ...args] : args;
    await run(command, argv, { timeout: 30_000 });
  };
  if (asRoot) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const port = await freePort();
  const data = join(dir, 'data');
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1`;
  let running = false;
  const start = async () => {
    await exec('pg_ctl', [
      '-D',
      data,
      '-l',
      join(dir, 'server.log'),
      '-o',
      options,
      '-w',
      '-t',
      '20',
      'start',
    ]);
    running = true;
  };
  const stop = async (mode: 'fast' | 'immediate' = 'fast') => {
    await exec('pg_ctl', ['-D', data, '-m', mode, '-w', '-t', '20', 'stop']);
    running = false;
  };
  try {
    await exec('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '-N', '-E', 'UTF8', '--locale=C']);
    await start();
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop,
    start,
    async dispose() {
      if (running) await stop('immediate').catch(() => {});
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface PrivateRedis {
  url: string;
  port: number;
  /** SIGKILL: the server vanishes without a goodbye, as in a crash. */
  kill(): Promise<void>;
  /** Starts a new, empty server on the same port. */
  start(): Promise<void>;
  dispose(): Promise<void>;
}

/** Where a private redis-server can be started, or why not. */
export function privateRedisAvailable(suite: string): { binary: string } | { skip: string } {
  const binary = onPath('redis-server');
  return binary
    ? { binary }
    : skipOrFail(`${suite}: needs a private Redis, but redis-server is not on the PATH`);
}

/** A throw-away redis-server without persistence on its own port, which a test may kill and restart. */
export async function privateRedis(binary: string): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const kill = async () => {
    const current = child;
    child = undefined;
    if (!current || current.exitCode !== null || current.signalCode !== null) return;
    const exited = new Promise((resolve) => current.once('exit', resolve));
    current.kill('SIGKILL');
    await exited;
  };
  const start = async () => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
    child = spawn(binary, [...args, '--dir', tmpdir()], { stdio: 'ignore' });
    try {
      await waitForPort(port, 5_000);
    } catch (error) {
      await kill();
      throw error;
    }
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start, dispose: kill };
}
