import { manageBaseUrl } from './api-address.ts';
import { savedToken } from './credentials.ts';
import { UsageError } from './exit.ts';
import { type CliIo, note } from './io.ts';
import type { ManageApi } from './manage-api.ts';
import { type ParsedCommand, stringOption } from './usage.ts';

export type { ManageApi } from './manage-api.ts';

/** A command's way in: the management API with an access token, or the operator's database. */
export type OperatorMode = { kind: 'api'; api: ManageApi } | { kind: 'database' };

/** `ps_at_` and the first characters: enough to tell tokens apart, never the secret. */
export const tokenPrefix = (token: string): string => `${token.slice(0, 10)}…`;

/**
 * The mode of an operator command, said in one line on stderr: `--database` always means the
 * database; else an access token (PETSTORE_ACCESS_TOKEN, or the one `petstore login` saved for
 * PETSTORE_BASE_URL) means the management API; else the database, as before tokens existed.
 */
export async function chooseMode(io: CliIo, parsed: ParsedCommand): Promise<OperatorMode> {
  if (stringOption(parsed, 'database') !== undefined) return { kind: 'database' };
  const baseUrl = manageBaseUrl(io);
  const fromEnv = io.env.PETSTORE_ACCESS_TOKEN;
  const token = fromEnv || (await savedToken(io, baseUrl))?.token;
  if (!token) return { kind: 'database' };
  const source = fromEnv ? 'PETSTORE_ACCESS_TOKEN' : 'saved by petstore login';
  note(io, `petstore: management API at ${baseUrl} as token ${tokenPrefix(token)} (${source})`);
  // The typed client is loaded only here: a command on the database never needs it.
  const { manageApi } = await import('./manage-api.ts');
  return { kind: 'api', api: manageApi(io, parsed, baseUrl, token) };
}

/** An operator command the management API does not offer: refused before anything is sent. */
export function databaseOnly(command: string): UsageError {
  return new UsageError(
    `${command} changes the server's database directly: run it on the server without an access token (unset PETSTORE_ACCESS_TOKEN, or "petstore logout"), or pass --database`,
  );
}
