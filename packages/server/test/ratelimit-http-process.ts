import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { assertMatchesContract } from './openapi-validator.ts';
import { cli } from '../../cli/test/run-cli.ts';
import { ROOT, spawnServe } from './serve-process.ts';

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
  const server = spawnServe(childEnv);
  t.after(async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });
  const url = await server.listening();

  return {
    url,
    async cli(...args) {
      const { code, stdout, stderr } = await cli(args, { cwd: ROOT, env: childEnv });
      if (code !== 0) throw new Error(`petstore ${args.join(' ')} → exit ${code}: ${stderr}`);
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
