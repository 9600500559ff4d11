import { TIMEOUT_HELP, TIMEOUT_OPTIONS } from './http-options.ts';

/** The options that choose a command's mode, and the timeouts of its HTTP requests in API mode. */
export const MODE_OPTIONS = {
  database: { type: 'string' },
  'base-url': { type: 'string' },
  ...TIMEOUT_OPTIONS,
} as const;

/** How every command with two modes chooses one (manage-session.ts, modeOf); docs/cli.md says it too. */
export const MODE_HELP = `Mode (one line on stderr says which; output and exit statuses are the same in both):
  --database URL   the server's database, as the operator: postgres://… or a SQLite file path. Never
                   created here: "petstore migrate" or "petstore serve" does.
  --base-url URL   the management API (URL without its /v1, then /manage/v1) with an access token:
                   PETSTORE_ACCESS_TOKEN, else the one "petstore login" saved for that address.
  Without either: PETSTORE_BASE_URL or PETSTORE_ACCESS_TOKEN set means the API; else DATABASE_URL the
  database; else the API at http://127.0.0.1:8080, which needs a saved login (else exit status 5).
  The operator's own commands run on the database alone (else ./data/petstore.db): where this rule
  names the API (a base URL, a token, a saved login), they are refused before anything is sent.

${TIMEOUT_HELP}`;
