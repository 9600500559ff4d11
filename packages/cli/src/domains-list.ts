import { decodeDomainCursor } from '@petstore/server/features/domains/cursor.ts';
import { DOMAIN_PAGE, type DomainsService } from '@petstore/server/features/domains/service.ts';
import { domainJson } from '@petstore/server/features/domains/json.ts';
import { OPERATOR } from '@petstore/server/features/shared/actor.ts';
import { printDomains } from './domains-output.ts';
import { CliError, EXIT } from './exit.ts';
import type { CliIo } from './io.ts';
import { cursorPager, type PageOptions } from './paged-output.ts';
import { UsageError } from './usage.ts';

/** `domains list --cursor`, read before anything is opened: the position of a page's last domain. */
export function readDomainsCursor(text: string | undefined): string | undefined {
  if (text !== undefined && !decodeDomainCursor(text))
    throw new UsageError('--cursor must be a cursor printed by "domains list"');
  return text;
}

/** `domains list` on the database: pages of the domains service, printed as the management API's. */
export async function listDomains(
  io: CliIo,
  domains: DomainsService,
  slug: string,
  options: PageOptions,
): Promise<void> {
  await printDomains(
    io,
    slug,
    cursorPager(DOMAIN_PAGE.maxLimit, async (cursor, limit) => {
      const page = await domains.list(OPERATOR, slug, { limit, cursor });
      if (!page.ok)
        throw new CliError(
          page.problem.message,
          page.problem.code === 'invalid_cursor' ? EXIT.usage : EXIT.failed,
        );
      return { data: page.value.data.map((view) => domainJson(view)), next: page.value.next };
    }),
    options,
  );
}
