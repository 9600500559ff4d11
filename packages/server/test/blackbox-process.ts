import { type ChildProcess, execFile } from 'node:child_process';
import { cli } from '../../cli/test/run-cli.ts';
import { GUARD_MS, MAIN, ROOT, spawnServe } from './serve-process.ts';

export { ROOT };

/** A clean environment: nothing from the developer's shell leaks into the service under test. */
export function cleanEnv(settings: Record<string, string>): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...settings };
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `petstore <args>` to completion in this process (`main(argv, io)`), in the repository's root with
 * exactly `env`, and `input` on its standard input.
 */
export function runCli(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string } = {},
): Promise<CliResult> {
  return cli(args, { cwd: ROOT, env, input: options.input });
}

/**
 * Runs `petstore <args>` to completion as a process (Node 24, the repository's own binary), with
 * `input` on its standard input, as `uid`/`gid` when given: for what only another user can show.
 */
export function runCliProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  options: { input?: string; uid?: number; gid?: number } = {},
): Promise<CliResult> {
  const { input = '', ...user } = options;
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [MAIN, ...args],
      { cwd: ROOT, env, timeout: GUARD_MS, ...user },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(input);
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
  user: { uid?: number; gid?: number } = {},
): Promise<ServerProcess> {
  const server = spawnServe(env, ['--port', '0'], user);
  children.add(server.child);
  const url = await server.listening();
  return {
    child: server.child,
    url,
    lines: server.lines,
    waitForLine: server.waitForLine,
    exited: server.exited,
  };
}

/** Ends every child still running (after hooks): no process outlives the suite. */
export function killAll(children: Set<ChildProcess>): void {
  for (const child of children) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  children.clear();
}
