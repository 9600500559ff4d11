import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { assertMatchesContract } from './openapi-validator.ts';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..', '..');
const MAIN = join(ROOT, 'packages', 'cli', 'src', 'main.ts');

/** Inherited settings that would change how a spawned process behaves (the test's own stay). */
const SERVER_SETTING =
  /^(PORT|HOST|DATABASE_URL|REDIS_URL|PUBLIC_BASE_URL|TRUST_PROXY|PETSTORE_(?!TEST_|REQUIRE_)\w+)$/;

function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !SERVER_SETTING.test(name));
  return { ...Object.fromEntries(inherited), PETSTORE_ENV: 'development', LOG_LEVEL: 'info', ...env };
}

/** Runs the `petstore` command (this same Node binary) and returns its standard output. */
export async function petstore(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, [MAIN, ...args], {
    cwd: ROOT,
    env: environment(env),
    timeout: 20_000,
  });
  return stdout;
}

/** `petstore keys create … --json`: the new key's id and secret. */
export async function createKey(
  env: Record<string, string>,
  plan: string[] = ['--plan', 'free'],
): Promise<{ id: string; key: string }> {
  const lines = (await petstore(['keys', 'create', ...plan, '--json'], env)).trim().split('\n');
  const { id, key } = JSON.parse(lines.at(-1)!) as { id: string; key: string };
  return { id, key };
}

export interface Instance {
  /** The bound address, e.g. `http://127.0.0.1:40123`. */
  url: string;
  /** Every line the process wrote to standard output (pino JSON) so far. */
  lines: string[];
  /** SIGTERM, then SIGKILL if it has not exited within 5 s; safe to call twice. */
  stop(): Promise<void>;
}

/** `petstore serve --port 0` in its own process; resolves with the URL from the `petstore listening` line. */
export async function startInstance(env: Record<string, string>, timeoutMs = 20_000): Promise<Instance> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0'], {
    cwd: ROOT,
    env: environment(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += chunk;
  });
  let stopping = false;
  const stop = () => {
    stopping = true;
    return stopProcess(child);
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => fail(`no 'petstore listening' line within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      void stop();
      reject(new Error(`petstore serve: ${why}\n${stderr}${lines.join('\n')}`));
    };
    child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before listening`));
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      const entry = parseLine(line);
      if (entry?.msg === 'petstore listening') {
        clearTimeout(timer);
        child.removeAllListeners('exit');
        // A crash while serving shows up as failed requests; say why.
        child.once('exit', (code, signal) => {
          if (!stopping) console.error(`petstore serve exited while serving (${code ?? signal}):\n${stderr}`);
        });
        resolve(String(entry.url));
      }
    });
  });
  return { url, lines, stop };
}

function parseLine(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** The parsed log entries whose message matches. */
export function logEntries(instance: Instance, message: RegExp): Record<string, unknown>[] {
  return instance.lines
    .map(parseLine)
    .filter(
      (entry): entry is Record<string, unknown> => entry !== undefined && message.test(String(entry.msg)),
    );
}

async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export interface Reply {
  status: number;
  headers: Headers;
  body: string;
  /** How long the request took, in ms. */
  elapsedMs: number;
  json(): Record<string, unknown>;
}

/**
 * One request to an instance, checked against the OpenAPI contract. Aborts after `timeoutMs`, so a hung
 * request fails the test instead of stalling it.
 */
export async function call(
  base: string,
  path: string,
  options: { method?: string; key?: string; body?: unknown; timeoutMs?: number } = {},
): Promise<Reply> {
  const method = options.method ?? 'GET';
  const headers: Record<string, string> = {};
  if (options.key) headers.authorization = `Bearer ${options.key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const started = performance.now();
  const response = await fetch(new URL(path, base), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
  });
  const body = await response.text();
  const elapsedMs = performance.now() - started;
  assertMatchesContract({ method, path, status: response.status, headers: response.headers, body });
  return {
    status: response.status,
    headers: response.headers,
    body,
    elapsedMs,
    json: () => JSON.parse(body) as Record<string, unknown>,
  };
}

/** The path and query of a `Link` header's rel="next" target, or undefined on the last page. */
export function nextLink(headers: Headers): string | undefined {
  const link = headers.get('link') ?? '';
  const match = /<([^>]*)>\s*;\s*rel="?next"?/.exec(link);
  if (!match) return undefined;
  const target = new URL(match[1]!, 'http://placeholder');
  return `${target.pathname}${target.search}`;
}

/**
 * Waits for every promise to settle, then throws the first failure: nothing started (a process, a
 * server) is still on its way when the caller's clean-up runs.
 */
export async function settleAll(promises: Promise<unknown>[]): Promise<void> {
  const failed = (await Promise.allSettled(promises)).find((result) => result.status === 'rejected');
  if (failed) throw failed.reason;
}

/** Polls `probe` every 100 ms until it returns true; throws after `timeoutMs`. */
export async function eventually(what: string, timeoutMs: number, probe: () => Promise<boolean>) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
