import { type CliIo, note } from './io.ts';

/**
 * The exit statuses of every `petstore` command, by outcome whichever the mode: the database and the
 * management API end the same outcome with the same status (docs/cli.md lists them).
 */
export const EXIT = {
  ok: 0,
  /** The command ran but failed: the server or the database failed, or a check did not pass. */
  failed: 1,
  /** Wrong words on the command line, a bad setting, or a value the service refused: nothing was done. */
  usage: 2,
  /** The thing named does not exist (`pets get` of an unknown id, an unknown domain, a revoked key). */
  notFound: 3,
  /** The server or the database could not be reached, or did not answer within the timeouts. */
  unreachable: 4,
  /** No access token or API key, one that was refused, or one that may not do this (role, scope, plan). */
  notAllowed: 5,
  /** What is named exists, but its state does not allow it: taken, already done, the last owner. */
  conflict: 6,
} as const;

/** The table every `--help` ends with. */
export const EXIT_HELP = `Exit status (the same in both modes):
  0  done
  1  failed: the server or the database failed, or a check did not pass (the line on stderr says why)
  2  usage: wrong words, a bad setting or a value the service refused; nothing was done
  3  not found: the pet, project, key, member, invitation or domain named does not exist
  4  unreachable: the server or database could not be reached or did not answer in time
  5  not allowed: no access token or API key, one refused, or one that may not do this
  6  conflict: it exists, but its state does not allow this (taken, already done, the last owner)`;

/** The status of each error code of the service's catalogue (errors.ts), refused by either door. */
const CODE_EXIT: Record<string, ExitCode> = {
  invalid_json: 2,
  invalid_body: 2,
  invalid_parameter: 2,
  invalid_cursor: 2,
  invalid_request: 2,
  payload_too_large: 2,
  uri_too_long: 2,
  unsupported_media_type: 2,
  headers_too_large: 2,
  unauthorized: 5,
  forbidden: 5,
  insufficient_scope: 5,
  plan_required: 5,
  domain_limit_reached: 5,
  not_found: 3,
  request_timeout: 4,
  idempotency_in_progress: 6,
  idempotency_key_reused: 6,
  domain_exists: 6,
  key_limit_reached: 6,
  conflict: 6,
};

/**
 * The exit status of a refusal, from its error code (the same catalogue for the service on the database
 * and for the API's Error body), else its HTTP status; anything else (5xx, 429 after the retries) is 1.
 */
export function exitOfRefusal(problem: { code: string; status?: number }): ExitCode {
  const byCode = Object.hasOwn(CODE_EXIT, problem.code) ? CODE_EXIT[problem.code] : undefined;
  if (byCode !== undefined) return byCode;
  const { status = 0 } = problem;
  if (status === 401 || status === 403) return EXIT.notAllowed;
  if (status === 404) return EXIT.notFound;
  if (status === 409) return EXIT.conflict;
  return status === 400 ? EXIT.usage : EXIT.failed;
}

/** A refusal of the service (on the database) or of the API, as one line with its exit status. */
export function refusalError(problem: { code: string; message: string; status?: number }): CliError {
  return new CliError(problem.message, exitOfRefusal(problem));
}

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
