import { type CliIo, note } from './io.ts';

/** The exit statuses of every `petstore` command (docs/cli.md lists them). */
export const EXIT = {
  ok: 0,
  /** The command ran but failed: the database or the API refused or could not be reached. */
  failed: 1,
  /** Wrong words on the command line, or a bad setting: nothing was done. */
  usage: 2,
  /** The thing asked for does not exist (`pets get` of an unknown id). */
  notFound: 3,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the user can act on: printed as one line, ending the command with its exit status. */
export class CliError extends Error {
  override name = 'CliError';
  readonly exitCode: ExitCode;

  constructor(message: string, exitCode: ExitCode = EXIT.failed) {
    super(message);
    this.exitCode = exitCode;
  }
}

/** Wrong words on the command line or a bad setting: exit status 2. */
export class UsageError extends CliError {
  override name = 'UsageError';

  constructor(message: string) {
    super(message, EXIT.usage);
  }
}

/** Any text as one line: line breaks and runs of blanks become single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Prints an error as one `petstore: …` line on standard error and returns the exit status. Errors of
 * the server's configuration (`ConfigError`) are usage errors; anything unforeseen is a failure.
 */
export function reportError(error: unknown, io: CliIo): ExitCode {
  const message = error instanceof Error ? error.message : String(error);
  note(io, `petstore: ${oneLine(message)}`);
  if (error instanceof CliError) return error.exitCode;
  return error instanceof Error && error.name === 'ConfigError' ? EXIT.usage : EXIT.failed;
}
