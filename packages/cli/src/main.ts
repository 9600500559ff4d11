import { ConfigError } from '@petstore/server';
import { runAdmin } from './admin.ts';
import { runKeys } from './keys.ts';
import { runMigrate } from './migrate.ts';
import { runProjects } from './projects.ts';
import { runServe } from './serve.ts';
import { UsageError } from './usage.ts';

const HELP = `petstore: run and operate the Pet Store API

Usage:
  petstore serve [--port N] [--host H] [--database URL] [--redis URL] [--workers N]
  petstore migrate [--database URL]
  petstore keys create --project <slug> [--label T] [--json]
  petstore keys create --plan free|pro|business|enterprise [--per-minute N --per-day N] [--label T] [--json]
  petstore keys list [--json]
  petstore keys revoke <id>
  petstore keys unban <id>
  petstore keys set-plan <id> --plan P [--per-minute N --per-day N]
  petstore projects create --name "Acme Docs" --slug acme --plan P [--per-minute N --per-day N] [--json]
  petstore projects list [--json] | projects set-plan <slug> --plan P [--per-minute N --per-day N]
  petstore admin create --email E            (password from standard input or a prompt)
  petstore admin add-member --email E --project <slug> | admin remove --email E

Run "petstore <command> --help" for details. Settings come from flags or the environment:
PORT, HOST, DATABASE_URL (postgres://… or a SQLite file, default ./data/petstore.db), REDIS_URL,
PETSTORE_ENV (development|staging|production), LOG_LEVEL, PUBLIC_BASE_URL, TRUST_PROXY,
PETSTORE_BAN_THRESHOLD, PETSTORE_BAN_SECONDS, PETSTORE_WORKERS, PETSTORE_SITE_DOMAIN, PETSTORE_API_HOST.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return runServe(rest);
    case 'migrate':
      return runMigrate(rest);
    case 'keys':
      return runKeys(rest);
    case 'projects':
      return runProjects(rest);
    case 'admin':
      return runAdmin(rest);
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      console.log(HELP);
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command "${command}"; run "petstore --help"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0 || process.argv[2] !== 'serve') process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(`petstore: ${error.message}`);
      process.exit(2);
    }
    console.error(`petstore: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
