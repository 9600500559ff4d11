import type { Store } from '@petstore/server/features/store.ts';
import { systemClock } from '@petstore/server/time/clock.ts';
import { createDnsResolver } from '@petstore/server/features/domains/dns.ts';
import { createDomainsService } from '@petstore/server/features/domains/service.ts';
import { domainClaims } from '@petstore/server/features/domains/domain-repository.ts';
import { domainJson } from '@petstore/server/features/domains/json.ts';
import { ERROR_STATUS } from '@petstore/server/errors.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import { serviceSettings, type ServiceSettings } from '@petstore/server/features/domains/settings.ts';
import { domainToASCII } from 'node:url';
import { openServerDatabase } from './database.ts';
import { runDomainsApi } from './domains-api.ts';
import { listDomains, readDomainsCursor } from './domains-list.ts';
import { noDomains, printDomainOutcome, refusedDomain } from './domains-output.ts';
import { CliError, EXIT, NotFoundError } from './exit.ts';
import { type CliIo, note, say } from './io.ts';
import { chooseMode } from './manage-session.ts';
import { MODE_HELP, MODE_OPTIONS } from './mode-help.ts';
import { MAX_PAGE_SIZE } from './paged-output.ts';
import { parseCommand, positiveInteger, stringOption, UsageError } from './usage.ts';

const HELP = `petstore domains <add|list|verify|primary|remove> [options]

  domains add <hostname> --project <slug> [--json]
      Adds a custom domain to a project on Pro or above and prints the DNS records to create: a CNAME to
      <slug>.<the service's site domain> for a subdomain; an ALIAS/ANAME to it and a TXT record for an apex.
      It is checked at once, then by the server with backoff for up to 48 hours.
  domains list --project <slug> [--limit N] [--cursor C] [--all] [--json]
      The project's domains in the order they were added: state (pending, verified, failed, suspended),
      reason, primary, records; pages of --limit (default 100), stderr naming the next page's --cursor;
      --all prints every page in constant memory.
  domains verify <hostname> [--json]
      Checks the domain's records now, with real DNS queries to the running service's DNS servers (as it
      recorded them in the database; stderr names them), never this shell's. Exit status 0 when verified
      by this check, 1 otherwise (also when DNS gave no answer: the state is then kept, with "Could not
      check").
  domains primary <hostname>   Makes a verified domain the primary: every other address redirects to it.
  domains remove <hostname>    Stops serving the domain at once, on every instance.
      verify, primary and remove find the project by the domain; a name two projects claim needs
      --project <slug>, which also checks that it is that project's. An unknown domain exits with status 3.

  --json prints the management API's Domain object (an array of them for list); a refusal prints its
  Error body (code, message, status) and exits with its status: 2 for a name that cannot be, 3 for a
  project or domain that does not exist, 5 for a plan below Pro or the plan's number of domains
  reached, 6 for a name the project has already.

  Through the management API every domains command needs --project <slug>; the output is the same.
  On the database, domains are judged by the running service's settings as it recorded them there (its
  site domain, API host and DNS servers), never this shell's: start the service once before using them.

${MODE_HELP}`;

const OPTIONS = {
  project: { type: 'string' },
  json: { type: 'boolean' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  ...MODE_OPTIONS,
} as const;

const ACTIONS = ['add', 'list', 'verify', 'primary', 'remove'];

const NOT_RECORDED =
  'the service has not recorded its settings (site domain, API host, DNS servers) in this database yet: start it once ("petstore serve"), then try again';

/**
 * Names, on stderr, each setting of this shell that differs from the running service's, which the
 * command uses instead (one configuration: a command from this shell never judges a domain otherwise
 * than the service's own checks).
 */
function noteShellSettings(io: CliIo, settings: ServiceSettings): void {
  const servers = settings.servers.join(', ');
  const shell = [
    [
      'PETSTORE_SITE_DOMAIN',
      io.env.PETSTORE_SITE_DOMAIN,
      settings.siteDomain,
      `the service's is ${settings.siteDomain}`,
    ],
    [
      'PETSTORE_API_HOST',
      io.env.PETSTORE_API_HOST,
      settings.apiHost ?? '',
      `the service's is ${settings.apiHost ?? 'unset'}`,
    ],
    [
      'PETSTORE_DNS_SERVERS',
      io.env.PETSTORE_DNS_SERVERS?.split(',')
        .map((s) => s.trim())
        .join(', '),
      servers,
      `checking with the service's DNS servers ${servers}`,
    ],
  ] as const;
  for (const [name, own, recorded, instead] of shell) {
    if (own !== undefined && own !== '' && own !== recorded)
      note(io, `${name} of this shell is not used: ${instead}`);
  }
}

/** A list with nothing in it, which needs none of the service's settings. */
const emptyList = (io: CliIo, slug: string, json: boolean) => say(io, json ? '[]' : noDomains(slug));

export async function runDomains(args: string[], io: CliIo): Promise<number> {
  const parsed = parseCommand(io, 'domains', args, OPTIONS, HELP);
  if (!parsed) return EXIT.ok;
  const [action, ...positionals] = parsed.positionals;
  if (action === undefined || !ACTIONS.includes(action)) {
    throw new UsageError(
      action
        ? `unknown domains command "${action}"; run "petstore domains --help"`
        : `domains needs one of ${ACTIONS.join(', ')}`,
    );
  }
  const wantsHostname = action !== 'list';
  if (positionals.length !== (wantsHostname ? 1 : 0)) {
    throw new UsageError(
      wantsHostname
        ? `domains ${action} takes one hostname`
        : 'domains list takes no hostname, only --project',
    );
  }
  const slug = stringOption(parsed, 'project');
  if ((action === 'add' || action === 'list') && slug === undefined)
    throw new UsageError(`domains ${action} needs --project <slug>`);
  const paging = {
    limit: positiveInteger('limit', stringOption(parsed, 'limit'), MAX_PAGE_SIZE),
    cursor: readDomainsCursor(stringOption(parsed, 'cursor')),
    all: parsed.values.all === true,
  };
  if (action !== 'list' && (paging.limit !== undefined || paging.cursor !== undefined || paging.all))
    throw new UsageError('--limit, --cursor and --all are for domains list');
  const json = parsed.values.json === true;
  // As the service stores it: lower case, punycode, no trailing dot.
  const hostname = positionals[0] && domainToASCII(positionals[0].trim().toLowerCase().replace(/\.$/, ''));
  const mode = await chooseMode(io, parsed);
  if (mode.kind === 'api') {
    if (slug === undefined)
      throw new UsageError(`domains ${action} through the management API needs --project <slug>`);
    // add sends the name as typed, as the dashboard does: the service reads upper case and Unicode.
    const name = action === 'add' ? positionals[0] : hostname;
    return runDomainsApi(io, mode.api, action, { slug, hostname: name, paging: { json, ...paging } });
  }
  const { storage } = await openServerDatabase(io, stringOption(parsed, 'database'));
  try {
    const project = slug ?? (await projectOfDomain(storage, hostname!));
    const known = await storage.projects.bySlug(project);
    if (!known)
      throw new NotFoundError(`no project with slug ${project}; "petstore projects list" shows them`);
    const settings = await serviceSettings(storage.sql).read();
    if (!settings) {
      if (action !== 'list' || (await storage.domains.countForProject(known.id)) > 0)
        throw new CliError(NOT_RECORDED);
      emptyList(io, project, json);
      return EXIT.ok;
    }
    noteShellSettings(io, settings);
    const domains = createDomainsService({
      storage,
      clock: systemClock,
      resolver: createDnsResolver(settings.servers),
      siteDomain: settings.siteDomain,
      apiHost: settings.apiHost ?? undefined,
      caIdentity: settings.caIdentity,
      enterpriseDomains: settings.enterpriseDomains ?? undefined,
    });
    if (action === 'list') {
      await listDomains(io, domains, project, { json, ...paging });
      return EXIT.ok;
    }
    if (action === 'add' || action === 'verify')
      note(io, `petstore: asking the service's DNS servers ${settings.servers.join(', ')}`);
    const outcome =
      action === 'add'
        ? await domains.add(OPERATOR, project, positionals[0]!)
        : action === 'verify'
          ? await domains.check(OPERATOR, project, hostname!)
          : action === 'primary'
            ? await domains.makePrimary(OPERATOR, project, hostname!)
            : await domains.remove(OPERATOR, project, hostname!);
    if (!outcome.ok)
      return refusedDomain(io, { ...outcome.problem, status: ERROR_STATUS[outcome.problem.code] }, json);
    return printDomainOutcome(io, action, project, domainJson(outcome.value), json);
  } finally {
    await storage.close();
  }
}

/** The project that claims the name; a name two projects claim must be named with --project. */
async function projectOfDomain(storage: Store, hostname: string): Promise<string> {
  const claims = await domainClaims(storage.sql).projectsOf(hostname);
  if (claims.length === 0) {
    throw new NotFoundError(
      `no project has the domain ${hostname}; "petstore domains list --project <slug>" shows them`,
    );
  }
  if (claims.length > 1) {
    throw new UsageError(
      `${hostname} is claimed by more than one project (${claims.join(', ')}): name one with --project <slug>`,
    );
  }
  return claims[0]!;
}
