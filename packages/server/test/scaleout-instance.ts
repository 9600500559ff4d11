import { assertMatchesContract } from './openapi-validator.ts';
import { cli } from '../../cli/test/run-cli.ts';
import { GUARD_MS, parseLogLine, ROOT, spawnServe } from './serve-process.ts';

/** Inherited settings that would change how a spawned process behaves (the test's own stay). */
const SERVER_SETTING =
  /^(PORT|HOST|DATABASE_URL|REDIS_URL|PUBLIC_BASE_URL|TRUST_PROXY|PETSTORE_(?!TEST_|REQUIRE_)\w+)$/;

function environment(env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !SERVER_SETTING.test(name));
  return { ...Object.fromEntries(inherited), PETSTORE_ENV: 'development', LOG_LEVEL: 'info', ...env };
}

/** Runs the `petstore` command in this process (`main(argv, io)`) and returns its standard output. */
export async function petstore(args: string[], env: Record<string, string>): Promise<string> {
  const { code, stdout, stderr } = await cli(args, { cwd: ROOT, env: environment(env) });
  if (code !== 0) throw new Error(`petstore ${args.join(' ')} → exit ${code}: ${stderr}`);
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
export async function startInstance(env: Record<string, string>, timeoutMs = GUARD_MS): Promise<Instance> {
  const server = spawnServe(environment(env));
  let stopping = false;
  const stop = () => {
    stopping = true;
    return server.stop();
  };
  let url: string;
  try {
    url = await server.listening(timeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  // A crash while serving shows up as failed requests; say why.
  void server.exited.then((code) => {
    if (!stopping) console.error(`petstore serve exited while serving (${code}):\n${server.stderr()}`);
  });
  return { url, lines: server.lines, stop };
}

/** The parsed log entries whose message matches. */
export function logEntries(instance: Instance, message: RegExp): Record<string, unknown>[] {
  return instance.lines
    .map(parseLogLine)
    .filter(
      (entry): entry is Record<string, unknown> => entry !== undefined && message.test(String(entry.msg)),
    );
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
