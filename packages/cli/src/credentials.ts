import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { CliError, EXIT } from './exit.ts';
import { type CliIo, note } from './io.ts';

/** One saved access token, for the management API at one base URL. */
export interface SavedToken {
  token: string;
  /** When `petstore login` saved it (ISO 8601). */
  savedAt: string;
}

interface CredentialsFile {
  /** Management API base URL → its token. */
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
  const saved = tokens[baseUrl];
  return typeof saved?.token === 'string' && saved.token !== '' ? saved : undefined;
}

/** Saves `token` for `baseUrl`, keeping the tokens of other base URLs. */
export async function saveToken(io: CliIo, baseUrl: string, token: string, now: Date): Promise<string> {
  const path = credentialsPath(io);
  const file = await readCredentials(path);
  file.tokens[baseUrl] = { token, savedAt: now.toISOString() };
  await writeCredentials(path, file);
  return path;
}

/** Forgets the token of `baseUrl`; resolves with whether there was one. The file goes with the last. */
export async function forgetToken(io: CliIo, baseUrl: string): Promise<boolean> {
  const path = credentialsPath(io);
  const file = await readCredentials(path);
  if (!Object.hasOwn(file.tokens, baseUrl)) return false;
  delete file.tokens[baseUrl];
  if (Object.keys(file.tokens).length === 0) await rm(path, { force: true });
  else await writeCredentials(path, file);
  return true;
}
