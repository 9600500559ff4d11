import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { loginKey } from './api-address.ts';
import { CliError, EXIT } from './exit.ts';
import { type CliIo, note } from './io.ts';

/** One saved access token, for the management API at one base URL. */
export interface SavedToken {
  token: string;
  /** When `petstore login` saved it (ISO 8601). */
  savedAt: string;
}

interface CredentialsFile {
  /** Management API base URL (as loginKey spells it) → its token. */
  tokens: Record<string, SavedToken>;
}

/** `$XDG_CONFIG_HOME/petstore/credentials.json`, `~/.config/petstore/credentials.json` without it. */
export function credentialsPath(io: CliIo): string {
  const config = io.env.XDG_CONFIG_HOME || join(io.env.HOME || homedir(), '.config');
  return join(config, 'petstore', 'credentials.json');
}

async function readCredentials(path: string): Promise<CredentialsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { tokens: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<CredentialsFile>;
    if (typeof parsed.tokens === 'object' && parsed.tokens !== null) {
      return { tokens: Object.assign(Object.create(null), parsed.tokens) as Record<string, SavedToken> };
    }
  } catch {
    // Reported below.
  }
  throw new CliError(
    `${path} is not a credentials file; remove it and run "petstore login" again`,
    EXIT.usage,
  );
}

/**
 * Writes the file readable by its owner alone (0600, in a 0700 directory), through a temporary file
 * renamed over it: a crash leaves the old file or the new one, never half of one.
 */
async function writeCredentials(path: string, file: CredentialsFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, path);
}

/** Errors that mean this user may not read the file: another user's home, a service account's. */
const UNREADABLE = new Set(['EACCES', 'EPERM', 'ENOTDIR']);

/**
 * The token saved for the management API at `baseUrl`, if any. A file this user may not read (a
 * command run as a service account with another user's HOME) holds no token for it: said once on
 * standard error, and the command goes on as without a saved login.
 */
export async function savedToken(io: CliIo, baseUrl: string): Promise<SavedToken | undefined> {
  const path = credentialsPath(io);
  let tokens: Record<string, SavedToken>;
  try {
    ({ tokens } = await readCredentials(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined || !UNREADABLE.has(code)) throw error;
    note(io, `cannot read ${path} (${code}): no saved login used`);
    return undefined;
  }
  const key = loginKey(baseUrl);
  const saved = Object.entries(tokens).find(([url]) => sameLogin(url, key))?.[1];
  return typeof saved?.token === 'string' && saved.token !== '' ? saved : undefined;
}

/** Whether a saved entry's URL is the login `key` names (files written before loginKey spell it as typed). */
function sameLogin(url: string, key: string): boolean {
  return URL.canParse(url) && loginKey(url) === key;
}

/** Drops the entries of the login `key` names, whatever their spelling; resolves with whether one was. */
function dropLogin(file: CredentialsFile, key: string): boolean {
  const spellings = Object.keys(file.tokens).filter((url) => sameLogin(url, key));
  for (const url of spellings) delete file.tokens[url];
  return spellings.length > 0;
}

/** Saves `token` for `baseUrl` (under its loginKey), keeping the tokens of other base URLs. */
export async function saveToken(io: CliIo, baseUrl: string, token: string, now: Date): Promise<string> {
  const path = credentialsPath(io);
  const file = await readCredentials(path);
  const key = loginKey(baseUrl);
  dropLogin(file, key);
  file.tokens[key] = { token, savedAt: now.toISOString() };
  await writeCredentials(path, file);
  return path;
}

/** Forgets the token of `baseUrl`; resolves with whether there was one. The file goes with the last. */
export async function forgetToken(io: CliIo, baseUrl: string): Promise<boolean> {
  const path = credentialsPath(io);
  const file = await readCredentials(path);
  if (!dropLogin(file, loginKey(baseUrl))) return false;
  if (Object.keys(file.tokens).length === 0) await rm(path, { force: true });
  else await writeCredentials(path, file);
  return true;
}
