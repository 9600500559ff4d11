import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TestContext } from 'node:test';
import { promisify } from 'node:util';
import { assertMatchesContract } from './openapi-validator.ts';

const ROOT = join(import.meta.dirname, '../../..');
const MAIN = join(ROOT, 'packages/cli/src/main.ts');
const run = promisify(execFile);

export interface WireResponse {
  status: number;
  headers: Headers;
  body: string;
  code: string | undefined;
}

export interface ServedPetstore {
  url: string;
  /** Runs `petstore <args>` against the same database, as an operator would; resolves to stdout. */
  cli(...args: string[]): Promise<string>;
  /** GET with a bearer key; the response is checked against the contract. */
  get(path: string, key: string): Promise<WireResponse>;
}

/**
 * `petstore serve --port 0` as a child process (the Node running the tests) on a fresh SQLite file;
 * the URL comes from the "petstore listening" log line. The child is stopped after the test.
 */
export async function servePetstore(
  t: TestContext,
  env: Record<string, string> = {},
): Promise<ServedPetstore> {
  const dir = await mkdtemp(join(tmpdir(), 'petstore-blackbox-'));
  const childEnv = {
    ...process.env,
    DATABASE_URL: join(dir, 'petstore.db'),
    PETSTORE_ENV: 'development',
    LOG_LEVEL: 'info',
    REDIS_URL: '',
    PETSTORE_WORKERS: '1',
    ...env,
  };
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0'], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(async () => {
    await stop(child);
    await rm(dir, { recursive: true, force: true });
  });
  const url = await listeningUrl(child);

  return {
    url,
    async cli(...args) {
      const { stdout } = await run(process.execPath, [MAIN, ...args], { cwd: ROOT, env: childEnv });
      return stdout;
    },
    async get(path, key) {
      const response = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } });
      const body = await response.text();
      assertMatchesContract({
        method: 'GET',
        path,
        status: response.status,
        headers: response.headers,
        body,
      });
      const code = response.ok ? undefined : (JSON.parse(body) as { code: string }).code;
      return { status: response.status, headers: response.headers, body, code };
    },
  };
}

/** Resolves to the URL of the "petstore listening" line; the output is drained for the child's life. */
function listeningUrl(child: ChildProcess): Promise<string> {
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`petstore serve did not listen in 15 s: ${stderr}`)),
      15_000,
    );
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const entry = parseLog(line);
      if (entry?.msg !== 'petstore listening' || typeof entry.url !== 'string') return;
      clearTimeout(timer);
      resolve(entry.url);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`petstore serve exited with ${code} before listening: ${stderr}`));
    });
  });
}

function parseLog(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}
