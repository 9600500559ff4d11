import { text } from 'node:stream/consumers';
import { manageBaseUrl, serviceAddress } from './api-address.ts';
import { credentialsPath, forgetToken, saveToken } from './credentials.ts';
import { EXIT, UsageError } from './exit.ts';
import { TIMEOUT_HELP, TIMEOUT_OPTIONS } from './http-options.ts';
import { type CliIo, note, say } from './io.ts';
import { manageApi } from './manage-api.ts';
import { tokenPrefix } from './manage-session.ts';
import { promptHidden } from './password-input.ts';
import { parseCommand, stringOption } from './usage.ts';

const LOGIN_HELP = `petstore login [--token T] [--base-url URL]

  Saves an access token (ps_at_…, made in the dashboard under Account → Access tokens) for the
  management API at --base-url, else PETSTORE_BASE_URL, else http://127.0.0.1:8080 (without its /v1,
  then /manage/v1), once the API has accepted it (GET /projects). The token is read from --token, else
  typed at the prompt (not echoed), else the first line of standard input. It is kept in
  $XDG_CONFIG_HOME/petstore/credentials.json (default ~/.config/petstore/credentials.json), readable by
  you alone (mode 0600), one token per address: localhost, 127.0.0.1 and [::1] are one address.
  Then the project commands (projects list|get, keys, domains, members, invitations, logs, audit,
  usage) call the API from any machine. PETSTORE_ACCESS_TOKEN, when set, is used instead.

${TIMEOUT_HELP}`;

const LOGOUT_HELP = `petstore logout [--base-url URL]

  Forgets the access token saved for the address (--base-url, else PETSTORE_BASE_URL, else
  http://127.0.0.1:8080). The token itself stays valid until it is revoked in the dashboard.`;

async function readToken(io: CliIo, flag: string | undefined): Promise<string> {
  if (flag !== undefined) return flag.trim();
  if (io.stdin.isTTY) return (await promptHidden(io, 'Access token: ')).trim();
  const [line = ''] = (await text(io.stdin)).split(/\r?\n/, 1);
  return line.trim();
}

export async function runLogin(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(
    io,
    'login',
    args,
    { token: { type: 'string' }, 'base-url': { type: 'string' }, ...TIMEOUT_OPTIONS },
    LOGIN_HELP,
  );
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length > 0)
    throw new UsageError('login takes no arguments; run "petstore login --help"');
  const baseUrl = manageBaseUrl(serviceAddress(io, stringOption(parsed, 'base-url')));
  const token = await readToken(io, stringOption(parsed, 'token'));
  if (!/^ps_at_\S+$/.test(token)) {
    throw new UsageError(
      'an access token starts with ps_at_: make one in the dashboard under Account → Access tokens',
    );
  }
  const api = manageApi(io, parsed, baseUrl, token);
  const { data } = await api.run((client) => client.get('/projects'));
  const path = await saveToken(io, baseUrl, token, new Date());
  const slugs = data.data.map((project) => project.slug);
  say(
    io,
    `logged in to ${baseUrl} as token ${tokenPrefix(token)}: ${slugs.length} project${slugs.length === 1 ? '' : 's'}${slugs.length > 0 ? ` (${slugs.join(', ')})` : ''}`,
  );
  note(io, `petstore: the token is saved in ${path} (mode 0600)`);
  if (io.env.PETSTORE_ACCESS_TOKEN) {
    note(io, 'petstore: PETSTORE_ACCESS_TOKEN is set: commands use it rather than the saved token');
  }
  return EXIT.ok;
}

export async function runLogout(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'logout', args, { 'base-url': { type: 'string' } }, LOGOUT_HELP);
  if (!parsed) return EXIT.ok;
  if (parsed.positionals.length > 0) throw new UsageError('logout takes no arguments');
  const baseUrl = manageBaseUrl(serviceAddress(io, stringOption(parsed, 'base-url')));
  const forgot = await forgetToken(io, baseUrl);
  say(
    io,
    forgot ? `logged out of ${baseUrl}` : `no token was saved for ${baseUrl} (in ${credentialsPath(io)})`,
  );
  if (io.env.PETSTORE_ACCESS_TOKEN) {
    note(io, 'petstore: PETSTORE_ACCESS_TOKEN is still set: commands keep using it until it is unset');
  }
  return EXIT.ok;
}
