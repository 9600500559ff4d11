import { resolve } from 'node:path';

/** Where a command writes: process.stdout and process.stderr, or a test's memory. */
export interface Output {
  write(text: string): unknown;
  /** A terminal: progress lines are drawn only there. */
  isTTY?: boolean;
}

/** Standard input: a pipe, a file, or a terminal (which the password prompt switches to raw mode). */
export type Input = NodeJS.ReadableStream & {
  isTTY?: boolean;
  setRawMode?(mode: boolean): unknown;
};

/**
 * Everything a command reads from and writes to outside its arguments. Commands never touch
 * `process.env`, `process.cwd()`, the standard streams or `process.exit`: `main` returns the exit status.
 */
export interface CliIo {
  stdout: Output;
  stderr: Output;
  stdin: Input;
  env: NodeJS.ProcessEnv;
  /** The directory relative paths (a SQLite file) are resolved against. */
  cwd: string;
}

/**
 * The real process's streams, environment and directory. Node.js makes a standard stream when it is
 * first read (standard input from a file or /dev/null loads the fs streams): each is taken when a
 * command first uses it, so `serve`, which never reads its standard input, makes none.
 */
export function processIo(): CliIo {
  return {
    get stdout() {
      return process.stdout;
    },
    get stderr() {
      return process.stderr;
    },
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    cwd: process.cwd(),
  };
}

/** One line on standard output: the command's result. */
export function say(io: CliIo, text: string): void {
  io.stdout.write(`${text}\n`);
}

/** One line on standard error: progress, notes and failures. */
export function note(io: CliIo, text: string): void {
  io.stderr.write(`${text}\n`);
}

/** A path given on the command line or in the environment, resolved against the command's directory. */
export function resolvePath(io: CliIo, path: string): string {
  return resolve(io.cwd, path);
}
