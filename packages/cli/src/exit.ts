import { type CliIo, note } from './io.ts';

/** The exit statuses of every `petstore` command (docs/cli.md lists them). */
export const EXIT = {
  ok: 0,
  /** The command ran but failed: the API or the database refused it. */
  failed: 1,
  /** Wrong words on the command line, or a bad setting: nothing was done. */
  usage: 2,
  /** The thing named does not exist (`pets get` of an unknown id, an unknown domain). */
  notFound: 3,
  /** The server or the database could not be reached, or did not answer within the timeouts. */
  unreachable: 4,
} as const;

/** The table every `--help` ends with. */
export const EXIT_HELP = `Exit status:
  0  done
  1  failed: the API or the database refused (the line on standard error says why)
  2  usage: wrong words or a bad setting; nothing was done
  3  not found: the pet, project, key or domain named does not exist
  4  unreachable: the server or database could not be reached or did not answer in time`;

/** Errors of the network: no connection, no such host, the peer went away, no answer in time. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'CONNECT_TIMEOUT',
  'READ_TIMEOUT',
]);

/** Whether `error` (or an error it wraps) is a network failure: exit status 4. */
export function isUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
    if (e instanceof AggregateError && e.errors.some(isUnreachable)) return true;
  }
  return false;
}

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

/** The thing a command names does not exist: exit status 3. */
export class NotFoundError extends CliError {
  override name = 'NotFoundError';

  constructor(message: string) {
    super(message, EXIT.notFound);
  }
}

/** Any text as one line: line breaks and runs of blanks become single spaces. */
export function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim();
}

/**
 * Prints an error as one `petstore: …` line on standard error and returns the exit status. Errors of
 * the server's configuration (`ConfigError`) are usage errors, network failures (a database that
 * cannot be reached) exit 4; anything else unforeseen is a failure.
 */
export function reportError(error: unknown, io: CliIo): ExitCode {
  const message = error instanceof Error ? error.message : String(error);
  note(io, `petstore: ${oneLine(message)}`);
  if (error instanceof CliError) return error.exitCode;
  if (error instanceof Error && error.name === 'ConfigError') return EXIT.usage;
  return isUnreachable(error) ? EXIT.unreachable : EXIT.failed;
}
