import { stringifyJson } from '@petstore/json';
import type { ManageComponents } from './api-client.ts';
import { CliError, EXIT, exitOfRefusal } from './exit.ts';
import { type CliIo, say } from './io.ts';
import { type PageOptions, type Pager, printPages } from './paged-output.ts';
import { formatInstant, formatTable } from './table.ts';

/** A domain as the management API shows it; the database mode prints the same (domainJson). */
export type DomainJson = ManageComponents['schemas']['Domain'];

/** What `domains list` says of a project without domains. */
export const noDomains = (slug: string): string =>
  `${slug} has no custom domain; add one with: petstore domains add docs.example.com --project ${slug}`;

const instant = (text: string | null): number | null => (text === null ? null : Date.parse(text));

/** One domain as `domains add` and `domains verify` print it: its state and the records to create. */
export function describeDomain(domain: DomainJson): string {
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

/**
 * The outcome of `domains <action>` in either mode: the Domain object with --json, else the words;
 * `verify` exits 1 unless this check verified it (a check without a DNS answer proves nothing).
 */
export function printDomainOutcome(
  io: CliIo,
  action: string,
  slug: string,
  domain: DomainJson,
  json: boolean,
): number {
  if (json) say(io, stringifyJson(domain));
  else if (action === 'primary')
    say(io, `${domain.hostname} is the primary domain of ${slug}: every other address redirects to it`);
  else if (action === 'remove')
    say(io, `${domain.hostname} was removed from ${slug}: it is no longer served`);
  else say(io, describeDomain(domain));
  if (action !== 'verify') return EXIT.ok;
  return domain.state === 'verified' && !domain.checkError ? EXIT.ok : EXIT.failed;
}

/**
 * A refused operation, in either mode: the Error body (`code`, `message`, `status`) on stdout with
 * --json, the message on stderr otherwise; the exit status of its outcome (exitOfRefusal).
 */
export function refusedDomain(
  io: CliIo,
  problem: { code: string; message: string; status: number },
  json: boolean,
): number {
  const exit = exitOfRefusal(problem);
  if (!json) throw new CliError(problem.message, exit);
  say(io, JSON.stringify({ code: problem.code, message: problem.message, status: problem.status }));
  return exit;
}

/**
 * `domains list`: one page of the project's domains in the order they were added (a table, or with
 * --json an array of Domain objects), the next page's cursor on stderr, or with --all every domain in
 * constant memory (printPages).
 */
export function printDomains(
  io: CliIo,
  slug: string,
  pager: Pager<DomainJson>,
  options: PageOptions,
): Promise<void> {
  return printPages<DomainJson>(
    io,
    {
      command: `petstore domains list --project ${slug}`,
      pager,
      columns: [
        { title: 'HOSTNAME' },
        { title: 'STATE' },
        { title: 'PRIMARY' },
        { title: 'CHECKED' },
        { title: 'REASON' },
      ],
      row: (v) => [
        v.hostname,
        v.state,
        v.primary ? 'yes' : '',
        formatInstant(instant(v.checkedAt), 'never'),
        [v.reason, v.checkError].filter(Boolean).join(' '),
      ],
      record: (domain) => stringifyJson(domain),
      empty: noDomains(slug),
    },
    options,
  );
}
