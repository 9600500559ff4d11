import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The repository root, where a user runs the `petstore` command from. */
export const ROOT = join(import.meta.dirname, '..', '..', '..');
/** The `petstore` command's entry, run by the Node running the tests (Node 24). */
export const MAIN = join(ROOT, 'packages', 'cli', 'bin', 'petstore.js');

/**
 * How long a spawned process may take to start or to say what a test waits for before the test fails.
 * Only a bound against a hung process, never the expected path: on a machine whose cores are shared
 * many times over, starting Node and loading the server takes tens of seconds.
 */
export const GUARD_MS = 60_000;

export interface ServeProcess {
  child: ChildProcess;
  /** Every standard output line (pino JSON) so far. */
  lines: string[];
  /** Standard error so far. */
  stderr(): string;
  /** Resolves with the first stdout line (already seen or still to come) that matches. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** The URL of the `petstore listening` line; rejects if the process exits first or after timeoutMs. */
  listening(timeoutMs?: number): Promise<string>;
  /** SIGTERM, then SIGKILL if it has not exited within 5 s; safe to call twice. */
  stop(): Promise<void>;
}

/** The JSON object of a log line, or undefined for anything else. */
export function parseLogLine(line: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(line) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/**
 * Spawns `petstore serve <args>` with exactly `env` (as `user` when given), collecting its output from
 * the first byte; `command` is Node's arguments before `serve` (another bin, Node flags).
 */
export function spawnServe(
  env: NodeJS.ProcessEnv,
  args: string[] = ['--port', '0'],
  user: { uid?: number; gid?: number } = {},
  command: string[] = [MAIN],
): ServeProcess {
  const child = spawn(process.execPath, [...command, 'serve', ...args], {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...user,
  });
  return watchServe(child);
}

/** Collects the output of a spawned process that serves (`petstore serve`, or npm running it). */
export function watchServe(child: ChildProcess): ServeProcess {
  const lines: string[] = [];
  const waiters = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const wake of waiters) wake();
  });
  let stderr = '';
  child.stderr!.on('data', (chunk) => {
    stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  const waitForLine = (match: (line: string) => boolean, timeoutMs = GUARD_MS) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const found = lines.find(match);
        if (found === undefined) return false;
        waiters.delete(check);
        clearTimeout(timer);
        resolve(found);
        return true;
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(
          new Error(`no such line within ${timeoutMs} ms; stdout:\n${lines.join('\n')}\nstderr:\n${stderr}`),
        );
      }, timeoutMs);
      if (!check()) waiters.add(check);
    });

  const listening = async (timeoutMs = GUARD_MS) => {
    const line = await Promise.race([
      waitForLine((candidate) => parseLogLine(candidate)?.msg === 'petstore listening', timeoutMs),
      exited.then((code) => {
        throw new Error(`petstore serve exited with ${code} before listening:\n${stderr}`);
      }),
    ]);
    return String(parseLogLine(line)!.url);
  };

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };

  return { child, lines, stderr: () => stderr, waitForLine, exited, listening, stop };
}
