import type { PetstoreError } from './api-client.ts';
import { CliError, EXIT, exitOfRefusal, isUnreachable, oneLine } from './exit.ts';

/** No answer at all, said in one line whatever the address: exit status 4. */
export function unreachable(baseUrl: string, cause: unknown): CliError {
  const error = cause instanceof Error ? cause : new Error(String(cause));
  const code = (error as { code?: string }).code;
  const reason =
    error.name === 'TimeoutError'
      ? error.message
      : `${error.message}${code && !error.message.includes(code) ? ` (${code})` : ''}`;
  return new CliError(
    oneLine(
      `cannot reach the API at ${baseUrl}: ${reason}; is PETSTORE_BASE_URL right and the server running?`,
    ),
    EXIT.unreachable,
  );
}

/** The deepest cause of a fetch failure: the socket's error rather than "fetch failed". */
export function rootCause(error: unknown): unknown {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  return current;
}

/**
 * A refusal of the API as one line and the exit status of its outcome (exitOfRefusal: the database
 * mode's for the same outcome), 4 for no answer; `hint` is added when a credential was refused or lacks.
 */
export function apiFailure(error: PetstoreError, base: string, hint: string): CliError {
  const request = error.requestId ? ` (request ${error.requestId})` : '';
  if (error.code === 'network_error' || isUnreachable(error)) return unreachable(base, rootCause(error));
  const more = error.code === 'unauthorized' ? `; ${hint}` : '';
  const message = `${error.status} ${error.code}: ${error.message}${more}${request}`;
  return new CliError(message, exitOfRefusal(error));
}
