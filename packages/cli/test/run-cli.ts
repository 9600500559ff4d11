import { execFile } from 'node:child_process';
import { join } from 'node:path';

/** The `petstore` program (with its compile cache), run by the Node running the tests (Node 24). */
export const MAIN = join(import.meta.dirname, '..', 'bin', 'petstore.js');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `petstore <args>` in `cwd` with exactly `env` (plus PATH and HOME). */
export function runCli(
  args: string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<CliResult> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [MAIN, ...args],
      { cwd: options.cwd, env, timeout: 30_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
