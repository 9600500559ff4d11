import {
  decodeDomainCursor,
  DOMAIN_PAGE,
  type DomainsService,
  type DomainView,
  OPERATOR,
} from '@petstore/server/operator-domains';
import type { CliIo } from './io.ts';
import { cursorPager, type PageOptions, printPages } from './paged-output.ts';
import { UsageError } from './usage.ts';
import { formatInstant } from './table.ts';
import { CliError } from './exit.ts';

/** What `domains list` says of a project without domains. */
export const noDomains = (slug: string): string =>
  `${slug} has no custom domain; add one with: petstore domains add docs.example.com --project ${slug}`;

/** `domains list --cursor`, read before the database is opened: the position of a page's last domain. */
export function readDomainsCursor(text: string | undefined): string | undefined {
  if (text !== undefined && !decodeDomainCursor(text))
    throw new UsageError('--cursor must be a cursor printed by "domains list"');
  return text;
}

/**
 * `domains list`: one page of the project's domains in the order they were added (a table, or with
 * --json an array with the records), the next page's cursor on stderr, or with --all every domain in
 * constant memory (printPages), each page read through the domains service.
 */
export async function listDomains(
  io: CliIo,
  domains: DomainsService,
  slug: string,
  options: PageOptions,
): Promise<void> {
  await printPages<DomainView>(
    io,
    {
      command: `petstore domains list --project ${slug}`,
      pager: cursorPager(DOMAIN_PAGE.maxLimit, async (cursor, limit) => {
        const page = await domains.list(OPERATOR, slug, { limit, cursor });
        if (!page.ok) throw new CliError(page.problem.message);
        return page.value;
      }),
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
        formatInstant(v.checkedAt, 'never'),
        [v.reason, v.checkError].filter(Boolean).join(' '),
      ],
      record: (domain) => JSON.stringify({ project: slug, ...domain }),
      empty: noDomains(slug),
    },
    options,
  );
}
