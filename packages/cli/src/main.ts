import { readFileSync } from 'node:fs';
import { EXIT, EXIT_HELP, reportError, UsageError } from './exit.ts';
import { type CliIo, note, processIo, say } from './io.ts';

type Command = (args: string[], io: CliIo) => Promise<number>;

/**
 * Each command's module is imported when that command runs, never before: `petstore --version` loads
 * nothing else, `petstore keys …` never loads the HTTP server.
 */
export const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./serve.ts')).runServe,
  migrate: async () => (await import('./migrate.ts')).runMigrate,
  keys: async () => (await import('./keys.ts')).runKeys,
  pets: async () => (await import('./pets.ts')).runPets,
  projects: async () => (await import('./projects.ts')).runProjects,
  admin: async () => (await import('./admin.ts')).runAdmin,
  domains: async () => (await import('./domains.ts')).runDomains,
  members: async () => (await import('./members.ts')).runMembers,
  invitations: async () => (await import('./invitations.ts')).runInvitations,
  logs: async () => (await import('./logs.ts')).runLogs,
  audit: async () => (await import('./audit.ts')).runAudit,
  usage: async () => (await import('./project-usage.ts')).runUsage,
  login: async () => (await import('./login.ts')).runLogin,
  logout: async () => (await import('./login.ts')).runLogout,
};

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const HELP = `petstore ${version}: run, operate and call the Pet Store API

Usage:
  petstore serve [--port N] [--host H] [--database URL] [--redis URL] [--workers N]
  petstore migrate [--database URL]
  petstore keys create --project <slug> [--label T] [--expires-in-days N] [--per-minute N] [--per-day N] [--json]
  petstore keys create --plan free|pro|business|enterprise [--per-minute N --per-day N] [--label T]
                       [--expires-in-days N] [--json]
  petstore keys list [--project <slug>] [--limit N] [--cursor C] [--all] [--json]
  petstore keys get <id> --project <slug> [--json]
  petstore keys update <id> --project <slug> [--label T] [--per-minute N|none] [--per-day N|none] [--json]
  petstore keys revoke <id> [--project <slug>] | keys roll <id> [--project <slug>] [--overlap-seconds N]
  petstore keys unban <id> [--project <slug>] | keys set-plan <id> --plan P [--per-minute N --per-day N]
  petstore keys set-limits <id> [--project <slug>] [--per-minute N] [--per-day N]
  petstore projects create --name "Acme Docs" --slug acme --plan P [--per-minute N --per-day N] [--json]
  petstore projects list [--limit N] [--cursor C] [--all] [--json] | projects get <slug> [--json]
  petstore projects set-plan <slug> --plan P [--per-minute N --per-day N]
  petstore admin create --email E            (password from standard input or a prompt)
  petstore admin add-member --email E --project <slug> [--role R] | admin remove --email E
  petstore admin invite --email E --project <slug> [--role owner|developer|viewer]   (prints a link)
  petstore domains add <hostname> --project <slug> [--json]
  petstore domains list --project <slug> [--limit N] [--cursor C] [--all] [--json]
  petstore domains verify|primary|remove <hostname> [--project <slug>] [--json]
  petstore members list --project <slug> [--json] | members remove <account id or email> --project <slug>
  petstore members set-role <account id or email> --role owner|developer|viewer --project <slug>
  petstore invitations list --project <slug> [--limit N] [--cursor C] [--all] [--json]
  petstore invitations create --email E --role R --project <slug> [--json]   (mailed through the API)
  petstore invitations revoke <id> --project <slug>
  petstore logs --project <slug> [--key ID] [--status 2xx|4xx|429|5xx|NNN] [--since 1h|1d|ISO]
                [--limit N] [--cursor C] [--all] [--json]
  petstore audit --project <slug> [--since 1h|7d|ISO] [--limit N] [--cursor C] [--all] [--json]
  petstore usage --project <slug> [--period hour|day] [--key ID] [--json]
  petstore login [--token T] [--base-url URL] | petstore logout [--base-url URL]
  petstore pets list [--status S] [--limit N] [--cursor C] [--all] [--json]
  petstore pets create --name N --category-id C [--status S] [--idempotency-key K] [--json]
  petstore pets get <id> [--json]
        (every command that calls the API: [--base-url URL] [--timeout S] [--connect-timeout S];
         every command on a database: [--database URL])
  petstore --version

Run "petstore <command> --help" for details. Server settings come from flags or the environment:
PORT, HOST, DATABASE_URL (postgres://… or a SQLite file, default ./data/petstore.db), REDIS_URL,
PETSTORE_ENV (development|staging|production), LOG_LEVEL, PUBLIC_BASE_URL, TRUST_PROXY,
PETSTORE_BAN_THRESHOLD, PETSTORE_BAN_SECONDS, PETSTORE_WORKERS, PETSTORE_SITE_DOMAIN, PETSTORE_API_HOST,
PETSTORE_DNS_SERVERS, PETSTORE_CA_IDENTITY, PETSTORE_TLS_PROBE. The pets commands read
PETSTORE_API_KEY, PETSTORE_BASE_URL, PETSTORE_TIMEOUT and PETSTORE_CONNECT_TIMEOUT (every HTTP request
gives up after 5 s without a connection or 30 s without an answer; --connect-timeout and --timeout
change them).

A project's commands (projects list|get, keys with --project, domains, members, invitations, logs,
audit, usage) run in one of two modes, and one line on stderr says which: --database URL is the
server's database; else --base-url URL, PETSTORE_BASE_URL or PETSTORE_ACCESS_TOKEN is the management API
(the address without its /v1, then /manage/v1) with an access token (PETSTORE_ACCESS_TOKEN, or one
"petstore login" saved); else DATABASE_URL is the database; else the API at http://127.0.0.1:8080.
Without a token the API is not called: exit status 5, saying how to get one. The operator's own
commands (admin, projects create|set-plan, keys create --plan|set-plan, keys without --project) run
on the database alone (else ./data/petstore.db), and are refused where a base URL, a token or a saved
login names the API. The output, the --json objects (the management API's) and the
exit statuses are the same in both modes. docs/cli.md describes every command.

${EXIT_HELP}`;

async function run(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const load = command === undefined ? undefined : Object.hasOwn(COMMANDS, command) && COMMANDS[command];
  if (load) return (await load())(rest, io);
  switch (command) {
    case '--version':
    case '-v':
    case 'version':
      say(io, `petstore ${version}`);
      return EXIT.ok;
    case '--help':
    case '-h':
    case 'help':
      say(io, HELP);
      return EXIT.ok;
    case undefined:
      note(io, HELP);
      return EXIT.usage;
    default:
      throw new UsageError(`unknown command "${command}"; run "petstore --help"`);
  }
}

/**
 * Runs `petstore <argv>` and returns its exit status; every failure is one `petstore: …` line on
 * `io.stderr`. Nothing here ends the process: `serve` returns once the server listens and keeps it open.
 */
export async function main(argv: string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await run(argv, io);
  } catch (error) {
    return reportError(error, io);
  }
}
