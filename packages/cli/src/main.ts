import { readFileSync } from 'node:fs';
import { runAdmin } from './admin.ts';
import { runAudit } from './audit.ts';
import { EXIT, reportError, UsageError } from './exit.ts';
import { runKeys } from './keys.ts';
import { runLogs } from './logs.ts';
import { runMigrate } from './migrate.ts';
import { runPets } from './pets.ts';
import { runDomains } from './domains.ts';
import { runProjects } from './projects.ts';
import { runServe } from './serve.ts';

const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const HELP = `petstore ${version}: run, operate and call the Pet Store API

Usage:
  petstore serve [--port N] [--host H] [--database URL] [--redis URL] [--workers N]
  petstore migrate [--database URL]
  petstore keys create --project <slug> [--label T] [--expires-in-days N] [--json]
  petstore keys create --plan free|pro|business|enterprise [--per-minute N --per-day N] [--label T]
                       [--expires-in-days N] [--json]
  petstore keys list [--json]
  petstore keys revoke <id> | keys unban <id> | keys set-plan <id> --plan P [--per-minute N --per-day N]
  petstore projects create --name "Acme Docs" --slug acme --plan P [--per-minute N --per-day N] [--json]
  petstore projects list [--json] | projects set-plan <slug> --plan P [--per-minute N --per-day N]
  petstore admin create --email E            (password from standard input or a prompt)
  petstore admin add-member --email E --project <slug> [--role R] | admin remove --email E
  petstore admin invite --email E --project <slug> [--role owner|developer|viewer]   (prints a link)
  petstore domains add <hostname> --project <slug> [--json]
  petstore domains list --project <slug> [--json] | domains verify <hostname> [--json]
  petstore domains primary <hostname> | domains remove <hostname>
  petstore logs --project <slug> [--key ID] [--status 2xx|4xx|429|5xx|NNN] [--since 1h|1d|ISO] [--json]
  petstore audit --project <slug> [--since 1h|7d|ISO] [--json]
  petstore pets list [--status S] [--limit N] [--cursor C] [--all] [--json]
  petstore pets create --name N --category-id C [--status S] [--idempotency-key K] [--json]
  petstore pets get <id> [--json]
  petstore --version

Run "petstore <command> --help" for details. Server settings come from flags or the environment:
PORT, HOST, DATABASE_URL (postgres://… or a SQLite file, default ./data/petstore.db), REDIS_URL,
PETSTORE_ENV (development|staging|production), LOG_LEVEL, PUBLIC_BASE_URL, TRUST_PROXY,
PETSTORE_BAN_THRESHOLD, PETSTORE_BAN_SECONDS, PETSTORE_WORKERS, PETSTORE_SITE_DOMAIN, PETSTORE_API_HOST,
PETSTORE_DNS_SERVERS, PETSTORE_CA_IDENTITY, PETSTORE_TLS_PROBE. The pets commands read
PETSTORE_API_KEY and PETSTORE_BASE_URL.

Exit status: 0 done, 1 failed, 2 usage or configuration error, 3 not found (pets get).`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  switch (command) {
    case 'serve':
      return runServe(rest);
    case 'migrate':
      return runMigrate(rest);
    case 'keys':
      return runKeys(rest);
    case 'pets':
      return runPets(rest);
    case 'projects':
      return runProjects(rest);
    case 'admin':
      return runAdmin(rest);
    case 'domains':
      return runDomains(rest);
    case 'logs':
      return runLogs(rest);
    case 'audit':
      return runAudit(rest);
    case '--version':
    case '-v':
    case 'version':
      console.log(`petstore ${version}`);
      return EXIT.ok;
    case '--help':
    case '-h':
    case 'help':
      console.log(HELP);
      return EXIT.ok;
    case undefined:
      console.error(HELP);
      return EXIT.usage;
    default:
      throw new UsageError(`unknown command "${command}"; run "petstore --help"`);
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    // serve keeps running until a signal; its shutdown decides the exit status.
    if (code !== EXIT.ok || process.argv[2] !== 'serve') process.exitCode = code;
  },
  (error: unknown) => process.exit(reportError(error)),
);
