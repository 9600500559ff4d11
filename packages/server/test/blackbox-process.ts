import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

/** The repository root, where a user runs the `petstore` command from. */
export const ROOT = join(import.meta.dirname, '..', '..', '..');
const MAIN = join(ROOT, 'packages', 'cli', 'src', 'main.ts');

/** A clean environment: nothing from the developer's shell leaks into the service under test. */
export function cleanEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...settings };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `petstore <args>` to completion (Node 24, the repository's own binary). */
export function runCli(args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { cwd: ROOT, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

export interface ServerProcess {
  child: ChildProcess;
  /** The base URL the server logged in its 'petstore listening' line. */
  url: string;
  /** Every stdout line so far. */
  lines: string[];
  /** Resolves with the first stdout line (already seen or still to come) that matches. */
  waitForLine(match: (line: string) => boolean, timeoutMs?: number): Promise<string>;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
}

/** Starts `petstore serve --port 0` and waits until it logs the address it listens on. */
export async function startServe(
  env: NodeJS.ProcessEnv,
  children: Set<ChildProcess>,
): Promise<ServerProcess> {
  const child = spawn(process.execPath, [MAIN, 'serve', '--port', '0'], { cwd: ROOT, env, stdio: 'pipe' });
  children.add(child);
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

  const waitForLine = (match: (line: string) => boolean, timeoutMs = 15_000) =>
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

  const listening = await Promise.race([
    waitForLine((line) => line.includes('"petstore listening"')),
    exited.then((code) => {
      throw new Error(`petstore serve exited with ${code} before listening:\n${stderr}`);
    }),
  ]);
  const { url } = JSON.parse(listening) as { url: string };
  return { child, url, lines, waitForLine, exited };
}

/** Ends every child still running (after hooks): no process outlives the suite. */
export function killAll(children: Set<ChildProcess>): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}
