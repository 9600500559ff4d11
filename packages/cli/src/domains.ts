import { domainCheckRecord, type Project, type Storage, systemClock } from '@petstore/server/operator';
import {
  createDnsResolver,
  createDomainService,
  type DomainRefusal,
  type DomainView,
  ERROR_STATUS,
} from '@petstore/server/operator-domains';
import { domainToASCII } from 'node:url';
import { openServerDatabase } from './database.ts';
import { CliError, EXIT, NotFoundError } from './exit.ts';
import { type CliIo, note, say } from './io.ts';
import { recordOperator } from './operator-audit.ts';
import { formatInstant, formatTable } from './table.ts';
import { parseCommand, stringOption, UsageError } from './usage.ts';

const HELP = `petstore domains <add|list|verify|primary|remove> [options]

  domains add <hostname> --project <slug> [--json]
      Adds a custom domain to a project on Pro or above and prints the DNS records to create: a CNAME to
      <slug>.<PETSTORE_SITE_DOMAIN> for a subdomain; an ALIAS/ANAME to it and a TXT record for an apex.
      It is checked at once, then by the server with backoff for up to 48 hours.
  domains list --project <slug> [--json]
      Every domain of the project: state (pending, verified, failed, suspended), reason, primary, records.
  domains verify <hostname> [--json]
      Checks the domain's records now, with real DNS queries to the running service's DNS servers (as it
      recorded them in the database), never this shell's. Exit status 0 when verified by this check,
      1 otherwise (also when DNS gave no answer: the state is then kept, with "Could not check");
      --json names the servers asked ("resolvers").
  domains primary <hostname>   Makes a verified domain the primary: every other address redirects to it.
  domains remove <hostname>    Stops serving the domain at once, on every instance.
      verify, primary and remove find the project by the domain; with --project <slug> they also check
      that it is that project's. An unknown domain exits with status 3.

  --database URL   the server's database (DATABASE_URL, default ./data/petstore.db)
  DNS queries (add, verify) go to the servers the running service checks with (its PETSTORE_DNS_SERVERS,
  else its system's resolvers), read from the database: start the service once before using them.`;

const OPTIONS = {
  project: { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
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
  'the service has not recorded its DNS servers in this database yet: start it ("petstore serve"); it checks the domain by itself';

const asJson = (domain: DomainView, project: Project, resolvers?: readonly string[]) => ({
  project: project.slug,
  ...domain,
  ...(resolvers && { resolvers }),
});

/**
 * The DNS servers the running service checks with, as it recorded them at start-up: one configuration,
 * so a check from this shell can never see other answers than the service's background checks.
 */
async function serviceResolvers(io: CliIo, storage: Storage, shellServers: readonly string[] | undefined) {
  const recorded = await storage.domains.resolvers();
  if (!recorded) return undefined;
  if (shellServers && shellServers.join() !== recorded.servers.join())
    note(
      io,
      `PETSTORE_DNS_SERVERS of this shell is not used: checking with the service's DNS servers ${recorded.servers.join(', ')}`,
    );
  return recorded.servers;
}

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
  const json = parsed.values.json === true;
  const flag = stringOption(parsed, 'database');
  const { config, storage } = await openServerDatabase(io, flag);
  const checks = action === 'add' || action === 'verify';
  const resolvers = checks
    ? await serviceResolvers(io, storage, config.dnsServers).catch(async (error: unknown) => {
        await storage.close();
        throw error;
      })
    : undefined;
  const domains = createDomainService({
    storage,
    resolver: resolvers && createDnsResolver(resolvers),
    clock: systemClock,
    siteDomain: config.siteDomain,
    apiHost: config.apiHost,
    caIdentity: config.caIdentity,
    enterpriseDomains: config.enterpriseDomains,
  });
  try {
    // As the dashboard stores it: lower case, punycode, no trailing dot.
    const hostname = positionals[0] && domainToASCII(positionals[0].trim().toLowerCase().replace(/\.$/, ''));
    const project =
      slug !== undefined ? await projectBySlug(storage, slug) : await projectOfDomain(storage, hostname!);
    if (
      action !== 'add' &&
      action !== 'list' &&
      !(await domains.list(project)).some((d) => d.hostname === hostname)
    )
      throw new CliError(`${hostname} is not a domain of ${project.slug}`, EXIT.notFound);
    switch (action) {
      case 'add': {
        const outcome = await domains.add(project, positionals[0]!);
        if (outcome.kind === 'refused') return refused(io, outcome, json);
        await recordOperator(storage, 'domain_added', project.id, outcome.domain.hostname);
        say(io, json ? JSON.stringify(asJson(outcome.domain, project, resolvers)) : describe(outcome.domain));
        if (!resolvers) note(io, `${outcome.domain.hostname} is not checked yet: ${NOT_RECORDED}`);
        return EXIT.ok;
      }
      case 'list': {
        const views = await domains.list(project);
        if (json) say(io, JSON.stringify(views.map((view) => asJson(view, project))));
        else if (views.length === 0)
          say(
            io,
            `${project.slug} has no custom domain; add one with: petstore domains add docs.example.com --project ${project.slug}`,
          );
        else {
          say(
            io,
            formatTable(
              [
                { title: 'HOSTNAME' },
                { title: 'STATE' },
                { title: 'PRIMARY' },
                { title: 'CHECKED' },
                { title: 'REASON' },
              ],
              views.map((v) => [
                v.hostname,
                v.state,
                v.primary ? 'yes' : '',
                formatInstant(v.checkedAt, 'never'),
                [v.reason, v.checkError].filter(Boolean).join(' '),
              ]),
            ),
          );
        }
        return EXIT.ok;
      }
      case 'verify': {
        if (!resolvers) throw new CliError(NOT_RECORDED);
        const outcome = (await domains.checkNow(project, hostname!))!; // a domain of the project, checked above
        if (outcome.kind === 'refused') return refused(io, outcome, json);
        const view = outcome.domain;
        const { action, target } = domainCheckRecord(view);
        await recordOperator(storage, action, project.id, target);
        say(io, json ? JSON.stringify(asJson(view, project, resolvers)) : describe(view));
        // A check without a DNS answer changes nothing, and proves nothing: exit 1, the state kept.
        return view.state === 'verified' && !view.checkError ? EXIT.ok : EXIT.failed;
      }
      case 'primary':
        if (!(await domains.setPrimary(project, hostname!)))
          throw new CliError(`${hostname} must be verified before it can be the primary domain`);
        await recordOperator(storage, 'domain_primary', project.id, hostname!);
        say(io, `${hostname} is the primary domain of ${project.slug}: every other address redirects to it`);
        return EXIT.ok;
      default:
        await domains.remove(project, hostname!);
        await recordOperator(storage, 'domain_removed', project.id, hostname!);
        say(io, `${hostname} was removed from ${project.slug}: it is no longer served`);
        return EXIT.ok;
    }
  } finally {
    await storage.close();
  }
}

/**
 * A refused add or check: the Error body (`code`, `message`, `status`) on stdout with --json, the
 * message on stderr otherwise. A name or plan that can never be added exits 2, the others 1.
 */
function refused(io: CliIo, outcome: DomainRefusal, json: boolean): number {
  const exit =
    outcome.code === 'invalid_parameter' || outcome.code === 'plan_required' ? EXIT.usage : EXIT.failed;
  if (!json) throw new CliError(outcome.message, exit);
  const status = ERROR_STATUS[outcome.code];
  say(io, JSON.stringify({ code: outcome.code, message: outcome.message, status }));
  return exit;
}

async function projectBySlug(storage: Storage, slug: string): Promise<Project> {
  const project = await storage.projects.bySlug(slug);
  if (!project) throw new NotFoundError(`no project with slug ${slug}; "petstore projects list" shows them`);
  return project;
}

async function projectOfDomain(storage: Storage, hostname: string): Promise<Project> {
  const domain = await storage.domains.get(hostname);
  const project = domain && (await storage.projects.byId(domain.projectId));
  if (!project)
    throw new CliError(
      `no project has the domain ${hostname}; "petstore domains list --project <slug>" shows them`,
      EXIT.notFound,
    );
  return project;
}
