import { attempt } from './api-refusal.ts';
import { printDomainOutcome, printDomains, refusedDomain } from './domains-output.ts';
import { EXIT } from './exit.ts';
import type { CliIo } from './io.ts';
import type { ManageApi } from './manage-session.ts';
import { cursorPager, type PageOptions } from './paged-output.ts';

/** The management API's largest page of domains: a longer --limit is read in several. */
const API_PAGE = 100;

/**
 * `petstore domains …` through the management API, with the database mode's output: the same words,
 * the same Domain objects with --json, the same exit statuses.
 */
export async function runDomainsApi(
  io: CliIo,
  api: ManageApi,
  action: string,
  request: { slug: string; hostname: string | undefined; paging: PageOptions },
): Promise<number> {
  const { slug, paging } = request;
  const path = { slug, hostname: request.hostname ?? '' };
  if (action === 'list') {
    const pager = cursorPager(API_PAGE, async (cursor, limit) => {
      const { data } = await api.run((client) =>
        client.get('/projects/{slug}/domains', { path: { slug }, query: { limit, cursor } }),
      );
      return data;
    });
    await printDomains(io, slug, pager, paging);
    return EXIT.ok;
  }
  const answer = await attempt(api, (client) =>
    action === 'add'
      ? client.post('/projects/{slug}/domains', { path: { slug }, body: { hostname: path.hostname } })
      : action === 'verify'
        ? client.post('/projects/{slug}/domains/{hostname}/check', { path })
        : action === 'primary'
          ? client.post('/projects/{slug}/domains/{hostname}/primary', { path })
          : client.delete('/projects/{slug}/domains/{hostname}', { path }),
  );
  if (!answer.ok) return refusedDomain(io, answer.problem, paging.json);
  return printDomainOutcome(io, action, slug, answer.value.data, paging.json);
}
