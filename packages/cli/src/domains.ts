import { type Project, type Storage, systemClock } from '@petstore/server/operator';
import { createDnsResolver, createDomainService, type DomainView } from '@petstore/server/operator-domains';
import { domainToASCII } from 'node:url';
import { openServerDatabase } from './database.ts';
import { CliError, EXIT, NotFoundError } from './exit.ts';
import { type CliIo, say } from './io.ts';
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
      Checks the domain's records now, with real DNS queries. Exit status 0 when verified, 1 otherwise.
  domains primary <hostname>   Makes a verified domain the primary: every other address redirects to it.
  domains remove <hostname>    Stops serving the domain at once, on every instance.
      verify, primary and remove find the project by the domain; with --project <slug> they also check
      that it is that project's. An unknown domain exits with status 3.

  --database URL   the server's database (DATABASE_URL, default ./data/petstore.db)
  DNS queries go to PETSTORE_DNS_SERVERS (ip[:port], comma-separated), else the system's resolvers.`;

const OPTIONS = {
  project: { type: 'string' },
  json: { type: 'boolean' },
  database: { type: 'string' },
} as const;

const ACTIONS = ['add', 'list', 'verify', 'primary', 'remove'];

function describe(domain: DomainView): string {
  const lines = [`${domain.hostname}: ${domain.state}${domain.primary ? ' (primary)' : ''}`];
  if (domain.reason) lines.push(`  ${domain.reason}`);
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
  lines.push('  DNS changes can take up to 48 hours to be seen everywhere.');
  return lines.join('\n');
}

const asJson = (domain: DomainView, project: Project) => ({ project: project.slug, ...domain });

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
  const domains = createDomainService({
    storage,
    resolver: createDnsResolver(config.dnsServers),
    clock: systemClock,
    siteDomain: config.siteDomain,
    apiHost: config.apiHost,
    caIdentity: config.caIdentity,
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
        if (outcome.kind === 'refused')
          throw new CliError(outcome.message, outcome.conflict ? EXIT.failed : EXIT.usage);
        say(io, json ? JSON.stringify(asJson(outcome.domain, project)) : describe(outcome.domain));
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
                v.reason ?? '',
              ]),
            ),
          );
        }
        return EXIT.ok;
      }
      case 'verify': {
        const view = (await domains.checkNow(project, hostname!))!; // a domain of the project, checked above
        say(io, json ? JSON.stringify(asJson(view, project)) : describe(view));
        return view.state === 'verified' ? EXIT.ok : EXIT.failed;
      }
      case 'primary':
        if (!(await domains.setPrimary(project, hostname!)))
          throw new CliError(`${hostname} must be verified before it can be the primary domain`);
        say(io, `${hostname} is the primary domain of ${project.slug}: every other address redirects to it`);
        return EXIT.ok;
      default:
        await domains.remove(project, hostname!);
        say(io, `${hostname} was removed from ${project.slug}: it is no longer served`);
        return EXIT.ok;
    }
  } finally {
    await storage.close();
  }
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
