import { type Storage, systemClock } from '@petstore/server/operator';
import {
  createDnsResolver,
  createDomainsService,
  domainClaims,
  type DomainView,
  ERROR_STATUS,
  OPERATOR,
  serviceSettings,
  type ServiceSettings,
} from '@petstore/server/operator-domains';
import { domainToASCII } from 'node:url';
import { openServerDatabase } from './database.ts';
import { listDomains, noDomains, readDomainsCursor } from './domains-list.ts';
import { CliError, EXIT, NotFoundError } from './exit.ts';
import { type CliIo, note, say } from './io.ts';
import { MAX_PAGE_SIZE } from './paged-output.ts';
import { formatTable } from './table.ts';
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
      recorded them in the database), never this shell's. Exit status 0 when verified by this check,
      1 otherwise (also when DNS gave no answer: the state is then kept, with "Could not check");
      --json names the servers asked ("resolvers").
  domains primary <hostname>   Makes a verified domain the primary: every other address redirects to it.
  domains remove <hostname>    Stops serving the domain at once, on every instance.
      verify, primary and remove find the project by the domain; a name two projects claim needs
      --project <slug>, which also checks that it is that project's. An unknown domain exits with status 3.

  --database URL   the server's database (DATABASE_URL, default ./data/petstore.db)
  Domains are judged by the running service's settings as it recorded them in the database (its site
  domain, API host and DNS servers), never this shell's: start the service once before using them.`;

const OPTIONS = {
  project: { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
} as const;

const ACTIONS = ['add', 'list', 'verify', 'primary', 'remove'];

function describe(domain: DomainView): string {
  const lines = [`${domain.hostname}: ${domain.state}${domain.primary ? ' (primary)' : ''}`];
  if (domain.reason) lines.push(`  ${domain.reason}`);
  if (domain.checkError) lines.push(`  ${domain.checkError}`);
  for (const warning of domain.warnings) lines.push(`  warning: ${warning}`);
  lines.push('  records to create at the DNS provider:');
  lines.push(
    formatTable(
      [{ title: '  TYPE' }, { title: 'NAME' }, { title: 'VALUE' }, { title: 'SEEN NOW' }],
      domain.records.map((r) => [
        `  ${r.type === 'ALIAS' ? 'ALIAS/ANAME' : r.type}`,
        r.name,
        r.value,
        r.ok ? 'ok' : r.seen.join(', ') || 'nothing yet',
      ]),
    ),
  );
  // Only while the records are still awaited: a verified domain has been seen.
  if (domain.state !== 'verified') lines.push('  DNS changes can take up to 48 hours to be seen everywhere.');
  return lines.join('\n');
}

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
    const show = (view: DomainView, resolvers?: readonly string[]) =>
      say(io, json ? JSON.stringify({ project, ...view, ...(resolvers && { resolvers }) }) : describe(view));
    switch (action) {
      case 'list':
        await listDomains(io, domains, project, { json, ...paging });
        return EXIT.ok;
      case 'add': {
        const added = await domains.add(OPERATOR, project, positionals[0]!);
        if (!added.ok) return refused(io, added.problem, json);
        show(added.value, settings.servers);
        return EXIT.ok;
      }
      case 'verify': {
        const checked = await domains.check(OPERATOR, project, hostname!);
        if (!checked.ok) return refused(io, checked.problem, json);
        show(checked.value, settings.servers);
        // A check without a DNS answer changes nothing, and proves nothing: exit 1, the state kept.
        return checked.value.state === 'verified' && !checked.value.checkError ? EXIT.ok : EXIT.failed;
      }
      case 'primary': {
        const made = await domains.makePrimary(OPERATOR, project, hostname!);
        if (!made.ok) return refused(io, made.problem, json);
        say(io, `${hostname} is the primary domain of ${project}: every other address redirects to it`);
        return EXIT.ok;
      }
      default: {
        const removed = await domains.remove(OPERATOR, project, hostname!);
        if (!removed.ok) return refused(io, removed.problem, json);
        say(io, `${hostname} was removed from ${project}: it is no longer served`);
        return EXIT.ok;
      }
    }
  } finally {
    await storage.close();
  }
}

/**
 * A refused operation: the Error body (`code`, `message`, `status`) on stdout with --json, the message
 * on stderr otherwise. A name or plan that can never be added exits 2, a project or domain that does
 * not exist 3, the others 1.
 */
function refused(
  io: CliIo,
  problem: { code: keyof typeof ERROR_STATUS; message: string },
  json: boolean,
): number {
  const exit =
    problem.code === 'invalid_body' || problem.code === 'plan_required'
      ? EXIT.usage
      : problem.code === 'not_found'
        ? EXIT.notFound
        : EXIT.failed;
  if (!json) throw new CliError(problem.message, exit);
  say(
    io,
    JSON.stringify({ code: problem.code, message: problem.message, status: ERROR_STATUS[problem.code] }),
  );
  return exit;
}

/** The project that claims the name; a name two projects claim must be named with --project. */
async function projectOfDomain(storage: Storage, hostname: string): Promise<string> {
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
