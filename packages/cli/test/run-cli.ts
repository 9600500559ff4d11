import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { main } from '../src/main.ts';

/** The `petstore` program (with its compile cache), run by the Node running the tests (Node 24). */
export const MAIN = join(import.meta.dirname, '..', 'bin', 'petstore.js');

/**
 * The configuration directory of a test's runs unless it names its own: one nobody writes, so no
 * login saved on this machine (in the real HOME) ever decides a test's mode.
 */
const NO_LOGINS = join(tmpdir(), `petstore-no-logins-${process.pid}`);

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Standard input (a pipe, not a terminal); empty when absent. */
  input?: string;
}

/**
 * Runs `petstore <args>` in this process through `main(argv, io)`, in `cwd`, with exactly `env`
 * (plus PATH, HOME and an empty XDG_CONFIG_HOME) and `input` on standard input: what the program does,
 * without a Node start-up.
 */
export async function cli(args: string[], options: CliOptions): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    stdin: Readable.from(options.input ? [options.input] : []),
    env: { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: NO_LOGINS, ...options.env },
    cwd: options.cwd,
  });
  return { code, stdout, stderr };
}

/** Runs `petstore <args>` as a real process, for the one smoke test of each command group. */
export function runCli(args: string[], options: CliOptions): Promise<CliResult> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, XDG_CONFIG_HOME: NO_LOGINS, ...options.env };
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [MAIN, ...args],
      { cwd: options.cwd, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end(options.input ?? '');
  });
}
