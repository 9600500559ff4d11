import { manageBaseUrl, serviceAddress } from './api-address.ts';
import { savedToken } from './credentials.ts';
import { CliError, EXIT, UsageError } from './exit.ts';
import { type CliIo, note } from './io.ts';
import type { ManageApi } from './manage-api.ts';
import { type ParsedCommand, stringOption } from './usage.ts';

export type { ManageApi } from './manage-api.ts';

/** A command's way in: the management API with an access token, or the operator's database. */
export type OperatorMode = { kind: 'api'; api: ManageApi } | { kind: 'database' };

/** `ps_at_` and the first characters: enough to tell tokens apart, never the secret. */
export const tokenPrefix = (token: string): string => `${token.slice(0, 10)}…`;

/** What decides a command's mode: the flags and variables given, and whether a login is saved. */
export interface ModeFacts {
  /** The operator's own command (admin, plans, standalone keys): the database, never the API. */
  operator: boolean;
  databaseFlag: boolean;
  /** `--base-url`, where it names the API (for `admin invite` it is the links' address instead). */
  baseUrlFlag: boolean;
  envBaseUrl: boolean;
  envToken: boolean;
  envDatabase: boolean;
  /** A token `petstore login` saved for the base URL; only asked when it can decide. */
  savedToken: () => Promise<boolean>;
}

/**
 * The one rule of every command's mode, flags before the environment before a saved login:
 * `--database` is the database; else a base URL or an access token (`--base-url`, PETSTORE_BASE_URL,
 * PETSTORE_ACCESS_TOKEN) is the management API; else DATABASE_URL is the database; else a login saved
 * for the default address is the API; else the API for a project's command, the database (its default
 * file) for the operator's own. The operator's own commands run on the database alone: where the rule
 * says the API, they are refused.
 */
export async function modeOf(facts: ModeFacts): Promise<'database' | 'api' | 'refused'> {
  if (facts.databaseFlag) return 'database';
  const api =
    facts.baseUrlFlag ||
    facts.envBaseUrl ||
    facts.envToken ||
    (!facts.envDatabase && (!facts.operator || (await facts.savedToken())));
  if (!api) return 'database';
  return facts.operator ? 'refused' : 'api';
}

/** Why an operator's own command was refused: what named the API (modeOf). */
function refusalReason(io: CliIo, source: string | undefined, baseUrl: string): string {
  if (io.env.PETSTORE_ACCESS_TOKEN) return 'PETSTORE_ACCESS_TOKEN is set';
  if (source !== undefined) return `${source} names the management API`;
  return `"petstore login" saved a token for ${baseUrl}`;
}

/**
 * The mode of a command, decided by `modeOf` and said in one line on stderr (the database's line comes
 * when it is opened). `operator` names an operator's own command: refused, before anything is opened
 * or sent, where a base URL or a token names the API; a project's command in API mode without a
 * token is refused with how to get one (exit 5), never run on a database nobody named. Where
 * `baseUrlIsLinks`, `--base-url` is the address of the links a command prints, not the API's.
 */
export async function chooseMode(
  io: CliIo,
  parsed: ParsedCommand,
  operator?: string,
  options: { baseUrlIsLinks?: boolean } = {},
): Promise<OperatorMode> {
  const flag = options.baseUrlIsLinks ? undefined : stringOption(parsed, 'base-url');
  const address = serviceAddress(io, flag);
  const baseUrl = manageBaseUrl(address);
  const envToken = io.env.PETSTORE_ACCESS_TOKEN || undefined;
  const mode = await modeOf({
    operator: operator !== undefined,
    databaseFlag: stringOption(parsed, 'database') !== undefined,
    baseUrlFlag: flag !== undefined,
    envBaseUrl: Boolean(io.env.PETSTORE_BASE_URL),
    envToken: envToken !== undefined,
    envDatabase: Boolean(io.env.DATABASE_URL),
    savedToken: async () => (await savedToken(io, baseUrl)) !== undefined,
  });
  if (mode === 'database') return { kind: 'database' };
  if (mode === 'refused') {
    throw new UsageError(
      `${operator} runs on the server's database alone (the management API does not offer it), and ${refusalReason(io, address.source, baseUrl)}: nothing was sent; on the server, pass --database URL (or set DATABASE_URL) to run it as the operator`,
    );
  }
  const token = envToken ?? (await savedToken(io, baseUrl))?.token;
  if (token === undefined) {
    const named =
      address.source ??
      'the default address: no --base-url, PETSTORE_BASE_URL, --database or DATABASE_URL was given';
    throw new CliError(
      `no access token for the management API at ${baseUrl} (${named}): run "petstore login" with a token made in the dashboard under Account → Access tokens, or set PETSTORE_ACCESS_TOKEN; or, on the server, pass --database URL (or set DATABASE_URL) to work on its database as the operator`,
      EXIT.notAllowed,
    );
  }
  const source = envToken ? 'PETSTORE_ACCESS_TOKEN' : 'saved by petstore login';
  note(io, `petstore: management API at ${baseUrl} as token ${tokenPrefix(token)} (${source})`);
  // The typed client is loaded only here: a command on the database never needs it.
  const { manageApi } = await import('./manage-api.ts');
  return { kind: 'api', api: manageApi(io, parsed, baseUrl, token) };
}
